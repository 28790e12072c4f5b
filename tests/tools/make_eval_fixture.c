/* Writes what tests/tools/eval_cli.sh evaluates: a tiny colour classifier
 * made with tests/model/tflite_builder.h (the mean colour of the image, then
 * one FULLY_CONNECTED layer whose class scores are largest for the nearest
 * of ten reference colours), its labels, and labelled PNG and JPEG photos
 * written with libpng and libjpeg, plus broken inputs. classifier_metadata
 * takes raw pixels (0..255) and says so in its TFLite Metadata
 * (NormalizationOptions mean 0, std 1, written with
 * tests/model/flatbuffer_writer.h); classifier_raw is the same model
 * without the metadata, classifier_bad_metadata has a std of 2 values
 * for its 3 channels and classifier_corrupt_metadata bytes that are no
 * flatbuffer.
 * usage: make_eval_fixture DIR (DIR must exist). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jpeglib.h>
#include <png.h>

#include "tests/model/flatbuffer_writer.h"
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

/* The input the model expects: run_eval's [-1, 1], or raw pixels. */
typedef enum input_range { RANGE_SIGNED_UNIT = 0, RANGE_RAW_PIXELS = 1 } input_range;

static float normalized(uint8_t value, input_range range) {
  return range == RANGE_RAW_PIXELS ? (float)value : ((float)value - 127.5f) / 127.5f;
}

/* TFLite Metadata (metadata_schema.fbs, identifier M001) whose one input
 * has NormalizationOptions of mean_count / std_count values. */
static uint8_t *make_metadata(uint32_t mean_count, uint32_t std_count, float mean, float std,
                              size_t *size) {
  fbw *writer = fbw_create();
  if (writer == NULL) return NULL;
  float means[3] = {mean, mean, mean}, stds[3] = {std, std, std};
  fbw_node *options = fbw_table(writer);
  fbw_ref(options, 0, fbw_vector(writer, means, mean_count, 4, 4));
  fbw_ref(options, 1, fbw_vector(writer, stds, std_count, 4, 4));
  fbw_node *unit = fbw_table(writer);
  fbw_scalar(unit, 0, 1, 1); /* ProcessUnitOptions.NormalizationOptions */
  fbw_ref(unit, 1, options);
  fbw_node *tensor = fbw_table(writer);
  fbw_ref(tensor, 0, fbw_string(writer, "image"));
  fbw_ref(tensor, 4, fbw_vector_of(writer, &unit, 1));
  fbw_node *subgraph = fbw_table(writer);
  fbw_ref(subgraph, 2, fbw_vector_of(writer, &tensor, 1));
  fbw_node *root = fbw_table(writer);
  fbw_ref(root, 0, fbw_string(writer, "colour classifier"));
  fbw_ref(root, 3, fbw_vector_of(writer, &subgraph, 1));
  uint8_t *bytes = fbw_finish(writer, root, "M001", size);
  fbw_destroy(writer);
  return bytes;
}

#define METADATA_CORRUPT 99 /* metadata_std_count: bytes that are no flatbuffer */

/* quantized_input: a uint8 input (scale 1/128, zero point 128) dequantized
 * first, to exercise the quantized preprocessing. metadata_std_count: 0 for
 * no metadata, else the values of its std (3: right, 2: malformed). */
