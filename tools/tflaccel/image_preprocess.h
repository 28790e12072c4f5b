/* TFLite's image classification preprocessing (run_eval): a central crop
 * keeping 87.5% of each side, bilinear resize to the input's height and
 * width, then the input's type. Pixels x in 0..255 become
 * f = (x - mean) / std (mean 127.5, std 127.5 unless the caller gives the
 * model metadata's); float inputs take f, quantized inputs
 * round(f / scale) + zero_point, clamped; a quantized input without
 * parameters takes the raw pixel (uint8) or the pixel - 128 (int8), as
 * run_eval does. */
#ifndef TFLACCEL_TOOLS_IMAGE_PREPROCESS_H
#define TFLACCEL_TOOLS_IMAGE_PREPROCESS_H

#include <stddef.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/image_decode.h"

#define IMAGE_CROP_FRACTION 0.875
#define IMAGE_DEFAULT_MEAN 127.5f
#define IMAGE_DEFAULT_STD 127.5f

/* 1 when the input looks like an image: [1, H, W, 3] of float32, float16,
 * uint8 or int8; else 0 with *why set. */
int image_input_supported(const tflaccel_tensor_info *input, const char **why);

/* Writes the preprocessed image into data (size: the input's byte size). */
tflaccel_status image_preprocess(const rgb_image *image, const tflaccel_tensor_info *input,
                                 float mean, float std, void *data, size_t size);

#endif
