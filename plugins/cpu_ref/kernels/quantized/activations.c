/* Element-wise activations on quantized tensors.
 *
 * uint8/int8: every op is a 256-entry table built at prepare with TFLite's
 * own per-value formula: LOGISTIC and TANH evaluate the float function on
 * the dequantized value and round (TFLite's lookup-table path); RELU,
 * RELU6 and RELU_N1_TO_1 requantize with MultiplyByQuantizedMultiplier and
 * clamp to the activation range.
 * int16 LOGISTIC/TANH: gemmlowp's fixed-point functions on a Q3.12 input
 * (TANH also takes Q4.11, doubled with saturation first), output Q0.15. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct activation_data {
  int32_t dtype;
  int64_t count;
  uint8_t table[256]; /* indexed by the input's raw byte */
  int input_left_shift; /* int16 TANH: 0 or 1 */
} activation_data;

static int activation_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!q_check_per_tensor(graph, op, 0, 0, -1, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input->dtype, reason))
    return 0;
  if (q_element_count(input) != q_element_count(output))
    return q_reason(reason, "input and output sizes differ");
  if (input->dtype == TFLACCEL_DTYPE_INT16) {
    if (op->code != TFLACCEL_OP_LOGISTIC && op->code != TFLACCEL_OP_TANH)
      return q_reason(reason, "int16 is supported for LOGISTIC and TANH only");
    int input_log2 = 0, output_log2 = 0;
    if (q_zero_point(input) != 0 || q_zero_point(output) != 0)
      return q_reason(reason, "int16 needs zero points 0");
    if (!q_checked_log2(q_scale(input), &input_log2) ||
        !q_checked_log2(q_scale(output), &output_log2) || output_log2 != -15)
      return q_reason(reason, "int16 needs power-of-two scales and output scale 2^-15");
    const int left_shift = 12 + input_log2;
    if (left_shift != 0 && !(op->code == TFLACCEL_OP_TANH && left_shift == 1))
      return q_reason(reason, "int16 input scale 2^%d is not supported (2^-12%s)", input_log2,
                      op->code == TFLACCEL_OP_TANH ? " or 2^-11" : "");
    return 1;
  }
  /* TFLite's table path requires this output scale. */
  if (op->code == TFLACCEL_OP_LOGISTIC && q_scale(output) != 1.0f / 256)
    return q_reason(reason, "LOGISTIC output needs scale 1/256, has %g", (double)q_scale(output));
  return 1;
}

static void activation_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static float logistic_of(float x) {
  return 1.0f / (1.0f + expf(-x));
}

static tflaccel_status activation_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  activation_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->dtype = input->dtype;
  data->count = q_element_count(input);
  if (input->dtype == TFLACCEL_DTYPE_INT16) {
    int input_log2 = 0;
    q_checked_log2(q_scale(input), &input_log2);
    data->input_left_shift = 12 + input_log2;
    *op_data = data;
    return NULL;
  }
  int32_t dtype_min, dtype_max;
  q_dtype_range(input->dtype, &dtype_min, &dtype_max);
  const float input_scale = q_scale(input), output_scale = q_scale(output);
  const int32_t input_zero_point = q_zero_point(input);
  const int32_t output_zero_point = q_zero_point(output);
  const int32_t code = context->op->code;
  int32_t multiplier = 0, act_min = dtype_min, act_max = dtype_max;
  int shift = 0;
  if (code != TFLACCEL_OP_LOGISTIC && code != TFLACCEL_OP_TANH) {
    tflaccel_status status = q_require_multiplier(
        context, "input scale / output scale", (double)input_scale / (double)output_scale,
        &multiplier, &shift);
    if (status != NULL) {
      q_free(context->host, data);
      return status;
    }
    const float low = code == TFLACCEL_OP_RELU_N1_TO_1 ? -1.0f : 0.0f;
    act_min = q_offset_clamp(q_saturate_i32(roundf(low / output_scale)), output_zero_point,
                             dtype_min, dtype_max);
    if (code != TFLACCEL_OP_RELU) {
      const float high = code == TFLACCEL_OP_RELU6 ? 6.0f : 1.0f;
      act_max = q_offset_clamp(q_saturate_i32(roundf(high / output_scale)), output_zero_point,
                               dtype_min, dtype_max);
    }
  }
  const float inverse_scale = 1.0f / output_scale;
  for (int32_t value = dtype_min; value <= dtype_max; value++) {
    int32_t result;
    if (code == TFLACCEL_OP_LOGISTIC || code == TFLACCEL_OP_TANH) {
      const float dequantized = input_scale * (float)(value - input_zero_point);
      const float transformed =
          code == TFLACCEL_OP_LOGISTIC ? logistic_of(dequantized) : tanhf(dequantized);
      const float rescaled = roundf(transformed * inverse_scale);
      result = (int32_t)(rescaled + (float)output_zero_point);
      result = q_clamp_i32(result, dtype_min, dtype_max);
    } else {
      result = output_zero_point +
               q_multiply_by_quantized_multiplier(value - input_zero_point, multiplier, shift);
      result = q_clamp_i32(result, act_min, act_max);
    }
    data->table[(uint8_t)value] = (uint8_t)result;
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status activation_eval(const cpu_op_context *context) {
  const activation_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  if (d->dtype == TFLACCEL_DTYPE_INT16) {
    const int16_t *in = input;
    int16_t *out = output;
    if (context->op->code == TFLACCEL_OP_LOGISTIC) {
      for (int64_t i = 0; i < d->count; i++) out[i] = q_logistic_q3_12(in[i]);
    } else {
      for (int64_t i = 0; i < d->count; i++) {
        int32_t value = in[i];
        if (d->input_left_shift == 1) value = q_clamp_i32(value * 2, INT16_MIN, INT16_MAX);
        out[i] = q_tanh_int16((int16_t)value, 3);
      }
    }
    return NULL;
  }
  const uint8_t *in = input;
  uint8_t *out = output;
  for (int64_t i = 0; i < d->count; i++) out[i] = d->table[in[i]];
  return NULL;
}

#define ACTIVATION_KERNEL(name, code)                                                          \
  const cpu_kernel name = {                                                                    \
      .op_code = code,                                                                         \
      .check = activation_check,                                                               \
      .prepare = activation_prepare,                                                           \
      .release = activation_release,                                                           \
      .eval = activation_eval,                                                                 \
  }

ACTIVATION_KERNEL(cpu_quant_logistic_kernel, TFLACCEL_OP_LOGISTIC);
ACTIVATION_KERNEL(cpu_quant_tanh_kernel, TFLACCEL_OP_TANH);
ACTIVATION_KERNEL(cpu_quant_relu_kernel, TFLACCEL_OP_RELU);
ACTIVATION_KERNEL(cpu_quant_relu6_kernel, TFLACCEL_OP_RELU6);
ACTIVATION_KERNEL(cpu_quant_relu_n1_to_1_kernel, TFLACCEL_OP_RELU_N1_TO_1);
