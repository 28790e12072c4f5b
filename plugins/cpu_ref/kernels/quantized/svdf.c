/* SVDF (rank-decomposed recurrent filter) in float32 and in integer form
 * (int8 input and weights_feature, int16 weights_time and state, int32
 * bias, int8 output), as TFLite's EvalFloatSVDF / EvalIntegerSVDF:
 * shift the state left by one, write the new feature activations into the
 * newest slot of every filter, dot each filter's memory with its time
 * weights, sum groups of `rank` filters per unit, add the bias. The integer
 * form ignores the fused activation (TFLite does too: the output range does
 * the clamping). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

enum { SVDF_INPUT = 0, SVDF_WEIGHTS_FEATURE, SVDF_WEIGHTS_TIME, SVDF_BIAS, SVDF_STATE };

typedef struct svdf_data {
  int is_integer;
  int32_t batches, input_size, filters, units, rank, memory;
  int32_t activation;
  const void *weights_feature, *weights_time, *bias;
  int32_t feature_multiplier, output_multiplier;
  int feature_shift, output_shift;
  int32_t input_zero_point, output_zero_point;
  void *scratch; /* [batches][filters] (int32 or float) */
} svdf_data;

static int svdf_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, SVDF_INPUT);
  const tflaccel_tensor_desc *weights_feature = q_input(graph, op, SVDF_WEIGHTS_FEATURE);
  const tflaccel_tensor_desc *weights_time = q_input(graph, op, SVDF_WEIGHTS_TIME);
  const tflaccel_tensor_desc *bias = q_input(graph, op, SVDF_BIAS);
  const tflaccel_tensor_desc *state = q_input(graph, op, SVDF_STATE);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || weights_feature == NULL || weights_time == NULL || state == NULL ||
      output == NULL)
    return q_reason(reason, "needs input, weights_feature, weights_time, state and output");
  const tflaccel_svdf_params *params = &op->params->svdf;
  if (input->rank != 2 || weights_feature->rank != 2 || weights_time->rank != 2)
    return q_reason(reason, "input and weights must be 2-D");
  const int32_t batches = input->dims[0], input_size = input->dims[1];
  const int32_t filters = weights_feature->dims[0], memory = weights_time->dims[1];
  if (params->rank < 1 || filters % params->rank != 0)
    return q_reason(reason, "%d filters are not a multiple of rank %d", filters, params->rank);
  const int32_t units = filters / params->rank;
  if (weights_feature->dims[1] != input_size || weights_time->dims[0] != filters)
    return q_reason(reason, "weights do not match the input size %d", input_size);
  if (bias != NULL && q_element_count(bias) != units)
    return q_reason(reason, "bias must have %d elements", units);
  if (!(state->flags & TFLACCEL_TENSOR_VARIABLE))
    return q_tensor_reason(reason, graph, op->inputs[SVDF_STATE], "the state must be a variable");
  if (q_element_count(state) != (int64_t)batches * memory * filters)
    return q_reason(reason, "state must hold batch x memory x filters values");
  if (q_element_count(output) != (int64_t)batches * units)
    return q_reason(reason, "output must hold batch x units values");
  if (!q_check_constant(graph, op, SVDF_WEIGHTS_FEATURE, reason) ||
      !q_check_constant(graph, op, SVDF_WEIGHTS_TIME, reason) ||
      (bias != NULL && !q_check_constant(graph, op, SVDF_BIAS, reason)))
    return 0;
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32) {
    if (weights_feature->dtype != TFLACCEL_DTYPE_FLOAT32 ||
        weights_time->dtype != TFLACCEL_DTYPE_FLOAT32 || state->dtype != TFLACCEL_DTYPE_FLOAT32 ||
        output->dtype != TFLACCEL_DTYPE_FLOAT32 ||
        (bias != NULL && bias->dtype != TFLACCEL_DTYPE_FLOAT32))
      return q_reason(reason, "float SVDF needs float32 tensors (hybrid SVDF is not supported)");
    if (params->fused_activation > TFLACCEL_ACT_TANH)
      return q_reason(reason, "activation %d is not supported", params->fused_activation);
    return 1;
  }
  if (input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s input is not supported (float32 or int8)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, SVDF_INPUT, TFLACCEL_DTYPE_INT8, reason) ||
      !q_check_per_tensor(graph, op, 0, SVDF_WEIGHTS_FEATURE, TFLACCEL_DTYPE_INT8, reason) ||
      !q_check_per_tensor(graph, op, 0, SVDF_WEIGHTS_TIME, TFLACCEL_DTYPE_INT16, reason) ||
      !q_check_per_tensor(graph, op, 0, SVDF_STATE, TFLACCEL_DTYPE_INT16, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, TFLACCEL_DTYPE_INT8, reason))
    return 0;
  if (bias != NULL && bias->dtype != TFLACCEL_DTYPE_INT32)
    return q_reason(reason, "integer SVDF needs an int32 bias");
  if (q_zero_point(state) != 0)
    return q_tensor_reason(reason, graph, op->inputs[SVDF_STATE],
                           "integer SVDF needs a symmetric state (zero point 0)");
  return 1;
}

