#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/binary_op.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"

int q_binary_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_binary_check_operands(graph, op, reason)) return 0;
  return q_check_fused_activation(op->params->arithmetic.fused_activation, reason);
}

int q_binary_check_operands(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input1 = q_input(graph, op, 0);
  if (input1 == NULL) return q_reason(reason, "input 0 is missing");
  if (input1->dtype != TFLACCEL_DTYPE_UINT8 && input1->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s inputs are not supported (uint8 or int8 only)",
                    q_dtype_name(input1->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input1->dtype, reason) ||
      !q_check_per_tensor(graph, op, 0, 1, input1->dtype, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input1->dtype, reason))
    return 0;
  return q_broadcast_check(graph, op, reason);
}

tflaccel_status q_binary_op_data_create(const cpu_op_context *context, size_t size,
                                        void **op_data) {
  q_binary_op *binary = q_alloc(context, size);
  if (binary == NULL) return q_out_of_memory(context, size);
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  q_broadcast_init(input1, input2, output, &binary->broadcast);
  binary->dtype = output->dtype;
  binary->input1_offset = -q_zero_point(input1);
  binary->input2_offset = -q_zero_point(input2);
  binary->output_offset = q_zero_point(output);
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  /* Ops without options (MAXIMUM, SQUARED_DIFFERENCE...) have zeroed params:
   * no activation, the dtype's range. */
  q_activation_range(context->op->params->arithmetic.fused_activation, q_scale(output),
                     binary->output_offset, dtype_min, dtype_max, &binary->act_min,
                     &binary->act_max);
  *op_data = binary;
  return NULL;
}

void q_binary_op_data_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

typedef struct binary_run {
  const void *op_data;
  int32_t dtype;
  q_binary_element_fn element;
  const void *input1, *input2;
  void *output;
} binary_run;

static void binary_row(void *arg, int64_t out, int64_t in1, int64_t in2, int64_t count,
                       int64_t step1, int64_t step2) {
  const binary_run *run = arg;
  if (run->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *a = (const uint8_t *)run->input1 + in1;
    const uint8_t *b = (const uint8_t *)run->input2 + in2;
    uint8_t *o = (uint8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++)
      o[i] = (uint8_t)run->element(run->op_data, a[i * step1], b[i * step2]);
  } else {
    const int8_t *a = (const int8_t *)run->input1 + in1;
    const int8_t *b = (const int8_t *)run->input2 + in2;
    int8_t *o = (int8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++)
      o[i] = (int8_t)run->element(run->op_data, a[i * step1], b[i * step2]);
  }
}

tflaccel_status q_binary_eval(const cpu_op_context *context, q_binary_element_fn element) {
  const q_binary_op *binary = context->op_data;
  binary_run run = {.op_data = context->op_data,
                    .dtype = binary->dtype,
                    .element = element,
                    .input1 = q_input_data(context, 0),
                    .input2 = q_input_data(context, 1),
                    .output = q_output_data(context, 0)};
  if (run.input1 == NULL || run.input2 == NULL || run.output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  q_broadcast_for_each_row(&binary->broadcast, binary_row, &run);
  return NULL;
}
