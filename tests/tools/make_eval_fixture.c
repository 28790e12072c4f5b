/* Writes what tests/tools/eval_cli.sh evaluates: a tiny colour classifier
 * made with tests/model/tflite_builder.h (the mean colour of the image, then
 * one FULLY_CONNECTED layer whose class scores are largest for the nearest
 * of ten reference colours), its labels, and labelled PNG and JPEG photos
 * written with libpng and libjpeg, plus broken inputs.
 * usage: make_eval_fixture DIR (DIR must exist). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jpeglib.h>
#include <png.h>

#include "tests/model/tflite_builder.h"
#include "tflaccel/tflaccel.h"

#define SIDE 16
#define CLASS_COUNT 10

static const char *const class_names[CLASS_COUNT] = {
    "red", "green", "blue", "yellow", "cyan", "magenta", "white", "black", "gray", "orange"};
static const uint8_t class_colours[CLASS_COUNT][3] = {
    {255, 0, 0},     {0, 255, 0},   {0, 0, 255},     {255, 255, 0},   {0, 255, 255},
    {255, 0, 255}, {255, 255, 255}, {0, 0, 0}, {128, 128, 128}, {255, 128, 0}};

/* The photos: file name, colour, ground-truth label. The dark orange one is
 * labelled red: nearest to orange, so a top-1 miss and a top-2 hit. */
typedef struct photo {
  const char *name;
  uint8_t rgb[3];
  const char *label;
} photo;
static const photo photos[] = {
    {"a_red.png", {250, 5, 5}, "red"},       {"b_green.jpg", {0, 250, 10}, "green"},
    {"c_blue.png", {0, 0, 255}, "blue"},     {"d_white.jpg", {250, 250, 250}, "white"},
    {"e_darkorange.png", {255, 100, 0}, "red"}, {"f_gray.png", {120, 120, 120}, "gray"},
};

static int fail(const char *what) {
  fprintf(stderr, "make_eval_fixture: %s\n", what);
  return 0;
}

static float normalized(uint8_t value) { return ((float)value - 127.5f) / 127.5f; }

/* quantized_input: a uint8 input (scale 1/128, zero point 128) dequantized
 * first, to exercise the quantized preprocessing. */
static int write_model(const char *path, int quantized_input) {
  tb_model *builder = tb_create();
  float weights[CLASS_COUNT * 3], bias[CLASS_COUNT];
  for (int c = 0; c < CLASS_COUNT; ++c) {
    float norm = 0.0f;
    for (int k = 0; k < 3; ++k) {
      float v = normalized(class_colours[c][k]);
      weights[c * 3 + k] = 2.0f * v;
      norm += v * v;
    }
    bias[c] = -norm; /* score = -|mean - colour|^2 + |mean|^2 */
  }
  int32_t axes[2] = {1, 2};
  uint32_t axes_buffer = tb_buffer(builder, axes, sizeof axes);
  uint32_t weights_buffer = tb_buffer(builder, weights, sizeof weights);
  uint32_t bias_buffer = tb_buffer(builder, bias, sizeof bias);
  int32_t image_shape[4] = {1, SIDE, SIDE, 3};
  int32_t next = 0;
  int32_t image = next++;
  tb_tensor(builder, "image", quantized_input ? TFLACCEL_DTYPE_UINT8 : TFLACCEL_DTYPE_FLOAT32, 4,
            image_shape, 0);
  int32_t as_float = image;
  if (quantized_input) {
    float scale = 1.0f / 128.0f;
    int64_t zero_point = 128;
    tb_tensor_quantization(builder, (uint32_t)image, 1, &scale, &zero_point, 0);
    as_float = next++;
    tb_tensor(builder, "image_float", TFLACCEL_DTYPE_FLOAT32, 4, image_shape, 0);
  }
  int32_t axes_tensor = next++;
  tb_tensor(builder, "axes", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){2}, axes_buffer);
  int32_t mean = next++;
  tb_tensor(builder, "mean_colour", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, 3}, 0);
  int32_t weights_tensor = next++;
  tb_tensor(builder, "weights", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){CLASS_COUNT, 3},
            weights_buffer);
  int32_t bias_tensor = next++;
  tb_tensor(builder, "bias", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){CLASS_COUNT}, bias_buffer);
  int32_t scores = next++;
  tb_tensor(builder, "scores", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, CLASS_COUNT}, 0);
  if (quantized_input) {
    uint32_t dequantize = tb_opcode(builder, TFLACCEL_OP_DEQUANTIZE, NULL);
    tb_op(builder, dequantize, 1, (int32_t[]){image}, 1, (int32_t[]){as_float});
  }
  uint32_t mean_code = tb_opcode(builder, TFLACCEL_OP_MEAN, NULL);
  tb_op(builder, mean_code, 2, (int32_t[]){as_float, axes_tensor}, 1, (int32_t[]){mean});
  uint32_t fc = tb_opcode(builder, TFLACCEL_OP_FULLY_CONNECTED, NULL);
  tb_op(builder, fc, 3, (int32_t[]){mean, weights_tensor, bias_tensor}, 1, (int32_t[]){scores});
  tb_inputs(builder, 1, (int32_t[]){image});
  tb_outputs(builder, 1, (int32_t[]){scores});
  size_t size = 0;
  uint8_t *bytes = tb_serialize(builder, &size);
  tb_destroy(builder);
  if (bytes == NULL) return fail("cannot serialize the model");
  FILE *file = fopen(path, "wb");
  int ok = file != NULL && fwrite(bytes, 1, size, file) == size;
  if (file != NULL && fclose(file) != 0) ok = 0;
  free(bytes);
  return ok ? 1 : fail(path);
}

