/* Shared helpers of cpu_ref's quantized and recurrent kernels: tensor access
 * by op slot, quantization checks, reasons and statuses naming the tensor. */
#ifndef TFLACCEL_CPU_REF_QUANT_COMMON_H
#define TFLACCEL_CPU_REF_QUANT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/cpu_ref/kernel.h"

#define Q_MAX_DIMS 8

/* The tensor in input/output slot `slot`, or NULL when the slot is absent. */
const tflaccel_tensor_desc *q_input(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                    uint32_t slot);
const tflaccel_tensor_desc *q_output(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                     uint32_t slot);
/* Model tensor index of a slot, or TFLACCEL_NO_TENSOR. */
uint32_t q_input_index(const tflaccel_op_desc *op, uint32_t slot);
uint32_t q_output_index(const tflaccel_op_desc *op, uint32_t slot);

/* Host address of a slot's tensor during eval (NULL for absent slots). */
void *q_input_data(const cpu_op_context *context, uint32_t slot);
void *q_output_data(const cpu_op_context *context, uint32_t slot);

/* uint8, int8 or int16. */
int q_is_integer_dtype(int32_t dtype);
/* An integer tensor (uint8/int8/int16) that carries quantization. */
int q_is_quantized(const tflaccel_tensor_desc *tensor);
size_t q_dtype_size(int32_t dtype);
const char *q_dtype_name(int32_t dtype);
void q_dtype_range(int32_t dtype, int32_t *min, int32_t *max);

float q_scale(const tflaccel_tensor_desc *tensor);    /* first scale, 1 when none */
int32_t q_zero_point(const tflaccel_tensor_desc *tensor); /* first zero point, 0 when none */
int64_t q_element_count(const tflaccel_tensor_desc *tensor);
/* Dimension d counted from the end (1 = last); 1 when the rank is smaller. */
int32_t q_dim_from_end(const tflaccel_tensor_desc *tensor, uint32_t d);

/* Formats a one-line reason into reason[TFLACCEL_REASON_SIZE]; returns 0 so
 * that check() can `return q_reason(...)`. */
int q_reason(char *reason, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* The same, prefixed with "tensor N (name): ". */
int q_tensor_reason(char *reason, const tflaccel_graph_view *graph, uint32_t tensor_index,
                    const char *format, ...) __attribute__((format(printf, 4, 5)));

/* What TFLite's model loader demands of a tensor's quantization: the axis is
 * within the rank and there is one scale, or one per element of that axis.
 * Returns 1 when valid, else 0 with the reason. */
int q_check_quantization_valid(const tflaccel_graph_view *graph, uint32_t tensor_index,
                               char *reason);
/* The same for every tensor an op touches (inputs, outputs, intermediates). */
int q_check_op_quantization(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason);
/* The same but for input slot `skipped_slot`, which the caller checks its own
 * way (a convolution's bias: see q_check_bias). */
int q_check_op_quantization_except(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                   uint32_t skipped_slot, char *reason);

/* Checks that slot exists, has dtype `dtype` (or any integer dtype when
 * dtype < 0) and per-tensor quantization (a single scale) with a positive scale. */
int q_check_per_tensor(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, int is_output,
                       uint32_t slot, int32_t dtype, char *reason);
/* Input slot is present and constant. */
int q_check_constant(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                     char *reason);

/* A fused activation TFLite clamps quantized outputs with (NONE, RELU,
 * RELU_N1_TO_1, RELU6). */
int q_check_fused_activation(int32_t fused_activation, char *reason);

/* TFLite's name of the op codes these kernels handle ("op" for others). */
const char *q_op_name(int32_t code);

/* Error statuses made with the host's services, naming the op. */
tflaccel_status q_error(const cpu_op_context *context, int32_t code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
tflaccel_status q_out_of_memory(const cpu_op_context *context, size_t bytes);
/* q_quantize_multiplier (fixed_point.h) of real_multiplier, or
 * TFLACCEL_INVALID_MODEL naming the op and what (e.g. "input scale / output
 * scale") when no kernel can apply it: not finite, negative, or 2^31 and
 * above, which only absurd quantization parameters give. */
tflaccel_status q_require_multiplier(const cpu_op_context *context, const char *what,
                                     double real_multiplier, int32_t *multiplier, int *shift);

/* Allocation of op_data through the host, zeroed. */
void *q_alloc(const cpu_op_context *context, size_t size);
void q_free(const tflaccel_host_services *host, void *pointer);

/* Broadcasting of two inputs onto an output of rank <= Q_MAX_DIMS: element
 * strides of each input per output dimension (0 where it broadcasts). */
typedef struct q_broadcast {
  uint32_t rank;
  int32_t dims[Q_MAX_DIMS];
  int64_t stride1[Q_MAX_DIMS];
  int64_t stride2[Q_MAX_DIMS];
  int64_t count;
} q_broadcast;

/* 1 when the shapes broadcast onto the output shape; else 0 and a reason. */
int q_broadcast_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason);
void q_broadcast_init(const tflaccel_tensor_desc *input1, const tflaccel_tensor_desc *input2,
                      const tflaccel_tensor_desc *output, q_broadcast *broadcast);
/* Walks the output row by row (rows along the last dimension): fn gets the
 * row's first output index, the matching element index of each input, the
 * row length and each input's step along the row (0 or 1). */
typedef void (*q_broadcast_row_fn)(void *arg, int64_t out, int64_t in1, int64_t in2,
                                   int64_t count, int64_t step1, int64_t step2);
void q_broadcast_for_each_row(const q_broadcast *broadcast, q_broadcast_row_fn fn, void *arg);

/* Weights of CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED in input slot
 * `slot`: constant, the input's dtype, and either one scale or one scale per
 * output channel along `channel_axis` (int8 only, zero points 0). */
int q_check_filter(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                   int32_t input_dtype, uint32_t channel_axis, int32_t channels, char *reason);
/* Optional int32 bias in input slot `slot`: absent, or constant [channels].
 * Its quantization is metadata no kernel reads (the accumulator's scale is
 * input_scale * filter_scale), so a 1-D bias may name any quantized_dimension
 * (TFLite Micro's converter wrote 3 into tflm__person_detect's biases; TFLite
 * Micro runs it): scales must be positive and number 1 or `channels`. */
int q_check_bias(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                 int32_t channels, char *reason);
/* Per-output-channel requantization of a convolution: the real multiplier
 * input_scale * filter_scale[c] / output_scale computed in double, as
 * TFLite's PopulateConvolutionQuantizationParams does. Returns -1, or the
 * first channel whose multiplier no fixed-point arithmetic can apply (see
 * q_quantize_multiplier). */
int32_t q_conv_multipliers(const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *filter,
                           const tflaccel_tensor_desc *output, int32_t channels,
                           int32_t *multipliers, int *shifts);

#endif