static int write_model(const char *path, int quantized_input, input_range range,
                       uint32_t metadata_std_count) {
  tb_model *builder = tb_create();
  float weights[CLASS_COUNT * 3], bias[CLASS_COUNT];
  for (int c = 0; c < CLASS_COUNT; ++c) {
    float norm = 0.0f;
    for (int k = 0; k < 3; ++k) {
      float v = normalized(class_colours[c][k], range);
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
  if (metadata_std_count == METADATA_CORRUPT) {
    /* The identifier, then a root offset far outside the bytes. */
    static const uint8_t corrupt[12] = {0xf0, 0xff, 0xff, 0x7f, 'M', '0', '0', '1', 0, 0, 0, 0};
    tb_metadata(builder, "TFLITE_METADATA", tb_buffer(builder, corrupt, sizeof corrupt));
  } else if (metadata_std_count > 0) {
    size_t metadata_size = 0;
    uint8_t *metadata = make_metadata(3, metadata_std_count, 0.0f, 1.0f, &metadata_size);
    if (metadata == NULL) {
      tb_destroy(builder);
      return fail("cannot serialize the metadata");
    }
    tb_metadata(builder, "TFLITE_METADATA", tb_buffer(builder, metadata, metadata_size));
    free(metadata);
  }
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

/* Writes the serialized model of builder (destroyed) to path. */
static int write_builder(tb_model *builder, const char *path) {
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

/* The quadrant detector: four fixed boxes (the image's quadrants, top-left,
 * top-right, bottom-left, bottom-right), each scored by the mean brightness
 * of its quadrant (AVERAGE_POOL_2D 8x8, MEAN over the colours), all of
 * class 0, count 4: the outputs of TFLite's SSD post-processing. Its
 * metadata normalizes pixels to [0, 1] (mean 0, std 255). */
static int write_detector(const char *path) {
  tb_model *builder = tb_create();
  static const float boxes[16] = {0.0f, 0.0f, 0.5f, 0.5f, 0.0f, 0.5f, 0.5f, 1.0f,
                                  0.5f, 0.0f, 1.0f, 0.5f, 0.5f, 0.5f, 1.0f, 1.0f};
  static const float classes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  static const float count[1] = {4.0f};
  static const int32_t colour_axis[1] = {3}, scores_shape[2] = {1, 4};
  int32_t image = 0, pooled = 1, axis = 2, brightness = 3, shape = 4, scores = 5, boxes_t = 6,
          classes_t = 7, count_t = 8;
  tb_tensor(builder, "image", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, SIDE, SIDE, 3}, 0);
  tb_tensor(builder, "quadrants", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 2, 2, 3}, 0);
  tb_tensor(builder, "colour_axis", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){1},
            tb_buffer(builder, colour_axis, sizeof colour_axis));
  tb_tensor(builder, "brightness", TFLACCEL_DTYPE_FLOAT32, 3, (int32_t[]){1, 2, 2}, 0);
  tb_tensor(builder, "scores_shape", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){2},
            tb_buffer(builder, scores_shape, sizeof scores_shape));
  tb_tensor(builder, "detection_scores", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, 4}, 0);
  tb_tensor(builder, "detection_boxes", TFLACCEL_DTYPE_FLOAT32, 3, (int32_t[]){1, 4, 4},
            tb_buffer(builder, boxes, sizeof boxes));
  tb_tensor(builder, "detection_classes", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, 4},
            tb_buffer(builder, classes, sizeof classes));
  tb_tensor(builder, "num_detections", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){1},
            tb_buffer(builder, count, sizeof count));
  uint32_t pool = tb_opcode(builder, TFLACCEL_OP_AVERAGE_POOL_2D, NULL);
  uint32_t op = tb_op(builder, pool, 1, (int32_t[]){image}, 1, (int32_t[]){pooled});
  const tb_field pool_fields[5] = {{0, 1, 1 /* VALID */}, {1, 4, SIDE / 2}, {2, 4, SIDE / 2},
                                   {3, 4, SIDE / 2},      {4, 4, SIDE / 2}};
  tb_op_options(builder, op, 5 /* Pool2DOptions */, 5, pool_fields);
  uint32_t mean = tb_opcode(builder, TFLACCEL_OP_MEAN, NULL);
  tb_op(builder, mean, 2, (int32_t[]){pooled, axis}, 1, (int32_t[]){brightness});
  uint32_t reshape = tb_opcode(builder, TFLACCEL_OP_RESHAPE, NULL);
  tb_op(builder, reshape, 2, (int32_t[]){brightness, shape}, 1, (int32_t[]){scores});
  tb_inputs(builder, 1, (int32_t[]){image});
  tb_outputs(builder, 4, (int32_t[]){boxes_t, classes_t, scores, count_t});
  size_t metadata_size = 0;
  uint8_t *metadata = make_metadata(3, 3, 0.0f, 255.0f, &metadata_size);
  if (metadata == NULL) {
    tb_destroy(builder);
    return fail("cannot serialize the metadata");
  }
  tb_metadata(builder, "TFLITE_METADATA", tb_buffer(builder, metadata, metadata_size));
  free(metadata);
  return write_builder(builder, path);
}

/* A black width x height image with a white rectangle over rows
 * [top, bottom) and columns [left, right). */
static uint8_t *make_scene(uint32_t width, uint32_t height, uint32_t top, uint32_t bottom,
                           uint32_t left, uint32_t right) {
  uint8_t *pixels = calloc((size_t)width * height * 3, 1);
  if (pixels == NULL) return NULL;
  for (uint32_t y = top; y < bottom; ++y)
    memset(pixels + ((size_t)y * width + left) * 3, 255, (size_t)(right - left) * 3);
  return pixels;
}

/* What the detection test reads: the detector, its labels, two scenes and
 * their ground truth (ObjectDetectionGroundTruth text proto), and broken
 * ground truth. Scene a: a white square that is exactly the top-left
 * quadrant; scene b: a white square over 0.5..0.9 of each side (IoU 0.64
 * with the bottom-right quadrant). scenes_extra/ holds them and scene c,
 * which the ground truth does not name. */