/* A photo of width x height: the colour, with a faint diagonal ripple so
 * that it is not one flat value. */
static uint8_t *make_pixels(const uint8_t rgb[3], uint32_t width, uint32_t height) {
  uint8_t *pixels = malloc((size_t)width * height * 3);
  if (pixels == NULL) return NULL;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        int ripple = (int)((x + y) % 3) - 1;
        int value = rgb[c] + ripple;
        pixels[((size_t)y * width + x) * 3 + (size_t)c] =
            (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
      }
  return pixels;
}

static int write_png(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path, 0, pixels, 0, NULL)) return fail(image.message);
  return 1;
}

static int write_jpeg(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height) {
  FILE *file = fopen(path, "wb");
  if (file == NULL) return fail(path);
  struct jpeg_compress_struct info;
  struct jpeg_error_mgr errors;
  info.err = jpeg_std_error(&errors); /* libjpeg exits on error: fine for a test tool */
  jpeg_create_compress(&info);
  jpeg_stdio_dest(&info, file);
  info.image_width = width;
  info.image_height = height;
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, 95, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * width * 3);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  return fclose(file) == 0 ? 1 : fail(path);
}

static int write_text(const char *path, const char *text) {
  FILE *file = fopen(path, "w");
  if (file == NULL) return fail(path);
  int ok = fputs(text, file) >= 0;
  if (fclose(file) != 0) ok = 0;
  return ok ? 1 : fail(path);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_eval_fixture DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  char path[4096], text[1024];
  snprintf(path, sizeof path, "%s/classifier.tflite", dir);
  if (!write_model(path, 0)) return 1;
  snprintf(path, sizeof path, "%s/classifier_uint8.tflite", dir);
  if (!write_model(path, 1)) return 1;
  text[0] = '\0';
  for (int c = 0; c < CLASS_COUNT; ++c) {
    strcat(text, class_names[c]);
    strcat(text, "\n");
  }
  snprintf(path, sizeof path, "%s/labels.txt", dir);
  if (!write_text(path, text)) return 1;
  snprintf(path, sizeof path, "%s/labels_short.txt", dir);
  if (!write_text(path, "red\ngreen\nblue\nyellow\ncyan\n")) return 1;
  snprintf(path, sizeof path, "%s/images", dir);
  if (mkdir(path, 0755) != 0) return fail("cannot make images/");
  text[0] = '\0';
  for (size_t i = 0; i < sizeof photos / sizeof photos[0]; ++i) {
    uint32_t width = 24 + 8 * (uint32_t)i, height = 20 + 4 * (uint32_t)i;
    uint8_t *pixels = make_pixels(photos[i].rgb, width, height);
    if (pixels == NULL) return fail("out of memory");
    snprintf(path, sizeof path, "%s/images/%s", dir, photos[i].name);
    int ok = strstr(photos[i].name, ".png") ? write_png(path, pixels, width, height)
                                            : write_jpeg(path, pixels, width, height);
    free(pixels);
    if (!ok) return 1;
    strcat(text, photos[i].label);
    strcat(text, "\n");
  }
  snprintf(path, sizeof path, "%s/truth.txt", dir);
  if (!write_text(path, text)) return 1;
  /* Not an image: ignored by its extension. */
  snprintf(path, sizeof path, "%s/images/README.txt", dir);
  if (!write_text(path, "labelled colour photos\n")) return 1;
  /* A directory with a corrupt PNG (right signature, garbage after it). */
  snprintf(path, sizeof path, "%s/corrupt", dir);
  if (mkdir(path, 0755) != 0) return fail("cannot make corrupt/");
  snprintf(path, sizeof path, "%s/corrupt/broken.png", dir);
  if (!write_text(path, "\x89PNG\r\n\x1a\nthis is not a PNG body at all")) return 1;
  snprintf(path, sizeof path, "%s/corrupt_truth.txt", dir);
  if (!write_text(path, "red\n")) return 1;
  return 0;
}
