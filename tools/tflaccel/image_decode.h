/* Decodes a PNG or JPEG file into 8-bit RGB with the packaged libraries
 * (libpng's simplified API, libjpeg-turbo), chosen by the file's magic
 * bytes. Errors name the file and what is wrong with it. */
#ifndef TFLACCEL_TOOLS_IMAGE_DECODE_H
#define TFLACCEL_TOOLS_IMAGE_DECODE_H

#include <stdint.h>

#include "tflaccel/status.h"

typedef struct rgb_image {
  uint32_t width, height;
  uint8_t *pixels; /* width * height * 3, row-major, malloc'ed */
} rgb_image;

tflaccel_status image_decode_file(const char *path, rgb_image *image);
void rgb_image_free(rgb_image *image);

#endif
