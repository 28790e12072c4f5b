/* What the quantized ops with constant weights share: CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED on uint8 (per-tensor) and int8
 * (per-channel) tensors. Their checks of the activations, the weights
 * repacked at prepare into int16 with the zero point removed, the int32 bias
 * and a requantization multiplier and shift per output channel, the clamp of
 * the fused activation, and the input centred once per run, so that each
 * inner loop is an int16 dot product. How an op rounds its accumulators stays
 * with the op: CONV_2D and FULLY_CONNECTED use q_gemm_requantizer, depthwise
 * TFLite's own ties-away form. */
#ifndef TFLACCEL_CPU_REF_QUANT_WEIGHTED_OP_H
#define TFLACCEL_CPU_REF_QUANT_WEIGHTED_OP_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/cpu_ref/kernel.h"
#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"

typedef struct q_weighted_op {
  int32_t input_dtype; /* uint8 or int8; the output has the same */
  int32_t input_zero_point, output_zero_point, act_min, act_max;
  int64_t input_count;    /* elements of input 0 */
  int16_t *weights;       /* the filter's layout, zero point removed */
  int32_t *bias;          /* [channels]; zeros when the op has no bias */
  int32_t *multipliers;   /* [channels] */
  int *shifts;            /* [channels] */
  int16_t *centred_input; /* scratch of eval: input - zero point */
} q_weighted_op;

/* Every tensor's quantization is well-formed, input 0 is uint8 or int8, and
 * input 0 and output 0 are quantized per tensor with that dtype. */
int q_weighted_check_activations(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                 char *reason);
/* After q_weighted_check_activations: the weights in input 1 (`channels`
 * output channels along channel_axis, see q_check_filter) and the optional
 * bias in input 2. */
int q_weighted_check_operands(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                              uint32_t channel_axis, int32_t channels, char *reason);

/* Prepared data of an op: `size` bytes, zeroed, that begin with a
 * q_weighted_op, filled from input 0, the weights in input 1, the bias in
 * input 2, output 0 and the op's fused activation, for `channels` output
 * channels. On failure *op_data is left alone and nothing stays allocated. */
tflaccel_status q_weighted_op_data_create(const cpu_op_context *context, size_t size,
                                          int32_t channels, void **op_data);
/* The release() of such data. */
void q_weighted_op_data_release(const tflaccel_host_services *host, void *op_data);

/* What each parallel part of eval gets: the op's prepared data and the
 * storage of output 0. */
typedef struct q_weighted_run {
  const void *op_data;
  void *output;
} q_weighted_run;

/* The eval() of such data: centres this run's input 0 into centred_input
 * once, then calls fn over [0, count) in chunks of at least min_chunk, its
 * arg a const q_weighted_run *. An error when input or output has no
 * storage. */
tflaccel_status q_weighted_eval(const cpu_op_context *context, int64_t count, int64_t min_chunk,
                                cpu_parallel_fn fn);

/* Adds the output zero point to a requantized accumulator, clamps it to the
 * activation range and stores it as element `index` of the output. */
static inline void q_weighted_store(const q_weighted_op *weighted, void *output, int64_t index,
                                    int32_t requantized) {
  const int32_t value =
      q_clamp_i32(requantized + weighted->output_zero_point, weighted->act_min, weighted->act_max);
  if (weighted->input_dtype == TFLACCEL_DTYPE_UINT8)
    ((uint8_t *)output)[index] = (uint8_t)value;
  else
    ((int8_t *)output)[index] = (int8_t)value;
}

/* The parameters CONV_2D and DEPTHWISE_CONV_2D share, read from the params
 * of either (op is one of the two). */
typedef struct q_conv_params {
  int32_t padding, stride_h, stride_w, dilation_h, dilation_w, fused_activation;
} q_conv_params;
q_conv_params q_conv_params_of(const tflaccel_op_desc *op);
/* Positive strides and dilations, SAME or VALID padding, and a fused
 * activation quantized outputs take. */
int q_check_conv_params(const tflaccel_op_desc *op, char *reason);

/* The sliding window of CONV_2D and DEPTHWISE_CONV_2D over NHWC tensors. */
typedef struct q_conv_window {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, k_h, k_w;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
} q_conv_window;

/* The window of a k_h x k_w filter from input 0 to output 0 with the op's
 * strides and dilations, and the padding TFLite computes for SAME (none for
 * VALID). */
void q_conv_window_init(q_conv_window *window, const cpu_op_context *context, int32_t k_h,
                        int32_t k_w);

#endif
