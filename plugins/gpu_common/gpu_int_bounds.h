/* int32 values on the GPU: the GPU layer holds them as float values, so an
 * int32 tensor runs there only where a bound on its magnitude is proven
 * from the graph (constants, index outputs bounded by their axis, the
 * arithmetic in between) and every integer up to that bound is exact in the
 * partition's precision: below 2^24 in fp32, up to 2^11 in fp16. */
#ifndef TFLACCEL_GPU_COMMON_GPU_INT_BOUNDS_H
#define TFLACCEL_GPU_COMMON_GPU_INT_BOUNDS_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_support_check.h"
#include "tflaccel/accelerator.h"

/* The largest magnitude up to which every integer is exact as a float
 * value of precision (tflaccel_precision): 2^24 (fp32), 2^11 (fp16). */
int64_t gpu_exact_integer_limit(int32_t precision);

/* 1 with *bound the largest magnitude tensor's values can have (proven
 * from its producers), or 0 when nothing bounds them (a graph input, a
 * CAST from float, an op the proof does not know). */
int gpu_int_bound(const tflaccel_graph_view *graph, uint32_t tensor, int64_t *bound);

/* An int32 tensor the op computes on as float values: 1 when its proven
 * bound is within the precision's exact integers, else 0 with a reason
 * that names the bound. */
int gpu_check_int_values(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                         const char *role);

/* floor(a / b) of integers a, b held as floats is exact while the
 * division's rounding error (at most 2.5 ulp on OpenCL and Vulkan) stays
 * below the gap 1/|b| between a/b and the next integer: |a| up to the
 * exact limit divided by this margin. */
#define GPU_INT_DIVISION_MARGIN 8

/* Marks check's decline as one made only because int32 values pass the
 * precision's exact integers (gpu_op_supported_at then asks fp32). */
void gpu_mark_inexact_integers(const gpu_support_check *check);

/* FLOOR_DIV of int32 values: 1 when the dividend's proven bound keeps
 * floor(a / b) exact, else 0 with a reason that names the bound. */
int gpu_check_int_dividend(const gpu_support_check *check, const tflaccel_tensor_desc *dividend);

#endif
