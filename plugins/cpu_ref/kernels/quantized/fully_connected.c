/* FULLY_CONNECTED on uint8 and int8 tensors (weights [units, depth]), with
 * TFLite's double-rounding requantization per output unit, ties broken as
 * its x86 build does for the dtype (q_gemm_requantizer). */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct fc_data {
  int32_t batches, depth, units;
  int32_t input_zero_point, output_zero_point, act_min, act_max;
  int32_t input_dtype;
  int16_t *weights; /* [units][depth], zero point removed */
  int32_t *bias;
  int32_t *multipliers;
  int *shifts;
  int16_t *centred_input;
  q_requantize_fn requantize; /* TFLite's rounding for this dtype */
} fc_data;

static int fc_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  if (input == NULL) return q_reason(reason, "input 0 is missing");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s activations are not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason)) return 0;
  if (!q_check_per_tensor(graph, op, 1, 0, input->dtype, reason)) return 0;
  const tflaccel_fully_connected_params *params = &op->params->fully_connected;
  if (params->weights_format != 0)
    return q_reason(reason, "shuffled weights format %d is not supported", params->weights_format);
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (filter == NULL || filter->rank != 2) return q_reason(reason, "weights must be 2-D");
  const int32_t units = filter->dims[0], depth = filter->dims[1];
  if (depth <= 0 || q_element_count(input) % depth != 0)
    return q_reason(reason, "input of %lld elements is not a multiple of depth %d",
                    (long long)q_element_count(input), depth);
  const int64_t batches = q_element_count(input) / depth;
  if (q_element_count(output) != batches * units)
    return q_reason(reason, "output has %lld elements, expected %lld",
                    (long long)q_element_count(output), (long long)(batches * units));
  if (!q_check_filter(graph, op, 1, input->dtype, 0, units, reason)) return 0;
  if (!q_check_bias(graph, op, 2, units, reason)) return 0;
  if (params->fused_activation > TFLACCEL_ACT_RELU6)
    return q_reason(reason, "fused activation %d is not supported on quantized tensors",
                    params->fused_activation);
  return 1;
}

static void fc_release(const tflaccel_host_services *host, void *op_data) {
  fc_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->weights);
  q_free(host, data->bias);
  q_free(host, data->multipliers);
  q_free(host, data->shifts);
  q_free(host, data->centred_input);
  q_free(host, data);
}

static tflaccel_status fc_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_graph_view *graph = context->graph;
  const tflaccel_op_desc *op = context->op;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = q_input(graph, op, 2);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);

  fc_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->units = filter->dims[0];
  data->depth = filter->dims[1];
  data->batches = (int32_t)(q_element_count(input) / data->depth);
  data->input_dtype = input->dtype;
  data->requantize = q_gemm_requantizer(input->dtype);
  data->input_zero_point = q_zero_point(input);
  data->output_zero_point = q_zero_point(output);
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  q_activation_range(op->params->fully_connected.fused_activation, q_scale(output),
                     data->output_zero_point, dtype_min, dtype_max, &data->act_min,
                     &data->act_max);
  const size_t weight_count = (size_t)q_element_count(filter);
  const size_t input_count = (size_t)q_element_count(input);
  const size_t units = (size_t)data->units;
  data->weights = q_alloc(context, weight_count * sizeof(int16_t));
  data->bias = q_alloc(context, units * sizeof(int32_t));
  data->multipliers = q_alloc(context, units * sizeof(int32_t));
  data->shifts = q_alloc(context, units * sizeof(int));
  data->centred_input = q_alloc(context, input_count * sizeof(int16_t));
  if (data->weights == NULL || data->bias == NULL || data->multipliers == NULL ||
      data->shifts == NULL || data->centred_input == NULL) {
    fc_release(context->host, data);
    return q_out_of_memory(context, weight_count * sizeof(int16_t) + input_count * 2);
  }
  const int32_t filter_zero_point = q_zero_point(filter);
  if (filter->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++)
      data->weights[i] = (int16_t)((int32_t)w[i] - filter_zero_point);
  } else {
    const int8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++) data->weights[i] = w[i];
  }
  if (bias != NULL) memcpy(data->bias, bias->data, units * sizeof(int32_t));
  q_conv_multipliers(input, filter, output, data->units, data->multipliers, data->shifts);
  *op_data = data;
  return NULL;
}

typedef struct fc_run {
  const fc_data *data;
  void *output;
} fc_run;

/* Output units [begin, end) of every batch row. */
static void fc_units(void *arg, int64_t begin, int64_t end) {
  const fc_run *run = arg;
  const fc_data *d = run->data;
  for (int32_t b = 0; b < d->batches; b++) {
    const int16_t *in = d->centred_input + (int64_t)b * d->depth;
    for (int64_t u = begin; u < end; u++) {
      const int16_t *w = d->weights + u * d->depth;
      uint32_t sum0 = 0, sum1 = 0; /* wraps like TFLite's int32 accumulator */
      int32_t i = 0;
      for (; i + 2 <= d->depth; i += 2) {
        sum0 += (uint32_t)((int32_t)in[i] * w[i]);
        sum1 += (uint32_t)((int32_t)in[i + 1] * w[i + 1]);
      }
      for (; i < d->depth; i++) sum0 += (uint32_t)((int32_t)in[i] * w[i]);
      const int32_t acc = (int32_t)((uint32_t)d->bias[u] + sum0 + sum1);
      int32_t value = d->requantize(acc, d->multipliers[u], d->shifts[u]);
      value = q_clamp_i32(value + d->output_zero_point, d->act_min, d->act_max);
      const int64_t out = (int64_t)b * d->units + u;
      if (d->input_dtype == TFLACCEL_DTYPE_UINT8)
        ((uint8_t *)run->output)[out] = (uint8_t)value;
      else
        ((int8_t *)run->output)[out] = (int8_t)value;
    }
  }
}

static tflaccel_status fc_eval(const cpu_op_context *context) {
  const fc_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  const int64_t input_count = (int64_t)d->batches * d->depth;
  if (d->input_dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *in = input;
    for (int64_t i = 0; i < input_count; i++)
      d->centred_input[i] = (int16_t)((int32_t)in[i] - d->input_zero_point);
  } else {
    const int8_t *in = input;
    for (int64_t i = 0; i < input_count; i++)
      d->centred_input[i] = (int16_t)((int32_t)in[i] - d->input_zero_point);
  }
  fc_run run = {d, output};
  cpu_parallel_for(context->pool, d->units, 16, fc_units, &run);
  return NULL;
}

const cpu_kernel cpu_quant_fully_connected_kernel = {
    .op_code = TFLACCEL_OP_FULLY_CONNECTED,
    .check = fc_check,
    .prepare = fc_prepare,
    .release = fc_release,
    .eval = fc_eval,
};
