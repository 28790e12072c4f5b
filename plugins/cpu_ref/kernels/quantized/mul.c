/* MUL on uint8/int8 tensors, with broadcasting. The product of the centred
 * inputs is rescaled by in1_scale * in2_scale / out_scale, a multiplier that
 * TFLite computes in float before quantizing it. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct mul_data {
  q_broadcast broadcast;
  int32_t dtype;
  int32_t input1_offset, input2_offset, output_offset;
  int32_t output_multiplier;
  int output_shift;
  int32_t act_min, act_max;
} mul_data;

static int mul_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
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
  if (!q_broadcast_check(graph, op, reason)) return 0;
  if (op->params->arithmetic.fused_activation > TFLACCEL_ACT_RELU6)
    return q_reason(reason, "fused activation %d is not supported on quantized tensors",
                    op->params->arithmetic.fused_activation);
  return 1;
}

static void mul_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status mul_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  mul_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  q_broadcast_init(input1, input2, output, &data->broadcast);
  data->dtype = output->dtype;
  data->input1_offset = -q_zero_point(input1);
  data->input2_offset = -q_zero_point(input2);
  data->output_offset = q_zero_point(output);
  /* float arithmetic on purpose: TFLite multiplies the float scales. */
  const float real_multiplier = q_scale(input1) * q_scale(input2) / q_scale(output);
  q_quantize_multiplier((double)real_multiplier, &data->output_multiplier, &data->output_shift);
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  q_activation_range(context->op->params->arithmetic.fused_activation, q_scale(output),
                     data->output_offset, dtype_min, dtype_max, &data->act_min, &data->act_max);
  *op_data = data;
  return NULL;
}

static int32_t mul_one(const mul_data *d, int32_t x1, int32_t x2) {
  const int32_t product = (x1 + d->input1_offset) * (x2 + d->input2_offset);
  const int32_t value =
      q_multiply_by_quantized_multiplier(product, d->output_multiplier, d->output_shift) +
      d->output_offset;
  return q_clamp_i32(value, d->act_min, d->act_max);
}

typedef struct mul_run {
  const mul_data *data;
  const void *input1, *input2;
  void *output;
} mul_run;

static void mul_row(void *arg, int64_t out, int64_t in1, int64_t in2, int64_t count,
                    int64_t step1, int64_t step2) {
  const mul_run *run = arg;
  const mul_data *d = run->data;
  if (d->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *a = (const uint8_t *)run->input1 + in1;
    const uint8_t *b = (const uint8_t *)run->input2 + in2;
    uint8_t *o = (uint8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++) o[i] = (uint8_t)mul_one(d, a[i * step1], b[i * step2]);
  } else {
    const int8_t *a = (const int8_t *)run->input1 + in1;
    const int8_t *b = (const int8_t *)run->input2 + in2;
    int8_t *o = (int8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++) o[i] = (int8_t)mul_one(d, a[i * step1], b[i * step2]);
  }
}

static tflaccel_status mul_eval(const cpu_op_context *context) {
  mul_run run = {context->op_data, q_input_data(context, 0), q_input_data(context, 1),
                 q_output_data(context, 0)};
  if (run.input1 == NULL || run.input2 == NULL || run.output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  q_broadcast_for_each_row(&run.data->broadcast, mul_row, &run);
  return NULL;
}

const cpu_kernel cpu_quant_mul_kernel = {
    .op_code = TFLACCEL_OP_MUL,
    .check = mul_check,
    .prepare = mul_prepare,
    .release = mul_release,
    .eval = mul_eval,
};
