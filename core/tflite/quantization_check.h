/* Load-time checks of a tensor's quantization parameters, so that no kernel
 * ever derives a multiplier or shift from a nonsensical scale or zero point
 * (a NaN scale or a 2^40 zero point is undefined behaviour in fixed-point
 * arithmetic, and one flipped byte of a file is enough to produce it). */
#ifndef TFLACCEL_CORE_TFLITE_QUANTIZATION_CHECK_H
#define TFLACCEL_CORE_TFLITE_QUANTIZATION_CHECK_H

#include "core/tflite/stored_model.h"

/* Scales of real quantized models lie around 1e-10 .. 1e3; anything outside
 * this range is corrupt (documented in docs/RELIABILITY.md). */
#define QUANTIZATION_MIN_SCALE 1e-30
#define QUANTIZATION_MAX_SCALE 1e30

/* Checks tensor->quantization against its dtype and shape: every scale
 * finite, positive and in [QUANTIZATION_MIN_SCALE, QUANTIZATION_MAX_SCALE];
 * every zero point inside the dtype's range; per-axis parameters on an axis
 * of the shape, one per element of that axis. The message names the entry;
 * the caller adds the tensor. */
tflaccel_status quantization_check(const model_tensor *tensor);

#endif
