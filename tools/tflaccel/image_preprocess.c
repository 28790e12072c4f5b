#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "core/facts/half.h"
#include "tools/tflaccel/image_preprocess.h"

int image_input_supported(const tflaccel_tensor_info *input, const char **why) {
  if (input->rank != 4 || input->shape[0] != 1 || input->shape[3] != 3 || input->shape[1] < 1 ||
      input->shape[2] < 1) {
    *why = "the input is not one RGB image [1, height, width, 3]";
    return 0;
  }
  switch (input->dtype) {
    case TFLACCEL_DTYPE_FLOAT32:
    case TFLACCEL_DTYPE_FLOAT16:
    case TFLACCEL_DTYPE_UINT8:
    case TFLACCEL_DTYPE_INT8: return 1;
    default: *why = "the input type is not float32, float16, uint8 or int8"; return 0;
  }
}

/* Bilinear sample of channel c at (y, x) in crop coordinates. */
static float sample(const rgb_image *image, double y, double x, int c) {
  if (y < 0) y = 0;
  if (x < 0) x = 0;
  uint32_t y0 = (uint32_t)y, x0 = (uint32_t)x;
  if (y0 >= image->height) y0 = image->height - 1;
  if (x0 >= image->width) x0 = image->width - 1;
  uint32_t y1 = y0 + 1 < image->height ? y0 + 1 : y0;
  uint32_t x1 = x0 + 1 < image->width ? x0 + 1 : x0;
  double dy = y - y0, dx = x - x0;
  if (dy > 1) dy = 1;
  if (dx > 1) dx = 1;
  const uint8_t *p = image->pixels;
  size_t stride = (size_t)image->width * 3;
  double top = p[y0 * stride + x0 * 3 + c] * (1 - dx) + p[y0 * stride + x1 * 3 + c] * dx;
  double bottom = p[y1 * stride + x0 * 3 + c] * (1 - dx) + p[y1 * stride + x1 * 3 + c] * dx;
  return (float)(top * (1 - dy) + bottom * dy);
}

static long clamp_round(double value, long low, long high) {
  double rounded = nearbyint(value);
  if (rounded < low) return low;
  if (rounded > high) return high;
  return (long)rounded;
}

tflaccel_status image_preprocess(const rgb_image *image, const tflaccel_tensor_info *input,
                                 float mean, float std, void *data, size_t size) {
  const char *why = NULL;
  if (!image_input_supported(input, &why))
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%s", why);
  uint32_t height = (uint32_t)input->shape[1], width = (uint32_t)input->shape[2];
  size_t count = (size_t)height * width * 3;
  if (size != count * tflaccel_dtype_size(input->dtype))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "image buffer of %zu bytes, not %zu",
                                size, count * tflaccel_dtype_size(input->dtype));
  if (image->width == 0 || image->height == 0 || std == 0.0f)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "empty image or zero std");
  /* The central crop, then pixel centres mapped onto it. */
  double crop_h = image->height * IMAGE_CROP_FRACTION, crop_w = image->width * IMAGE_CROP_FRACTION;
  double top = (image->height - crop_h) / 2, left = (image->width - crop_w) / 2;
  double scale_y = crop_h / height, scale_x = crop_w / width;
  int quantized = input->quantization.count > 0 && input->quantization.scales[0] != 0.0f;
  double q_scale = quantized ? input->quantization.scales[0] : 1.0;
  double q_zero = quantized ? input->quantization.zero_points[0] : 0.0;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        double sy = top + (y + 0.5) * scale_y - 0.5, sx = left + (x + 0.5) * scale_x - 0.5;
        float pixel = sample(image, sy, sx, c);
        double normalized = ((double)pixel - mean) / std;
        size_t i = ((size_t)y * width + x) * 3 + (size_t)c;
        switch (input->dtype) {
          case TFLACCEL_DTYPE_FLOAT32: ((float *)data)[i] = (float)normalized; break;
          case TFLACCEL_DTYPE_FLOAT16: ((uint16_t *)data)[i] = half_from_float((float)normalized); break;
          case TFLACCEL_DTYPE_UINT8:
            ((uint8_t *)data)[i] = (uint8_t)(quantized ? clamp_round(normalized / q_scale + q_zero, 0, 255)
                                                       : clamp_round(pixel, 0, 255));
            break;
          case TFLACCEL_DTYPE_INT8:
            ((int8_t *)data)[i] = (int8_t)(quantized ? clamp_round(normalized / q_scale + q_zero, -128, 127)
                                                     : clamp_round(pixel - 128.0, -128, 127));
            break;
          default: break;
        }
      }
  return NULL;
}