static void svdf_release(const tflaccel_host_services *host, void *op_data) {
  svdf_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->scratch);
  q_free(host, data);
}

static tflaccel_status svdf_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_graph_view *graph = context->graph;
  const tflaccel_op_desc *op = context->op;
  const tflaccel_tensor_desc *input = q_input(graph, op, SVDF_INPUT);
  const tflaccel_tensor_desc *weights_feature = q_input(graph, op, SVDF_WEIGHTS_FEATURE);
  const tflaccel_tensor_desc *weights_time = q_input(graph, op, SVDF_WEIGHTS_TIME);
  const tflaccel_tensor_desc *bias = q_input(graph, op, SVDF_BIAS);
  const tflaccel_tensor_desc *state = q_input(graph, op, SVDF_STATE);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  svdf_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->is_integer = input->dtype == TFLACCEL_DTYPE_INT8;
  data->batches = input->dims[0];
  data->input_size = input->dims[1];
  data->filters = weights_feature->dims[0];
  data->memory = weights_time->dims[1];
  data->rank = op->params->svdf.rank;
  data->units = data->filters / data->rank;
  data->activation = op->params->svdf.fused_activation;
  data->weights_feature = weights_feature->data;
  data->weights_time = weights_time->data;
  data->bias = bias != NULL ? bias->data : NULL;
  if (data->is_integer) {
    /* float products, as TFLite computes these scales */
    const float feature_scale = q_scale(input) * q_scale(weights_feature) / q_scale(state);
    const float output_scale = q_scale(state) * q_scale(weights_time) / q_scale(output);
    tflaccel_status status = q_require_multiplier(
        context, "input scale x feature weights scale / state scale", (double)feature_scale,
        &data->feature_multiplier, &data->feature_shift);
    if (status == NULL)
      status = q_require_multiplier(context, "state scale x time weights scale / output scale",
                                    (double)output_scale, &data->output_multiplier,
                                    &data->output_shift);
    if (status != NULL) {
      svdf_release(context->host, data);
      return status;
    }
    data->input_zero_point = q_zero_point(input);
    data->output_zero_point = q_zero_point(output);
  }
  const size_t scratch_bytes = (size_t)data->batches * (size_t)data->filters * 4;
  data->scratch = q_alloc(context, scratch_bytes);
  if (data->scratch == NULL) {
    svdf_release(context->host, data);
    return q_out_of_memory(context, scratch_bytes);
  }
  *op_data = data;
  return NULL;
}

static float svdf_activate(float x, int32_t activation) {
  switch (activation) {
  case TFLACCEL_ACT_RELU: return x > 0.0f ? x : 0.0f;
  case TFLACCEL_ACT_RELU_N1_TO_1: return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
  case TFLACCEL_ACT_RELU6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
  case TFLACCEL_ACT_TANH: return tanhf(x);
  default: return x;
  }
}

