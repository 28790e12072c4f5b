/* Shape arithmetic the GPU layer shares between deciding support and
 * lowering ops: fused-activation bounds, broadcasting, the transposed
 * convolutions' parameters. TFLite's window sizes and padding are the facts
 * library's (core/facts/conv_geometry.h). */
#ifndef TFLACCEL_GPU_COMMON_GPU_OP_MATH_H
#define TFLACCEL_GPU_COMMON_GPU_OP_MATH_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_layout.h"
#include "tflaccel/accelerator.h"

/* Bounds of a fused activation (NONE: +-FLT_MAX); 0 for TANH, SIGN_BIT and
 * unknown values, which no GPU kernel applies. */
int gpu_activation_range(int32_t activation, float *low, float *high);

/* Whether operand (4-D view) broadcasts into out: each dim equal or 1. */
int gpu_broadcasts_into(gpu_shape operand, gpu_shape out);

/* Tensor of input / output index of op, or NULL when absent. */
const tflaccel_tensor_desc *gpu_op_input(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op, uint32_t index);
const tflaccel_tensor_desc *gpu_op_output(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op, uint32_t index);

/* The transposed convolutions' parameters, builtin or MediaPipe custom. */
typedef struct gpu_tconv_shape {
  uint32_t input, weights, bias; /* input positions (bias may be absent) */
  int32_t padding, stride_h, stride_w, activation;
  int32_t pad_top, pad_left;
} gpu_tconv_shape;
void gpu_tconv_describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        gpu_tconv_shape *shape);

/* The custom op name this layer runs. */
#define GPU_CUSTOM_TRANSPOSE_CONV_BIAS "Convolution2DTransposeBias"

#endif
