/* The float view of quantized models (as LiteRT's GPU delegate runs them):
 * the GPU computes in float on the real values of quantized tensors.
 * Constant integer tensors (weights, biases, per tensor or per axis) are
 * dequantized once at compile; quantized partition inputs and outputs are
 * converted at the partition's edges by the layout conversions
 * (gpu_dense_kind); between ops, a tensor that is quantized in the model is
 * rounded onto its integer grid (GPU_POST_QUANTIZE) so that the float run
 * follows the ranges the integer model learnt. This file holds the facts:
 * which tensors the view takes and their real values. */
#ifndef TFLACCEL_GPU_COMMON_GPU_QUANT_H
#define TFLACCEL_GPU_COMMON_GPU_QUANT_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* The integer range of a quantized activation dtype (uint8, int8, int16):
 * 1, or 0 for any other dtype. */
int gpu_quant_range(int32_t dtype, int32_t *qmin, int32_t *qmax);

/* A quantized activation the float view runs: uint8, int8 or int16 with
 * one scale (> 0, finite) and zero point inside the range. */
int gpu_is_quantized_activation(const tflaccel_tensor_desc *tensor);

/* A constant the float view dequantizes: uint8, int8, int16 or int32 with
 * a scale per tensor, per axis (quantized_dimension's size) or per
 * element, its data covering its shape. */
int gpu_is_quantized_constant(const tflaccel_tensor_desc *tensor);

/* An int32 tensor with one scale (> 0, finite) and zero point 0: a
 * QUANTIZE's int32 output (ops/quantize.c), held as its real values
 * inside the GPU layer and quantized at the partition's edge. */
int gpu_is_quantized_int32(const tflaccel_tensor_desc *tensor);

/* Its grid as the layout conversions read it (gpu_dense_kind): scale
 * float bits, zero point, qmin, qmax; qmax is the largest float below
 * 2^31, so that the clamped float converts to int32. */
void gpu_quantized_int32_grid(const tflaccel_tensor_desc *tensor, int32_t grid[4]);

/* The gpu_dense_kind of a partition tensor of that dtype: float32 (also
 * for bool: see the caller), or one of the integer kinds. */
int32_t gpu_dense_kind_of(int32_t dtype);

/* Element index of a constant as a real value: float32 as it is, a
 * quantized integer dequantized ((q - zero point) * scale of its
 * channel). */
float gpu_constant_value(const tflaccel_tensor_desc *tensor, int64_t index);

/* a and b share dtype, scale and zero point (per-tensor). */
int gpu_same_quantization(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b);

#endif