static void svdf_float(const svdf_data *d, const float *input, float *state, float *output) {
  const int64_t state_count = (int64_t)d->batches * d->memory * d->filters;
  memmove(state, state + 1, (size_t)(state_count - 1) * sizeof(float));
  const float *weights_feature = d->weights_feature;
  const float *weights_time = d->weights_time;
  const float *bias = d->bias;
  float *scratch = d->scratch;
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t f = 0; f < d->filters; f++) {
      float dot = 0.0f;
      for (int32_t i = 0; i < d->input_size; i++)
        dot += weights_feature[(int64_t)f * d->input_size + i] * input[(int64_t)b * d->input_size + i];
      state[((int64_t)b * d->filters + f) * d->memory + d->memory - 1] = dot;
    }
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t f = 0; f < d->filters; f++) {
      const float *memory = state + ((int64_t)b * d->filters + f) * d->memory;
      const float *time = weights_time + (int64_t)f * d->memory;
      float dot = 0.0f;
      for (int32_t m = 0; m < d->memory; m++) dot += time[m] * memory[m];
      scratch[(int64_t)b * d->filters + f] = dot;
    }
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t u = 0; u < d->units; u++) {
      float sum = bias != NULL ? bias[u] : 0.0f;
      for (int32_t r = 0; r < d->rank; r++) sum += scratch[(int64_t)b * d->filters + u * d->rank + r];
      output[(int64_t)b * d->units + u] = svdf_activate(sum, d->activation);
    }
}

static void svdf_integer(const svdf_data *d, const int8_t *input, int16_t *state, int8_t *output) {
  const int64_t state_count = (int64_t)d->batches * d->memory * d->filters;
  memmove(state, state + 1, (size_t)(state_count - 1) * sizeof(int16_t));
  const int8_t *weights_feature = d->weights_feature;
  const int16_t *weights_time = d->weights_time;
  const int32_t *bias = d->bias;
  int32_t *scratch = d->scratch;
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t f = 0; f < d->filters; f++) {
      uint32_t sum = 0; /* int32 accumulation that wraps like TFLite's */
      for (int32_t i = 0; i < d->input_size; i++)
        sum += (uint32_t)((int32_t)weights_feature[(int64_t)f * d->input_size + i] *
                          ((int32_t)input[(int64_t)b * d->input_size + i] - d->input_zero_point));
      const int32_t dot =
          q_multiply_by_quantized_multiplier((int32_t)sum, d->feature_multiplier, d->feature_shift);
      state[((int64_t)b * d->filters + f) * d->memory + d->memory - 1] =
          (int16_t)q_clamp_i32(dot, INT16_MIN, INT16_MAX);
    }
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t f = 0; f < d->filters; f++) {
      const int16_t *memory = state + ((int64_t)b * d->filters + f) * d->memory;
      const int16_t *time = weights_time + (int64_t)f * d->memory;
      uint32_t dot = 0; /* wraps like TFLite's int32 sum */
      for (int32_t m = 0; m < d->memory; m++) dot += (uint32_t)((int32_t)time[m] * memory[m]);
      scratch[(int64_t)b * d->filters + f] = (int32_t)dot;
    }
  for (int32_t b = 0; b < d->batches; b++)
    for (int32_t u = 0; u < d->units; u++) {
      uint32_t sum = 0;
      for (int32_t r = 0; r < d->rank; r++)
        sum += (uint32_t)scratch[(int64_t)b * d->filters + u * d->rank + r];
      if (bias != NULL) sum += (uint32_t)bias[u];
      int32_t value =
          q_multiply_by_quantized_multiplier((int32_t)sum, d->output_multiplier, d->output_shift);
      value = q_clamp_i32(value + d->output_zero_point, -128, 127);
      output[(int64_t)b * d->units + u] = (int8_t)value;
    }
}

static tflaccel_status svdf_eval(const cpu_op_context *context) {
  const svdf_data *d = context->op_data;
  const void *input = q_input_data(context, SVDF_INPUT);
  void *state = q_input_data(context, SVDF_STATE);
  void *output = q_output_data(context, 0);
  if (input == NULL || state == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input, state or output has no storage");
  if (d->is_integer)
    svdf_integer(d, input, state, output);
  else
    svdf_float(d, input, state, output);
  return NULL;
}

const cpu_kernel cpu_svdf_kernel = {
    .op_code = TFLACCEL_OP_SVDF,
    .check = svdf_check,
    .prepare = svdf_prepare,
    .release = svdf_release,
    .eval = svdf_eval,
};
