/* MEAN on uint8/int8 tensors, following the path TFLite 2.9 takes on x86
 * (there MEAN registers its reference kernel; the optimized one is NEON-only):
 *  - 4-D input, keep_dims, axis tensor exactly {1, 2} or {2, 1} (global
 *    average pooling):
 *      uint8: raw integer sum, one multiplier input_scale / (count *
 *      output_scale) and a rounded bias;
 *      int8: sum of (x - input_zero_point), times input_scale / output_scale,
 *      then divided by count rounding half away from zero, plus the output
 *      zero point (reference_integer_ops::Mean; later releases take the uint8
 *      formula for int8 too, which rounds some x.49 means the other way);
 *  - otherwise, equal input/output quantization: integer sum / count,
 *    truncated;
 *  - otherwise: the mean in float, rescaled and rounded. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

enum mean_path { MEAN_SPATIAL, MEAN_SPATIAL_CENTRED, MEAN_SAME_QUANTIZATION, MEAN_RESCALED };

typedef struct mean_data {
  int path;
  int32_t dtype;
  uint32_t rank;
  int32_t dims[Q_MAX_DIMS];
  int64_t output_strides[Q_MAX_DIMS]; /* 0 along reduced axes */
  int64_t input_count, output_count, reduced_count;
  int32_t multiplier;
  int shift;
  int32_t bias;
  float scale, float_bias;
  int32_t input_zero_point, output_zero_point, dtype_min, dtype_max;
  int32_t *sums; /* [output_count] */
} mean_data;

/* TFLite's test for its global-average-pooling kernels: the raw axis values
 * (negative ones do not count) are exactly {1, 2} in either order. */
static int mean_axes_are_spatial(const tflaccel_tensor_desc *axis) {
  if (q_element_count(axis) != 2) return 0;
  const int32_t *values = axis->data;
  return (values[0] == 1 && values[1] == 2) || (values[0] == 2 && values[1] == 1);
}

/* Resolves the axis tensor into a mask of reduced dimensions; 0 on error. */
static int mean_axes(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t rank,
                     uint32_t *mask, char *reason) {
  if (!q_check_constant(graph, op, 1, reason)) return 0;
  const tflaccel_tensor_desc *axis = q_input(graph, op, 1);
  if (axis->dtype != TFLACCEL_DTYPE_INT32)
    return q_reason(reason, "axis tensor is %s, expected int32", q_dtype_name(axis->dtype));
  const int32_t *values = axis->data;
  *mask = 0;
  for (int64_t i = 0; i < q_element_count(axis); i++) {
    int32_t a = values[i];
    if (a < 0) a += (int32_t)rank;
    if (a < 0 || (uint32_t)a >= rank)
      return q_reason(reason, "axis %d out of range for rank %u", values[i], rank);
    *mask |= 1u << a;
  }
  return 1;
}

static int mean_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s is not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input->dtype, reason))
    return 0;
  if (input->rank > Q_MAX_DIMS) return q_reason(reason, "rank %u is too large", input->rank);
  uint32_t mask = 0;
  if (!mean_axes(graph, op, input->rank, &mask, reason)) return 0;
  int64_t expected = 1;
  for (uint32_t d = 0; d < input->rank; d++)
    if (!(mask & (1u << d))) expected *= input->dims[d];
  if (q_element_count(output) != expected)
    return q_reason(reason, "output has %lld elements, the reduction gives %lld",
                    (long long)q_element_count(output), (long long)expected);
  return 1;
}

static void mean_release(const tflaccel_host_services *host, void *op_data) {
  mean_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->sums);
  q_free(host, data);
}

