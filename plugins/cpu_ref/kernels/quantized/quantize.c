/* QUANTIZE and DEQUANTIZE.
 *  - float32 -> uint8/int8/int16: round(x / scale) + zero_point, the
 *    division in double as TFLite's optimized AffineQuantize does;
 *  - integer -> integer (requantize): MultiplyByQuantizedMultiplier of the
 *    centred input by s_in / s_out, plus the output zero point;
 *  - DEQUANTIZE uint8/int8/int16 -> float32: float(double(scale) * (q - zp)),
 *    per tensor or per channel. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct quantize_data {
  int32_t input_dtype, output_dtype;
  int64_t count;
  double scale; /* QUANTIZE from float: the output scale */
  int32_t input_zero_point, output_zero_point, output_min, output_max;
  int32_t multiplier;
  int shift;
  /* DEQUANTIZE per channel */
  uint32_t channel_count;
  int64_t channel_stride; /* elements between consecutive channels */
  float *scales;        /* copies: the graph is borrowed only during prepare */
  int32_t *zero_points;
} quantize_data;

static int64_t load_integer(const void *data, int32_t dtype, int64_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[index];
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[index];
  default: return 0;
  }
}

static void store_integer(void *data, int32_t dtype, int64_t index, int32_t value) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8: ((uint8_t *)data)[index] = (uint8_t)value; break;
  case TFLACCEL_DTYPE_INT8: ((int8_t *)data)[index] = (int8_t)value; break;
  case TFLACCEL_DTYPE_INT16: ((int16_t *)data)[index] = (int16_t)value; break;
  case TFLACCEL_DTYPE_INT32: ((int32_t *)data)[index] = value; break;
  default: break;
  }
}

static int quantize_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                          char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (q_element_count(input) != q_element_count(output))
    return q_reason(reason, "input and output sizes differ");
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32) {
    if (output->dtype != TFLACCEL_DTYPE_UINT8 && output->dtype != TFLACCEL_DTYPE_INT8 &&
        output->dtype != TFLACCEL_DTYPE_INT16)
      return q_reason(reason, "float32 to %s is not supported", q_dtype_name(output->dtype));
    return q_check_per_tensor(graph, op, 1, 0, output->dtype, reason);
  }
  if (!q_check_per_tensor(graph, op, 0, 0, -1, reason)) return 0;
  if (output->dtype == TFLACCEL_DTYPE_INT32) {
    if (output->quantization.count != 1 || output->quantization.scales == NULL ||
        output->quantization.zero_points == NULL || !(q_scale(output) > 0.0f))
      return q_reason(reason, "int32 output needs per-tensor quantization");
  } else if (!q_check_per_tensor(graph, op, 1, 0, -1, reason)) {
    return 0;
  }
  const double multiplier = (double)q_scale(input) / (double)q_scale(output);
  if (multiplier >= 128.0)
    return q_reason(reason, "requantization multiplier %g is out of range", multiplier);
  return 1;
}

static int dequantize_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!q_is_integer_dtype(input->dtype) || !q_is_quantized(input))
    return q_reason(reason, "input must be quantized uint8, int8 or int16");
  if (output->dtype != TFLACCEL_DTYPE_FLOAT32)
    return q_reason(reason, "output must be float32, is %s", q_dtype_name(output->dtype));
  if (q_element_count(input) != q_element_count(output))
    return q_reason(reason, "input and output sizes differ");
  return 1;
}

static void quantize_release(const tflaccel_host_services *host, void *op_data) {
  quantize_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->scales);
  q_free(host, data->zero_points);
  q_free(host, data);
}

static tflaccel_status quantize_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  quantize_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->input_dtype = input->dtype;
  data->output_dtype = output->dtype;
  data->count = q_element_count(input);
  data->input_zero_point = q_zero_point(input);
  data->output_zero_point = q_zero_point(output);
  q_dtype_range(output->dtype, &data->output_min, &data->output_max);
  if (context->op->code == TFLACCEL_OP_DEQUANTIZE) {
    const tflaccel_quantization *quant = &input->quantization;
    data->channel_count = quant->count;
    data->scales = q_alloc(context, quant->count * sizeof(float));
    data->zero_points = q_alloc(context, quant->count * sizeof(int32_t));
    if (data->scales == NULL || data->zero_points == NULL) {
      quantize_release(context->host, data);
      return q_out_of_memory(context, quant->count * 8);
    }
    memcpy(data->scales, quant->scales, quant->count * sizeof(float));
    memcpy(data->zero_points, quant->zero_points, quant->count * sizeof(int32_t));
    data->channel_stride = 1;
    if (quant->count > 1)
      for (uint32_t d = (uint32_t)quant->quantized_dimension + 1; d < input->rank; d++)
        data->channel_stride *= input->dims[d];
  } else if (input->dtype == TFLACCEL_DTYPE_FLOAT32) {
    data->scale = (double)q_scale(output);
  } else {
    tflaccel_status status = q_require_multiplier(
        context, "input scale / output scale", (double)q_scale(input) / (double)q_scale(output),
        &data->multiplier, &data->shift);
    if (status != NULL) {
      quantize_release(context->host, data);
      return status;
    }
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status quantize_eval(const cpu_op_context *context) {
  const quantize_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  if (d->input_dtype == TFLACCEL_DTYPE_FLOAT32) {
    const float *in = input;
    for (int64_t i = 0; i < d->count; i++) {
      /* Clamp in double first so that the int32 conversion stays defined. */
      double rounded = round((double)in[i] / d->scale);
      if (!(rounded > -2147483648.0)) rounded = -2147483648.0; /* also NaN */
      if (rounded > 2147483647.0) rounded = 2147483647.0;
      const int64_t value = (int64_t)rounded + d->output_zero_point;
      const int32_t clamped = (int32_t)(value < d->output_min   ? d->output_min
                                        : value > d->output_max ? d->output_max
                                                                : value);
      store_integer(output, d->output_dtype, i, clamped);
    }
    return NULL;
  }
  for (int64_t i = 0; i < d->count; i++) {
    const int32_t centred = (int32_t)load_integer(input, d->input_dtype, i) - d->input_zero_point;
    const int64_t value =
        (int64_t)q_multiply_by_quantized_multiplier(centred, d->multiplier, d->shift) +
        d->output_zero_point;
    const int32_t clamped = (int32_t)(value < d->output_min   ? d->output_min
                                      : value > d->output_max ? d->output_max
                                                              : value);
    store_integer(output, d->output_dtype, i, clamped);
  }
  return NULL;
}

static tflaccel_status dequantize_eval(const cpu_op_context *context) {
  const quantize_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  float *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  for (int64_t i = 0; i < d->count; i++) {
    const uint32_t channel =
        d->channel_count > 1 ? (uint32_t)((i / d->channel_stride) % d->channel_count) : 0;
    const int64_t value = load_integer(input, d->input_dtype, i) - d->zero_points[channel];
    output[i] = (float)((double)d->scales[channel] * (double)value);
  }
  return NULL;
}

const cpu_kernel cpu_quant_quantize_kernel = {
    .op_code = TFLACCEL_OP_QUANTIZE,
    .check = quantize_check,
    .prepare = quantize_prepare,
    .release = quantize_release,
    .eval = quantize_eval,
};

const cpu_kernel cpu_quant_dequantize_kernel = {
    .op_code = TFLACCEL_OP_DEQUANTIZE,
    .check = dequantize_check,
    .prepare = quantize_prepare,
    .release = quantize_release,
    .eval = dequantize_eval,
};