static int write_detection_fixture(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/detector.tflite", dir);
  if (!write_detector(path)) return 0;
  snprintf(path, sizeof path, "%s/detector_labels.txt", dir);
  if (!write_text(path, "background\nsquare\n")) return 0;
  snprintf(path, sizeof path, "%s/scenes", dir);
  if (mkdir(path, 0755) != 0) return fail("cannot make scenes/");
  snprintf(path, sizeof path, "%s/scenes_extra", dir);
  if (mkdir(path, 0755) != 0) return fail("cannot make scenes_extra/");
  uint8_t *a = make_scene(32, 32, 0, 16, 0, 16), *b = make_scene(40, 40, 20, 36, 20, 36),
          *c = make_scene(32, 32, 0, 16, 16, 32);
  int ok = a != NULL && b != NULL && c != NULL;
  static const char *const dirs[2] = {"scenes", "scenes_extra"};
  for (int d = 0; d < 2; ++d) {
    snprintf(path, sizeof path, "%s/%s/a.png", dir, dirs[d]);
    ok = ok && write_png(path, a, 32, 32);
    snprintf(path, sizeof path, "%s/%s/b.png", dir, dirs[d]);
    ok = ok && write_png(path, b, 40, 40);
  }
  /* Only in scenes_extra, and in no ground truth: a square that is exactly
   * the top-right quadrant, a confident false positive. */
  snprintf(path, sizeof path, "%s/scenes_extra/c.png", dir);
  ok = ok && write_png(path, c, 32, 32);
  free(a);
  free(b);
  free(c);
  if (!ok) return fail("cannot write the scenes");
  snprintf(path, sizeof path, "%s/detection_truth.pbtxt", dir);
  if (!write_text(path,
                  "# ObjectDetectionGroundTruth of scenes/\n"
                  "detection_results {\n"
                  "  image_name: \"a.png\"\n"
                  "  image_id: 1\n"
                  "  objects {\n"
                  "    class_id: 1\n"
                  "    bounding_box { normalized_top: 0 normalized_bottom: 0.5\n"
                  "                   normalized_left: 0.0 normalized_right: 0.5 }\n"
                  "  }\n"
                  "}\n"
                  "detection_results {\n"
                  "  image_name: 'b.png'\n"
                  "  objects { class_id: 1 bounding_box { normalized_top: 0.5, normalized_bottom: 0.9,\n"
                  "    normalized_left: 0.5, normalized_right: 0.9 } }\n"
                  "}\n"))
    return 0;
  snprintf(path, sizeof path, "%s/detection_malformed.pbtxt", dir);
  if (!write_text(path, "detection_results {\n  image_name: \"a.png\"\n  objects {\n"
                        "    class_id: one\n  }\n}\n"))
    return 0;
  snprintf(path, sizeof path, "%s/detection_missing_image.pbtxt", dir);
  if (!write_text(path, "detection_results { image_name: \"nowhere.png\" objects { class_id: 1 "
                        "bounding_box { normalized_top: 0 normalized_bottom: 1 normalized_left: 0 "
                        "normalized_right: 1 } } }\n"))
    return 0;
  snprintf(path, sizeof path, "%s/detection_bad_class.pbtxt", dir);
  return write_text(path, "detection_results { image_name: \"a.png\" objects { class_id: 7 "
                          "bounding_box { normalized_top: 0 normalized_bottom: 1 normalized_left: "
                          "0 normalized_right: 1 } } }\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_eval_fixture DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  char path[4096], text[1024];
  snprintf(path, sizeof path, "%s/classifier.tflite", dir);
  if (!write_model(path, 0, RANGE_SIGNED_UNIT, 0)) return 1;
  snprintf(path, sizeof path, "%s/classifier_uint8.tflite", dir);
  if (!write_model(path, 1, RANGE_SIGNED_UNIT, 0)) return 1;
  snprintf(path, sizeof path, "%s/classifier_metadata.tflite", dir);
  if (!write_model(path, 0, RANGE_RAW_PIXELS, 3)) return 1;
  snprintf(path, sizeof path, "%s/classifier_raw.tflite", dir);
  if (!write_model(path, 0, RANGE_RAW_PIXELS, 0)) return 1;
  snprintf(path, sizeof path, "%s/classifier_bad_metadata.tflite", dir);
  if (!write_model(path, 0, RANGE_RAW_PIXELS, 2)) return 1;
  snprintf(path, sizeof path, "%s/classifier_corrupt_metadata.tflite", dir);
  if (!write_model(path, 0, RANGE_RAW_PIXELS, METADATA_CORRUPT)) return 1;
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
  return write_detection_fixture(dir) ? 0 : 1;
}
