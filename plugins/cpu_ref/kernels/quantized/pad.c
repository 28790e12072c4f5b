/* PAD and PADV2 on quantized tensors: the padding is the real value 0, i.e.
 * the output's zero point (PAD), or the raw constant_values element
 * (PADV2), which TFLite requires to share the output's quantization. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct pad_data {
  uint32_t rank;
  size_t element_size;
  int32_t in_dims[Q_MAX_DIMS], out_dims[Q_MAX_DIMS], before[Q_MAX_DIMS];
  uint8_t pad_bytes[2]; /* the pad value in the output's dtype */
  int64_t output_count;
} pad_data;

/* Reads paddings[d][0..1] of the constant paddings tensor. */
static int pad_amounts(const tflaccel_tensor_desc *paddings, uint32_t d, int64_t *before,
                       int64_t *after) {
  if (paddings->dtype == TFLACCEL_DTYPE_INT32) {
    const int32_t *values = paddings->data;
    *before = values[2 * d];
    *after = values[2 * d + 1];
    return 1;
  }
  if (paddings->dtype == TFLACCEL_DTYPE_INT64) {
    const int64_t *values = paddings->data;
    *before = values[2 * d];
    *after = values[2 * d + 1];
    return 1;
  }
  return 0;
}

static int pad_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!q_check_per_tensor(graph, op, 0, 0, -1, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input->dtype, reason))
    return 0;
  if (q_scale(input) != q_scale(output) || q_zero_point(input) != q_zero_point(output))
    return q_reason(reason, "input and output quantization differ");
  if (input->rank != output->rank || input->rank > Q_MAX_DIMS)
    return q_reason(reason, "input rank %u and output rank %u must match (at most %d)",
                    input->rank, output->rank, Q_MAX_DIMS);
  if (!q_check_constant(graph, op, 1, reason)) return 0;
  const tflaccel_tensor_desc *paddings = q_input(graph, op, 1);
  if (q_element_count(paddings) != 2 * (int64_t)input->rank ||
      (paddings->dtype != TFLACCEL_DTYPE_INT32 && paddings->dtype != TFLACCEL_DTYPE_INT64))
    return q_reason(reason, "paddings must be int32 or int64 [%u, 2]", input->rank);
  for (uint32_t d = 0; d < input->rank; d++) {
    int64_t before = 0, after = 0;
    pad_amounts(paddings, d, &before, &after);
    if (before < 0 || after < 0 || input->dims[d] + before + after != output->dims[d])
      return q_reason(reason, "paddings of dimension %u do not give the output shape", d);
  }
  if (op->code == TFLACCEL_OP_PADV2 && q_input_index(op, 2) != TFLACCEL_NO_TENSOR) {
    if (!q_check_constant(graph, op, 2, reason)) return 0;
    const tflaccel_tensor_desc *value = q_input(graph, op, 2);
    if (value->dtype != output->dtype || q_element_count(value) != 1)
      return q_reason(reason, "constant_values must be one %s element",
                      q_dtype_name(output->dtype));
    if (q_is_quantized(value) &&
        (q_scale(value) != q_scale(output) || q_zero_point(value) != q_zero_point(output)))
      return q_reason(reason, "constant_values quantization differs from the output's");
  }
  return 1;
}

static void pad_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status pad_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_op_desc *op = context->op;
  const tflaccel_tensor_desc *input = q_input(context->graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, op, 0);
  const tflaccel_tensor_desc *paddings = q_input(context->graph, op, 1);
  pad_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->rank = input->rank;
  data->element_size = q_dtype_size(input->dtype);
  for (uint32_t d = 0; d < input->rank; d++) {
    int64_t before = 0, after = 0;
    pad_amounts(paddings, d, &before, &after);
    data->in_dims[d] = input->dims[d];
    data->out_dims[d] = output->dims[d];
    data->before[d] = (int32_t)before;
  }
  data->output_count = q_element_count(output);
  const tflaccel_tensor_desc *value =
      op->code == TFLACCEL_OP_PADV2 ? q_input(context->graph, op, 2) : NULL;
  if (value != NULL) {
    memcpy(data->pad_bytes, value->data, data->element_size);
  } else {
    const int32_t zero_point = q_zero_point(output);
    if (output->dtype == TFLACCEL_DTYPE_INT16) {
      const int16_t v = (int16_t)zero_point;
      memcpy(data->pad_bytes, &v, sizeof v);
    } else {
      data->pad_bytes[0] = (uint8_t)zero_point;
    }
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status pad_eval(const cpu_op_context *context) {
  const pad_data *d = context->op_data;
  const uint8_t *input = q_input_data(context, 0);
  uint8_t *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  const size_t size = d->element_size;
  for (int64_t i = 0; i < d->output_count; i++) memcpy(output + i * size, d->pad_bytes, size);
  if (d->rank == 0) {
    memcpy(output, input, size);
    return NULL;
  }
  /* Copy input rows (last dimension) into place. */
  int64_t rows = 1;
  for (uint32_t k = 0; k + 1 < d->rank; k++) rows *= d->in_dims[k];
  const uint32_t last = d->rank - 1;
  int32_t index[Q_MAX_DIMS] = {0};
  for (int64_t r = 0; r < rows; r++) {
    int64_t out_offset = 0;
    for (uint32_t k = 0; k < last; k++)
      out_offset = out_offset * d->out_dims[k] + index[k] + d->before[k];
    out_offset = out_offset * d->out_dims[last] + d->before[last];
    memcpy(output + out_offset * size, input + r * d->in_dims[last] * size,
           (size_t)d->in_dims[last] * size);
    for (uint32_t k = last; k-- > 0;) {
      if (++index[k] < d->in_dims[k]) break;
      index[k] = 0;
    }
  }
  return NULL;
}

const cpu_kernel cpu_quant_pad_kernel = {
    .op_code = TFLACCEL_OP_PAD,
    .check = pad_check,
    .prepare = pad_prepare,
    .release = pad_release,
    .eval = pad_eval,
};

const cpu_kernel cpu_quant_padv2_kernel = {
    .op_code = TFLACCEL_OP_PADV2,
    .check = pad_check,
    .prepare = pad_prepare,
    .release = pad_release,
    .eval = pad_eval,
};
