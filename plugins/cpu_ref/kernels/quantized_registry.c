/* Which of cpu_ref's quantized/recurrent kernels serves an op.
 *
 * The recurrent ops (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF) are served
 * here in every dtype, but for the basic LSTM cell (the generic table's). Other ops are claimed when their tensors are
 * quantized integers; CAST and ARG_MAX/ARG_MIN whenever they touch uint8,
 * int8 or int16 (both ignore quantization). Everything else is left to the
 * generic table (data movement works on raw bytes there). */
#include "config.h"

#include <stddef.h>

#include "plugins/cpu_ref/kernel.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

static const cpu_kernel *const recurrent_kernels[] = {
    &cpu_lstm_kernel,
    &cpu_sequence_lstm_kernel,
    &cpu_svdf_kernel,
};

static const cpu_kernel *const quantized_kernels[] = {
    &cpu_quant_conv_2d_kernel,
    &cpu_quant_depthwise_conv_2d_kernel,
    &cpu_quant_fully_connected_kernel,
    &cpu_quant_add_kernel,
    &cpu_quant_sub_kernel,
    &cpu_quant_mul_kernel,
    &cpu_quant_maximum_kernel,
    &cpu_quant_minimum_kernel,
    &cpu_quant_squared_difference_kernel,
    &cpu_quant_average_pool_kernel,
    &cpu_quant_max_pool_kernel,
    &cpu_quant_mean_kernel,
    &cpu_quant_softmax_kernel,
    &cpu_quant_logistic_kernel,
    &cpu_quant_tanh_kernel,
    &cpu_quant_relu_kernel,
    &cpu_quant_relu6_kernel,
    &cpu_quant_relu_n1_to_1_kernel,
    &cpu_quant_resize_bilinear_kernel,
    &cpu_quant_concatenation_kernel,
    &cpu_quant_pad_kernel,
    &cpu_quant_padv2_kernel,
    &cpu_quant_quantize_kernel,
    &cpu_quant_dequantize_kernel,
    &cpu_quant_cast_kernel,
    &cpu_quant_arg_max_kernel,
    &cpu_quant_arg_min_kernel,
};

static int touches_integer_dtype(const tflaccel_graph_view *graph, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  return (input != NULL && q_is_integer_dtype(input->dtype)) ||
         (output != NULL && q_is_integer_dtype(output->dtype));
}

static int is_quantized_op(const tflaccel_graph_view *graph, const tflaccel_op_desc *op) {
  switch (op->code) {
  case TFLACCEL_OP_CAST:
    return touches_integer_dtype(graph, op);
  case TFLACCEL_OP_ARG_MAX:
  case TFLACCEL_OP_ARG_MIN: {
    const tflaccel_tensor_desc *input = q_input(graph, op, 0);
    return input != NULL && q_is_integer_dtype(input->dtype);
  }
  default:
    return q_is_quantized(q_input(graph, op, 0)) || q_is_quantized(q_output(graph, op, 0));
  }
}

const cpu_kernel *cpu_quantized_kernel_find(const tflaccel_graph_view *graph,
                                            const tflaccel_op_desc *op) {
  if (graph == NULL || op == NULL || op->code == TFLACCEL_OP_CUSTOM) return NULL;
  /* The basic LSTM cell is the generic table's (generic/lstm_basic.c). */
  int basic_lstm = op->code == TFLACCEL_OP_LSTM && op->params != NULL &&
                   op->params->lstm.kernel_type == 1;
  size_t recurrent_count = sizeof recurrent_kernels / sizeof recurrent_kernels[0];
  for (size_t i = 0; !basic_lstm && i < recurrent_count; i++)
    if (recurrent_kernels[i]->op_code == op->code) return recurrent_kernels[i];
  if (!is_quantized_op(graph, op)) return NULL;
  for (size_t i = 0; i < sizeof quantized_kernels / sizeof quantized_kernels[0]; i++)
    if (quantized_kernels[i]->op_code == op->code) return quantized_kernels[i];
  return NULL;
}
