/* MUL on uint8/int8 tensors, with broadcasting. The product of the centred
 * inputs is rescaled by in1_scale * in2_scale / out_scale, a multiplier that
 * TFLite computes in float before quantizing it. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/binary_op.h"
#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct mul_data {
  q_binary_op binary; /* first member (see q_binary_op_data_create) */
  int32_t output_multiplier;
  int output_shift;
} mul_data;

static tflaccel_status mul_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  tflaccel_status status = q_binary_op_data_create(context, sizeof(mul_data), op_data);
  if (status != NULL) return status;
  mul_data *data = *op_data;
  /* float arithmetic on purpose: TFLite multiplies the float scales. */
  const float real_multiplier = q_scale(input1) * q_scale(input2) / q_scale(output);
  return q_require_multiplier(context, "input1 scale x input2 scale / output scale",
                              (double)real_multiplier, &data->output_multiplier,
                              &data->output_shift);
}

static int32_t mul_one(const void *op_data, int32_t x1, int32_t x2) {
  const mul_data *d = op_data;
  const int32_t product = (x1 + d->binary.input1_offset) * (x2 + d->binary.input2_offset);
  const int32_t value =
      q_multiply_by_quantized_multiplier(product, d->output_multiplier, d->output_shift) +
      d->binary.output_offset;
  return q_clamp_i32(value, d->binary.act_min, d->binary.act_max);
}

static tflaccel_status mul_eval(const cpu_op_context *context) {
  return q_binary_eval(context, mul_one);
}

const cpu_kernel cpu_quant_mul_kernel = {
    .op_code = TFLACCEL_OP_MUL,
    .check = q_binary_check,
    .prepare = mul_prepare,
    .release = q_binary_op_data_release,
    .eval = mul_eval,
};
