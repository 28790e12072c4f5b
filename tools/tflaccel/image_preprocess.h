/* TFLite's image classification preprocessing (run_eval): a central crop
 * keeping 87.5% of each side (none for object detection), bilinear resize to the input's height and
 * width, then the input's type. Pixels x in 0..255 become
 * f = (x - mean) / std per channel (mean 127.5, std 127.5 unless the
 * caller gives the model metadata's, model_metadata.h); float inputs take f, quantized inputs
 * round(f / scale) + zero_point, clamped; a quantized input without
 * parameters takes the raw pixel (uint8) or the pixel - 128 (int8), as
 * run_eval does. */
#ifndef TFLACCEL_TOOLS_IMAGE_PREPROCESS_H
#define TFLACCEL_TOOLS_IMAGE_PREPROCESS_H

#include <stddef.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/image_decode.h"

#define IMAGE_CROP_FRACTION 0.875

/* (x - mean[c]) / std[c] for channel c (R, G, B). */
typedef struct image_normalization {
  float mean[3], std[3];
} image_normalization;

/* run_eval's: 127.5 and 127.5, [0, 255] onto [-1, 1]. */
extern const image_normalization image_default_normalization;

/* 1 when the input looks like an image: [1, H, W, 3] of float32, float16,
 * uint8 or int8; else 0 with *why set. */
int image_input_supported(const tflaccel_tensor_info *input, const char **why);

/* Writes the preprocessed image into data (size: the input's byte size),
 * after a central crop keeping crop_fraction of each side
 * (IMAGE_CROP_FRACTION for classification, 1 for detection). */
tflaccel_status image_preprocess(const rgb_image *image, const tflaccel_tensor_info *input,
                                 const image_normalization *normalization, double crop_fraction,
                                 void *data, size_t size);

#endif
