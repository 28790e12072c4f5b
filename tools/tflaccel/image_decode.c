#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

#include "tools/tflaccel/image_decode.h"

/* Larger images are refused rather than allocated (a corrupt header). */
#define MAX_IMAGE_PIXELS (64u * 1024u * 1024u)

void rgb_image_free(rgb_image *image) {
  free(image->pixels);
  image->pixels = NULL;
  image->width = image->height = 0;
}

static tflaccel_status decode_png(const char *path, rgb_image *image) {
  png_image png;
  memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: bad PNG: %s", path, png.message);
  if ((uint64_t)png.width * png.height > MAX_IMAGE_PIXELS || png.width == 0 || png.height == 0) {
    png_image_free(&png);
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: PNG of %ux%u pixels is too large",
                                path, png.width, png.height);
  }
  png.format = PNG_FORMAT_RGB;
  image->pixels = malloc(PNG_IMAGE_SIZE(png));
  if (image->pixels == NULL) {
    png_image_free(&png);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", path);
  }
  if (!png_image_finish_read(&png, NULL, image->pixels, 0, NULL)) {
    tflaccel_status status =
        tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: bad PNG: %s", path, png.message);
    png_image_free(&png);
    rgb_image_free(image);
    return status;
  }
  image->width = png.width;
  image->height = png.height;
  return NULL;
}

typedef struct jpeg_failure {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void jpeg_fail(j_common_ptr info) {
  jpeg_failure *failure = (jpeg_failure *)info->err;
  failure->manager.format_message(info, failure->message);
  longjmp(failure->jump, 1);
}

/* libjpeg prints warnings (corrupt data it recovered from) to stderr by
 * default; a recovered image is used, silently. */
static void jpeg_quiet(j_common_ptr info, int level) { (void)info, (void)level; }

static tflaccel_status decode_jpeg(const char *path, FILE *file, rgb_image *image) {
  struct jpeg_decompress_struct info;
  jpeg_failure failure;
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_fail;
  failure.manager.emit_message = jpeg_quiet;
  /* volatile: read after longjmp. */
  uint8_t *volatile pixels = NULL;
  if (setjmp(failure.jump)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: bad JPEG: %s", path,
                                failure.message);
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  if ((uint64_t)info.output_width * info.output_height > MAX_IMAGE_PIXELS ||
      info.output_components != 3) {
    jpeg_destroy_decompress(&info);
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: JPEG of %ux%u pixels is too large",
                                path, info.output_width, info.output_height);
  }
  size_t row_bytes = (size_t)info.output_width * 3;
  pixels = malloc(row_bytes * info.output_height);
  if (pixels == NULL) {
    jpeg_destroy_decompress(&info);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", path);
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = pixels + row_bytes * info.output_scanline;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  image->width = info.output_width;
  image->height = info.output_height;
  image->pixels = pixels;
  jpeg_destroy_decompress(&info);
  return NULL;
}

tflaccel_status image_decode_file(const char *path, rgb_image *image) {
  memset(image, 0, sizeof *image);
  FILE *file = fopen(path, "rb");
  if (file == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read %s: %s", path, strerror(errno));
  unsigned char magic[8] = {0};
  size_t got = fread(magic, 1, sizeof magic, file);
  tflaccel_status status;
  if (got >= 8 && !png_sig_cmp(magic, 0, 8)) {
    fclose(file);
    return decode_png(path, image);
  }
  if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
    rewind(file);
    status = decode_jpeg(path, file, image);
  } else {
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: not a PNG or JPEG image", path);
  }
  fclose(file);
  return status;
}
