/* ADD and SUB on uint8/int8 tensors, with broadcasting. TFLite rescales both
 * inputs to twice the larger input scale with 20 bits of headroom, adds, and
 * rescales to the output; SUB is ADD with the second multiplier negated. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

#define ADD_LEFT_SHIFT 20

typedef struct add_data {
  q_broadcast broadcast;
  int32_t dtype;
  int32_t input1_offset, input2_offset, output_offset;
  int32_t input1_multiplier, input2_multiplier, output_multiplier;
  int input1_shift, input2_shift, output_shift;
  int32_t act_min, act_max;
} add_data;

static double add_output_multiplier(const tflaccel_tensor_desc *input1,
                                    const tflaccel_tensor_desc *input2,
                                    const tflaccel_tensor_desc *output) {
  const float larger = q_scale(input1) > q_scale(input2) ? q_scale(input1) : q_scale(input2);
  const double twice_max_input_scale = 2.0 * (double)larger;
  return twice_max_input_scale / ((double)(1 << ADD_LEFT_SHIFT) * (double)q_scale(output));
}

static int add_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
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
  const double output_multiplier =
      add_output_multiplier(input1, q_input(graph, op, 1), q_output(graph, op, 0));
  if (!(output_multiplier < 1.0))
    return q_reason(reason, "output scale too small for the inputs' scales (multiplier %g >= 1)",
                    output_multiplier);
  return 1;
}

static void add_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status add_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input1 = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *input2 = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  add_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  q_broadcast_init(input1, input2, output, &data->broadcast);
  data->dtype = output->dtype;
  data->input1_offset = -q_zero_point(input1);
  data->input2_offset = -q_zero_point(input2);
  data->output_offset = q_zero_point(output);
  const float larger = q_scale(input1) > q_scale(input2) ? q_scale(input1) : q_scale(input2);
  const double twice_max_input_scale = 2.0 * (double)larger;
  q_quantize_multiplier((double)q_scale(input1) / twice_max_input_scale, &data->input1_multiplier,
                        &data->input1_shift);
  q_quantize_multiplier((double)q_scale(input2) / twice_max_input_scale, &data->input2_multiplier,
                        &data->input2_shift);
  q_quantize_multiplier(add_output_multiplier(input1, input2, output), &data->output_multiplier,
                        &data->output_shift);
  if (context->op->code == TFLACCEL_OP_SUB) data->input2_multiplier = -data->input2_multiplier;
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  q_activation_range(context->op->params->arithmetic.fused_activation, q_scale(output),
                     data->output_offset, dtype_min, dtype_max, &data->act_min, &data->act_max);
  *op_data = data;
  return NULL;
}

/* Both multipliers are below one: a doubling high multiply, then a rounding
 * right shift (TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp). */
static int32_t scale_down(int32_t x, int32_t multiplier, int shift) {
  return q_rounding_divide_by_pot(q_saturating_rounding_doubling_high_mul(x, multiplier), -shift);
}

static int32_t add_one(const add_data *d, int32_t x1, int32_t x2) {
  const int32_t shifted1 = (x1 + d->input1_offset) * (1 << ADD_LEFT_SHIFT);
  const int32_t shifted2 = (x2 + d->input2_offset) * (1 << ADD_LEFT_SHIFT);
  const int32_t sum = scale_down(shifted1, d->input1_multiplier, d->input1_shift) +
                      scale_down(shifted2, d->input2_multiplier, d->input2_shift);
  const int32_t value =
      scale_down(sum, d->output_multiplier, d->output_shift) + d->output_offset;
  return q_clamp_i32(value, d->act_min, d->act_max);
}

typedef struct add_run {
  const add_data *data;
  const void *input1, *input2;
  void *output;
} add_run;

static void add_row(void *arg, int64_t out, int64_t in1, int64_t in2, int64_t count,
                    int64_t step1, int64_t step2) {
  const add_run *run = arg;
  const add_data *d = run->data;
  if (d->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *a = (const uint8_t *)run->input1 + in1;
    const uint8_t *b = (const uint8_t *)run->input2 + in2;
    uint8_t *o = (uint8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++) o[i] = (uint8_t)add_one(d, a[i * step1], b[i * step2]);
  } else {
    const int8_t *a = (const int8_t *)run->input1 + in1;
    const int8_t *b = (const int8_t *)run->input2 + in2;
    int8_t *o = (int8_t *)run->output + out;
    for (int64_t i = 0; i < count; i++) o[i] = (int8_t)add_one(d, a[i * step1], b[i * step2]);
  }
}

static tflaccel_status add_eval(const cpu_op_context *context) {
  add_run run = {context->op_data, q_input_data(context, 0), q_input_data(context, 1),
                 q_output_data(context, 0)};
  if (run.input1 == NULL || run.input2 == NULL || run.output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  q_broadcast_for_each_row(&run.data->broadcast, add_row, &run);
  return NULL;
}

const cpu_kernel cpu_quant_add_kernel = {
    .op_code = TFLACCEL_OP_ADD,
    .check = add_check,
    .prepare = add_prepare,
    .release = add_release,
    .eval = add_eval,
};

const cpu_kernel cpu_quant_sub_kernel = {
    .op_code = TFLACCEL_OP_SUB,
    .check = add_check,
    .prepare = add_prepare,
    .release = add_release,
    .eval = add_eval,
};
