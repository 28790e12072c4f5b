/* CONCATENATION of uint8/int8 tensors whose quantization may differ: inputs
 * with the output's scale and zero point are copied, others requantized the
 * way TFLite's ConcatenationWithScaling does it, in float:
 * round(q * (s_in / s_out) - zp_in * (s_in / s_out)) + zp_out. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct concat_data {
  int32_t dtype;
  int32_t output_zero_point, output_min, output_max;
  int64_t outer;        /* product of dims before the axis */
  int64_t output_chunk; /* elements of one outer step in the output */
  uint32_t input_count;
  int64_t *chunks; /* elements of one outer step in each input */
  float *scales;   /* s_in / s_out per input */
  float *biases;   /* -zp_in * scale per input */
  uint8_t *copy;   /* 1 when the input has the output's quantization */
} concat_data;

static int concat_axis(const tflaccel_op_desc *op, const tflaccel_tensor_desc *output) {
  int32_t axis = op->params->concatenation.axis;
  if (axis < 0) axis += (int32_t)output->rank;
  return axis;
}

static int concat_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (output == NULL || op->input_count == 0) return q_reason(reason, "needs inputs and an output");
  if (output->dtype != TFLACCEL_DTYPE_UINT8 && output->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s is not supported (uint8 or int8 only)",
                    q_dtype_name(output->dtype));
  if (!q_check_per_tensor(graph, op, 1, 0, output->dtype, reason)) return 0;
  if (op->params->concatenation.fused_activation != TFLACCEL_ACT_NONE)
    return q_reason(reason, "a fused activation on a quantized concatenation is not supported");
  const int axis = concat_axis(op, output);
  if (axis < 0 || (uint32_t)axis >= output->rank)
    return q_reason(reason, "axis %d out of range for rank %u", op->params->concatenation.axis,
                    output->rank);
  int64_t axis_total = 0;
  for (uint32_t i = 0; i < op->input_count; i++) {
    if (!q_check_per_tensor(graph, op, 0, i, output->dtype, reason)) return 0;
    const tflaccel_tensor_desc *input = q_input(graph, op, i);
    if (input->rank != output->rank)
      return q_reason(reason, "input %u has rank %u, output %u", i, input->rank, output->rank);
    for (uint32_t d = 0; d < output->rank; d++)
      if ((int)d != axis && input->dims[d] != output->dims[d])
        return q_reason(reason, "input %u differs from the output outside the axis", i);
    axis_total += input->dims[axis];
  }
  if (axis_total != output->dims[axis])
    return q_reason(reason, "inputs sum to %lld along the axis, output has %d",
                    (long long)axis_total, output->dims[axis]);
  return 1;
}

static void concat_release(const tflaccel_host_services *host, void *op_data) {
  concat_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->chunks);
  q_free(host, data->scales);
  q_free(host, data->biases);
  q_free(host, data->copy);
  q_free(host, data);
}

static tflaccel_status concat_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_op_desc *op = context->op;
  const tflaccel_tensor_desc *output = q_output(context->graph, op, 0);
  concat_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  const uint32_t count = op->input_count;
  data->input_count = count;
  data->chunks = q_alloc(context, count * sizeof(int64_t));
  data->scales = q_alloc(context, count * sizeof(float));
  data->biases = q_alloc(context, count * sizeof(float));
  data->copy = q_alloc(context, count);
  if (data->chunks == NULL || data->scales == NULL || data->biases == NULL || data->copy == NULL) {
    concat_release(context->host, data);
    return q_out_of_memory(context, count * 24);
  }
  const int axis = concat_axis(op, output);
  int64_t inner = 1;
  data->outer = 1;
  for (int d = 0; d < axis; d++) data->outer *= output->dims[d];
  for (uint32_t d = (uint32_t)axis + 1; d < output->rank; d++) inner *= output->dims[d];
  data->output_chunk = inner * output->dims[axis];
  data->dtype = output->dtype;
  data->output_zero_point = q_zero_point(output);
  q_dtype_range(output->dtype, &data->output_min, &data->output_max);
  const float output_scale = q_scale(output);
  const float inverse_output_scale = 1.0f / output_scale;
  for (uint32_t i = 0; i < count; i++) {
    const tflaccel_tensor_desc *input = q_input(context->graph, op, i);
    data->chunks[i] = inner * input->dims[axis];
    data->copy[i] =
        q_scale(input) == output_scale && q_zero_point(input) == data->output_zero_point;
    data->scales[i] = q_scale(input) * inverse_output_scale;
    data->biases[i] = (float)(-q_zero_point(input)) * data->scales[i];
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status concat_eval(const cpu_op_context *context) {
  const concat_data *d = context->op_data;
  uint8_t *output = q_output_data(context, 0);
  if (output == NULL) return q_error(context, TFLACCEL_INTERNAL, "output has no storage");
  for (uint32_t i = 0; i < d->input_count; i++)
    if (q_input_data(context, i) == NULL)
      return q_error(context, TFLACCEL_INTERNAL, "input %u has no storage", i);
  uint8_t *out = output; /* both dtypes are one byte wide */
  for (int64_t o = 0; o < d->outer; o++) {
    for (uint32_t i = 0; i < d->input_count; i++) {
      const int64_t chunk = d->chunks[i];
      const uint8_t *in = (const uint8_t *)q_input_data(context, i) + o * chunk;
      if (d->copy[i]) {
        memcpy(out, in, (size_t)chunk);
      } else {
        for (int64_t j = 0; j < chunk; j++) {
          const float raw = d->dtype == TFLACCEL_DTYPE_UINT8 ? (float)in[j]
                                                             : (float)(int8_t)in[j];
          const int32_t value =
              q_offset_clamp(q_saturate_i32(roundf(raw * d->scales[i] + d->biases[i])),
                             d->output_zero_point, d->output_min, d->output_max);
          out[j] = d->dtype == TFLACCEL_DTYPE_UINT8 ? (uint8_t)value : (uint8_t)(int8_t)value;
        }
      }
      out += chunk;
    }
  }
  return NULL;
}

const cpu_kernel cpu_quant_concatenation_kernel = {
    .op_code = TFLACCEL_OP_CONCATENATION,
    .check = concat_check,
    .prepare = concat_prepare,
    .release = concat_release,
    .eval = concat_eval,
};
