/* SQUARED_DIFFERENCE on int8 tensors (the only quantized dtype TFLite takes),
 * with broadcasting. Like ADD, both inputs are rescaled to twice the larger
 * input scale, here with 7 bits of headroom; the difference is squared in
 * int32 and rescaled by (twice_max_input_scale)^2 / (2^14 * output_scale),
 * a multiplier that must be below one. No fused activation: the int8 range
 * clamps. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/binary_op.h"
#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

#define SQUARED_DIFFERENCE_LEFT_SHIFT 7

typedef struct squared_difference_data {
  q_binary_op binary; /* first member (see q_binary_op_data_create) */
  int32_t input1_multiplier, input2_multiplier, output_multiplier;
  int input1_shift, input2_shift, output_shift;
} squared_difference_data;

static double twice_max_input_scale(const tflaccel_tensor_desc *input1,
                                    const tflaccel_tensor_desc *input2) {
  /* The larger float scale, doubled (exact in float). */
  return 2.0 * (double)(q_scale(input1) > q_scale(input2) ? q_scale(input1) : q_scale(input2));
}

static double output_multiplier(const tflaccel_tensor_desc *input1,
                                const tflaccel_tensor_desc *input2,
                                const tflaccel_tensor_desc *output) {
  const double twice_max = twice_max_input_scale(input1, input2);
  return twice_max * twice_max /
         ((double)(1 << (2 * SQUARED_DIFFERENCE_LEFT_SHIFT)) * (double)q_scale(output));
}

static int squared_difference_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                    char *reason) {
  if (!q_binary_check_operands(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input1 = q_input(graph, op, 0);
  if (input1->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s inputs are not supported (int8 only, as in TFLite)",
                    q_dtype_name(input1->dtype));
  const double multiplier = output_multiplier(input1, q_input(graph, op, 1), q_output(graph, op, 0));
  if (!(multiplier < 1.0))
    return q_reason(reason, "output scale too small for the inputs' scales (multiplier %g >= 1)",
                    multiplier);
  return 1;
}

static tflaccel_status squared_difference_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  tflaccel_status status =
      q_binary_op_data_create(context, sizeof(squared_difference_data), op_data);
  if (status != NULL) return status;
  squared_difference_data *data = *op_data;
  const double twice_max = twice_max_input_scale(input1, input2);
  q_quantize_multiplier((double)q_scale(input1) / twice_max, &data->input1_multiplier,
                        &data->input1_shift);
  q_quantize_multiplier((double)q_scale(input2) / twice_max, &data->input2_multiplier,
                        &data->input2_shift);
  q_quantize_multiplier(output_multiplier(input1, input2, output), &data->output_multiplier,
                        &data->output_shift);
  return NULL;
}

static int32_t squared_difference_one(const void *op_data, int32_t x1, int32_t x2) {
  const squared_difference_data *d = op_data;
  const int32_t shifted1 = (x1 + d->binary.input1_offset) * (1 << SQUARED_DIFFERENCE_LEFT_SHIFT);
  const int32_t shifted2 = (x2 + d->binary.input2_offset) * (1 << SQUARED_DIFFERENCE_LEFT_SHIFT);
  /* Multipliers below one: shifts are <= 0, so these are TFLite's
   * MultiplyByQuantizedMultiplierSmallerThanOneExp. */
  const int32_t difference =
      q_multiply_by_quantized_multiplier(shifted1, d->input1_multiplier, d->input1_shift) -
      q_multiply_by_quantized_multiplier(shifted2, d->input2_multiplier, d->input2_shift);
  /* |difference| <= 255 * 2^7, so its square fits in int32. */
  const int32_t value =
      q_multiply_by_quantized_multiplier(difference * difference, d->output_multiplier,
                                         d->output_shift) +
      d->binary.output_offset;
  return q_clamp_i32(value, d->binary.act_min, d->binary.act_max);
}

static tflaccel_status squared_difference_eval(const cpu_op_context *context) {
  return q_binary_eval(context, squared_difference_one);
}

const cpu_kernel cpu_quant_squared_difference_kernel = {
    .op_code = TFLACCEL_OP_SQUARED_DIFFERENCE,
    .check = squared_difference_check,
    .prepare = squared_difference_prepare,
    .release = q_binary_op_data_release,
    .eval = squared_difference_eval,
};
