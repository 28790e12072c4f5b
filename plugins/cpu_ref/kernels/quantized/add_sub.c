/* ADD and SUB on uint8/int8 tensors, with broadcasting. TFLite rescales both
 * inputs to twice the larger input scale with 20 bits of headroom, adds, and
 * rescales to the output; SUB is ADD with the second multiplier negated. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/binary_op.h"
#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

#define ADD_LEFT_SHIFT 20

typedef struct add_data {
  q_binary_op binary; /* first member (see q_binary_op_data_create) */
  int32_t input1_multiplier, input2_multiplier, output_multiplier;
  int input1_shift, input2_shift, output_shift;
} add_data;

static double add_output_multiplier(const tflaccel_tensor_desc *input1,
                                    const tflaccel_tensor_desc *input2,
                                    const tflaccel_tensor_desc *output) {
  const float larger = q_scale(input1) > q_scale(input2) ? q_scale(input1) : q_scale(input2);
  const double twice_max_input_scale = 2.0 * (double)larger;
  return twice_max_input_scale / ((double)(1 << ADD_LEFT_SHIFT) * (double)q_scale(output));
}

static int add_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_binary_check(graph, op, reason)) return 0;
  const double output_multiplier =
      add_output_multiplier(q_input(graph, op, 0), q_input(graph, op, 1), q_output(graph, op, 0));
  if (!(output_multiplier < 1.0))
    return q_reason(reason, "output scale too small for the inputs' scales (multiplier %g >= 1)",
                    output_multiplier);
  return 1;
}

static tflaccel_status add_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  tflaccel_status status = q_binary_op_data_create(context, sizeof(add_data), op_data);
  if (status != NULL) return status;
  add_data *data = *op_data;
  const float larger = q_scale(input1) > q_scale(input2) ? q_scale(input1) : q_scale(input2);
  const double twice_max_input_scale = 2.0 * (double)larger;
  status = q_require_multiplier(context, "input1 scale / twice the larger input scale",
                                (double)q_scale(input1) / twice_max_input_scale,
                                &data->input1_multiplier, &data->input1_shift);
  if (status == NULL)
    status = q_require_multiplier(context, "input2 scale / twice the larger input scale",
                                  (double)q_scale(input2) / twice_max_input_scale,
                                  &data->input2_multiplier, &data->input2_shift);
  if (status == NULL)
    status = q_require_multiplier(context, "the output multiplier",
                                  add_output_multiplier(input1, input2, output),
                                  &data->output_multiplier, &data->output_shift);
  if (status != NULL) return status;
  if (context->op->code == TFLACCEL_OP_SUB) data->input2_multiplier = -data->input2_multiplier;
  return NULL;
}

/* Both multipliers are below one: a doubling high multiply, then a rounding
 * right shift (TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp). */
static int32_t scale_down(int32_t x, int32_t multiplier, int shift) {
  return q_rounding_divide_by_pot(q_saturating_rounding_doubling_high_mul(x, multiplier), -shift);
}

static int32_t add_one(const void *op_data, int32_t x1, int32_t x2) {
  const add_data *d = op_data;
  const int32_t shifted1 = (x1 + d->binary.input1_offset) * (1 << ADD_LEFT_SHIFT);
  const int32_t shifted2 = (x2 + d->binary.input2_offset) * (1 << ADD_LEFT_SHIFT);
  const int32_t sum = scale_down(shifted1, d->input1_multiplier, d->input1_shift) +
                      scale_down(shifted2, d->input2_multiplier, d->input2_shift);
  const int32_t value =
      scale_down(sum, d->output_multiplier, d->output_shift) + d->binary.output_offset;
  return q_clamp_i32(value, d->binary.act_min, d->binary.act_max);
}

static tflaccel_status add_eval(const cpu_op_context *context) {
  return q_binary_eval(context, add_one);
}

const cpu_kernel cpu_quant_add_kernel = {
    .op_code = TFLACCEL_OP_ADD,
    .check = add_check,
    .prepare = add_prepare,
    .release = q_binary_op_data_release,
    .eval = add_eval,
};

const cpu_kernel cpu_quant_sub_kernel = {
    .op_code = TFLACCEL_OP_SUB,
    .check = add_check,
    .prepare = add_prepare,
    .release = q_binary_op_data_release,
    .eval = add_eval,
};
