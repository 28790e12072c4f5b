/* SOFTMAX with uint8/int8 input and uint8/int8/int16 output, as TFLite's
 * optimized kernel computes it: a float table of exp(-beta * scale * d) for
 * every distance d of an input from the row's maximum, a float sum, and a
 * rounded rescale to the output scale. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct softmax_data {
  float table[256]; /* table[255 - d] = exp(-beta * input_scale * d) */
  int32_t input_dtype, output_dtype;
  int64_t rows, depth;
  float output_scale;
  int32_t output_zero_point, output_min, output_max;
} softmax_data;

static int softmax_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                         char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s input is not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (output->dtype != input->dtype && output->dtype != TFLACCEL_DTYPE_INT16)
    return q_reason(reason, "%s input with %s output is not supported", q_dtype_name(input->dtype),
                    q_dtype_name(output->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, output->dtype, reason))
    return 0;
  if (input->rank < 1) return q_reason(reason, "input must have at least one dimension");
  if (q_element_count(input) != q_element_count(output))
    return q_reason(reason, "input and output sizes differ");
  return 1;
}

static void softmax_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status softmax_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  softmax_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  const float scale = -q_scale(input) * context->op->params->softmax.beta;
  for (int32_t value = 0; value <= 255; value++) data->table[255 - value] = expf(scale * value);
  data->input_dtype = input->dtype;
  data->output_dtype = output->dtype;
  data->depth = input->dims[input->rank - 1];
  data->rows = data->depth > 0 ? q_element_count(input) / data->depth : 0;
  data->output_scale = q_scale(output);
  data->output_zero_point = q_zero_point(output);
  q_dtype_range(output->dtype, &data->output_min, &data->output_max);
  *op_data = data;
  return NULL;
}

static int32_t softmax_load(const void *data, int32_t dtype, int64_t index) {
  return dtype == TFLACCEL_DTYPE_UINT8 ? ((const uint8_t *)data)[index]
                                       : ((const int8_t *)data)[index];
}

static tflaccel_status softmax_eval(const cpu_op_context *context) {
  const softmax_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  for (int64_t row = 0; row < d->rows; row++) {
    const int64_t base = row * d->depth;
    int32_t max_value = d->input_dtype == TFLACCEL_DTYPE_UINT8 ? 0 : -128;
    for (int64_t j = 0; j < d->depth; j++) {
      const int32_t value = softmax_load(input, d->input_dtype, base + j);
      if (value > max_value) max_value = value;
    }
    /* table_offset[x] = table[255 - max + x] */
    const float *table_offset = d->table + (255 - max_value);
    float sum_exp = 0.0f;
    for (int64_t j = 0; j < d->depth; j++)
      sum_exp += table_offset[softmax_load(input, d->input_dtype, base + j)];
    const float inverse_sum_exp = 1.0f / (sum_exp * d->output_scale);
    for (int64_t j = 0; j < d->depth; j++) {
      const float probability =
          table_offset[softmax_load(input, d->input_dtype, base + j)] * inverse_sum_exp;
      /* Saturating: a tiny output scale makes probability huge. */
      int32_t quantized;
      if (d->output_dtype == TFLACCEL_DTYPE_UINT8) /* TFLite's x86 form; zero point is 0 */
        quantized = q_clamp_i32(q_saturate_i32(probability + 0.5f), d->output_min, d->output_max);
      else
        quantized = q_offset_clamp(q_saturate_i32(roundf(probability)), d->output_zero_point,
                                   d->output_min, d->output_max);
      if (d->output_dtype == TFLACCEL_DTYPE_UINT8)
        ((uint8_t *)output)[base + j] = (uint8_t)quantized;
      else if (d->output_dtype == TFLACCEL_DTYPE_INT8)
        ((int8_t *)output)[base + j] = (int8_t)quantized;
      else
        ((int16_t *)output)[base + j] = (int16_t)quantized;
    }
  }
  return NULL;
}

const cpu_kernel cpu_quant_softmax_kernel = {
    .op_code = TFLACCEL_OP_SOFTMAX,
    .check = softmax_check,
    .prepare = softmax_prepare,
    .release = softmax_release,
    .eval = softmax_eval,
};