static tflaccel_status mean_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  char reason[TFLACCEL_REASON_SIZE];
  uint32_t mask = 0;
  if (!mean_axes(context->graph, context->op, input->rank, &mask, reason))
    return q_error(context, TFLACCEL_INVALID_MODEL, "%s", reason);

  mean_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->dtype = input->dtype;
  data->rank = input->rank;
  data->input_count = q_element_count(input);
  data->output_count = q_element_count(output);
  data->reduced_count = data->output_count > 0 ? data->input_count / data->output_count : 0;
  int64_t stride = 1;
  for (uint32_t d = input->rank; d-- > 0;) {
    data->dims[d] = input->dims[d];
    data->output_strides[d] = (mask & (1u << d)) ? 0 : stride;
    if (!(mask & (1u << d))) stride *= input->dims[d];
  }
  data->input_zero_point = q_zero_point(input);
  data->output_zero_point = q_zero_point(output);
  q_dtype_range(output->dtype, &data->dtype_min, &data->dtype_max);
  const float input_scale = q_scale(input), output_scale = q_scale(output);
  tflaccel_status status = NULL;

  const int spatial = context->op->params->reducer.keep_dims && input->rank == 4 &&
                      mean_axes_are_spatial(q_input(context->graph, context->op, 1));
  if (spatial && input->dtype == TFLACCEL_DTYPE_INT8) {
    data->path = MEAN_SPATIAL_CENTRED;
    /* input_scale / output_scale in double, as TFLite's PrepareMeanOrSum. */
    status = q_require_multiplier(context, "input scale / output scale",
                                  (double)input_scale / (double)output_scale, &data->multiplier,
                                  &data->shift);
  } else if (spatial) {
    data->path = MEAN_SPATIAL;
    /* float arithmetic, as in TFLite's uint8 Mean. */
    const float count = (float)(input->dims[1] * input->dims[2]);
    float temp = (float)data->input_zero_point * input_scale / output_scale;
    temp = temp > 0 ? temp + 0.5f : temp - 0.5f;
    data->bias = q_offset_clamp(q_saturate_i32(-(double)temp), data->output_zero_point, INT32_MIN,
                                INT32_MAX);
    const float real_scale = input_scale / (count * output_scale);
    status = q_require_multiplier(context, "input scale / (count x output scale)",
                                  (double)real_scale, &data->multiplier, &data->shift);
  } else if (input_scale == output_scale && data->input_zero_point == data->output_zero_point) {
    data->path = MEAN_SAME_QUANTIZATION;
  } else {
    data->path = MEAN_RESCALED;
    data->scale = input_scale / output_scale;
    data->float_bias = (float)(-data->input_zero_point) * data->scale;
  }
  if (status != NULL) {
    mean_release(context->host, data);
    return status;
  }
  data->sums = q_alloc(context, (size_t)data->output_count * sizeof(int32_t));
  if (data->sums == NULL) {
    mean_release(context->host, data);
    return q_out_of_memory(context, (size_t)data->output_count * sizeof(int32_t));
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status mean_eval(const cpu_op_context *context) {
  const mean_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  for (int64_t i = 0; i < d->output_count; i++) d->sums[i] = 0;
  /* Raw sums (zero points are handled by each path's formula). */
  int32_t index[Q_MAX_DIMS] = {0};
  int64_t out = 0;
  for (int64_t i = 0; i < d->input_count; i++) {
    d->sums[out] += d->dtype == TFLACCEL_DTYPE_UINT8 ? ((const uint8_t *)input)[i]
                                                     : ((const int8_t *)input)[i];
    for (uint32_t k = d->rank; k-- > 0;) {
      out += d->output_strides[k];
      if (++index[k] < d->dims[k]) break;
      out -= d->output_strides[k] * d->dims[k];
      index[k] = 0;
    }
  }
  for (int64_t o = 0; o < d->output_count; o++) {
    int32_t value;
    if (d->reduced_count == 0) {
      value = d->output_zero_point;
    } else if (d->path == MEAN_SPATIAL_CENTRED) {
      /* The sum of (x - zero point), modulo 2^32 like TFLite's int32 sum. */
      const int32_t count = (int32_t)d->reduced_count;
      const int32_t centred =
          (int32_t)((uint32_t)d->sums[o] - (uint32_t)count * (uint32_t)d->input_zero_point);
      const int32_t scaled = q_multiply_by_quantized_multiplier(centred, d->multiplier, d->shift);
      /* Division rounding half away from zero (C division truncates), plus
       * the zero point; in int64 so that neither addition can overflow. */
      const int64_t half = count / 2;
      const int64_t mean = (scaled > 0 ? ((int64_t)scaled + half) / count
                                       : ((int64_t)scaled - half) / count) +
                           d->output_zero_point;
      value = mean < d->dtype_min ? d->dtype_min
                                  : (mean > d->dtype_max ? d->dtype_max : (int32_t)mean);
    } else if (d->path == MEAN_SPATIAL) {
      value = q_multiply_by_quantized_multiplier(d->sums[o], d->multiplier, d->shift) + d->bias;
      value = q_clamp_i32(value, d->dtype_min, d->dtype_max);
    } else if (d->path == MEAN_SAME_QUANTIZATION) {
      value = d->sums[o] / (int32_t)d->reduced_count;
    } else {
      const float mean = (float)d->sums[o] / (float)d->reduced_count;
      float result = roundf(mean * d->scale + d->float_bias) + (float)d->output_zero_point;
      if (result > (float)d->dtype_max) result = (float)d->dtype_max;
      if (result < (float)d->dtype_min) result = (float)d->dtype_min;
      value = (int32_t)result;
    }
    if (d->dtype == TFLACCEL_DTYPE_UINT8)
      ((uint8_t *)output)[o] = (uint8_t)value;
    else
      ((int8_t *)output)[o] = (int8_t)value;
  }
  return NULL;
}

const cpu_kernel cpu_quant_mean_kernel = {
    .op_code = TFLACCEL_OP_MEAN,
    .check = mean_check,
    .prepare = mean_prepare,
    .release = mean_release,
    .eval = mean_eval,
};
