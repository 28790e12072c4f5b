/* Emit helpers for the op families that lower to a convolution kernel
 * (ops/conv.c, fully_connected.c, transpose_conv.c, lstm.c): weight
 * packing, the choice of convolution kernel, the ordered kernels' work
 * sizes. Like gpu_emit.h, they never call an op builder. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EMIT_CONV_H
#define TFLACCEL_GPU_COMMON_GPU_EMIT_CONV_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_lowering_state.h"

/* Alignment of packed weights in the constants buffer. */
#define GPU_WEIGHT_ALIGNMENT 256

/* The GLSL kernels' shared array holds LOWER_ORDERED_TAPS_PER_ITEM values per
 * item (its size follows the group, so that small layers keep more groups
 * resident on an SM: pose_landmark_lite's 64x64 fused layer 60 -> 38 us on
 * the H200), so a group has at least taps / LOWER_ORDERED_TAPS_PER_ITEM items. */
#define LOWER_ORDERED_TAPS_PER_ITEM 16

/* A convolution as the kernels take it: CONV_2D, and FULLY_CONNECTED (and
 * the LSTM's gate sums) as a 1x1 convolution. */
typedef struct lower_conv_setup {
  uint32_t input;
  int32_t in_h, in_w, in_s; /* in_s: slices of an input pixel */
  int32_t kh, kw, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int32_t activation;
  const tflaccel_tensor_desc *weights, *bias; /* weights as [O][KH][KW][I] */
  int32_t out_c, in_c;
  int order_free; /* no later layer amplifies its rounding (lower_order_is_free) */
} lower_conv_setup;

/* Element index of a float32 tensor's data. */
float lower_read_float(const tflaccel_tensor_desc *tensor, int64_t index);

/* Constants in gpu_conv2d's layout: weights given as
 * w(o, ky, kx, i) = source[((o * KH + ky) * KW + kx) * I + i] packed into
 * [O/4][KH][KW][I/4][4 inputs][4 outputs]; the bias as one vector per
 * output slice (zeros when bias is NULL). */
tflaccel_status lower_pack_conv_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                        int32_t out_c, int32_t kh, int32_t kw, int32_t in_c,
                                        uint64_t *offset);
tflaccel_status lower_pack_bias(gpu_lowering *lw, const tflaccel_tensor_desc *bias, int32_t out_c,
                                uint64_t *offset);
/* Weights w(o, tap) in the ordered kernels' layout ([tap / 4][O][tap % 4]). */
tflaccel_status lower_pack_ordered_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                           int32_t out_c, int32_t taps, uint64_t *offset);

/* Output slices each gpu_conv2d work item computes for output out. */
int32_t lower_conv_slices_per_item(gpu_shape out);

/* Whether tensor reaches only graph outputs through ops that pass rounding
 * on unamplified: then the order of the sums producing it is free. */
int lower_order_is_free(const tflaccel_graph_view *graph, uint32_t tensor);

/* The largest ordered group the device runs whole (a multiple of 64; 0:
 * none), and so the most taps an ordered kernel holds. */
uint32_t lower_ordered_max_group(const gpu_lowering *lw);
int32_t lower_ordered_max_taps(const gpu_lowering *lw);

/* Which convolution kernel computes setup's layer into out. */
int32_t lower_conv_kernel(const gpu_lowering *lw, const lower_conv_setup *setup, gpu_shape out);

/* The work size of the ordered kernels: one pixel per group. */
void lower_set_ordered_work(gpu_dispatch *dispatch, gpu_shape out, int32_t taps,
                            uint32_t max_group);
/* Grows a one-group-wide ordered dispatch to at least `items` items. */
void lower_widen_ordered_group(gpu_dispatch *dispatch, uint32_t items, uint32_t max_group);

/* Packs setup's weights, emits its convolution into output (finished with
 * lower_finish) and sets the work size of the kernel chosen. */
tflaccel_status lower_emit_conv(gpu_lowering *lw, const lower_conv_setup *setup, uint32_t output);

#endif
