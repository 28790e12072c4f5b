/* ARG_MAX and ARG_MIN over one axis of a uint8/int8/int16 tensor. The order
 * of raw values is the order of the real values (scales are positive), so
 * quantization plays no part. Ties keep the first index, as TFLite does. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct arg_data {
  int32_t input_dtype, output_dtype;
  int64_t outer, axis_size, inner;
  int is_max;
} arg_data;

static int arg_axis(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t rank,
                    int32_t *axis, char *reason) {
  if (!q_check_constant(graph, op, 1, reason)) return 0;
  const tflaccel_tensor_desc *tensor = q_input(graph, op, 1);
  if (q_element_count(tensor) != 1)
    return q_reason(reason, "axis must hold one value");
  int64_t value;
  if (tensor->dtype == TFLACCEL_DTYPE_INT32)
    value = *(const int32_t *)tensor->data;
  else if (tensor->dtype == TFLACCEL_DTYPE_INT64)
    value = *(const int64_t *)tensor->data;
  else
    return q_reason(reason, "axis is %s, expected int32 or int64", q_dtype_name(tensor->dtype));
  if (value < 0) value += rank;
  if (value < 0 || value >= (int64_t)rank)
    return q_reason(reason, "axis out of range for rank %u", rank);
  *axis = (int32_t)value;
  return 1;
}

static int arg_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!q_is_integer_dtype(input->dtype))
    return q_reason(reason, "input is %s, expected uint8, int8 or int16",
                    q_dtype_name(input->dtype));
  if (output->dtype != TFLACCEL_DTYPE_INT32 && output->dtype != TFLACCEL_DTYPE_INT64)
    return q_reason(reason, "output is %s, expected int32 or int64", q_dtype_name(output->dtype));
  if (input->rank == 0) return q_reason(reason, "input must have at least one dimension");
  int32_t axis = 0;
  if (!arg_axis(graph, op, input->rank, &axis, reason)) return 0;
  if (input->dims[axis] <= 0) return q_reason(reason, "the reduced axis is empty");
  if (q_element_count(output) * input->dims[axis] != q_element_count(input))
    return q_reason(reason, "output size does not match the reduction");
  return 1;
}

static void arg_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status arg_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  char reason[TFLACCEL_REASON_SIZE];
  int32_t axis = 0;
  if (!arg_axis(context->graph, context->op, input->rank, &axis, reason))
    return q_error(context, TFLACCEL_INVALID_MODEL, "%s", reason);
  arg_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->input_dtype = input->dtype;
  data->output_dtype = output->dtype;
  data->outer = 1;
  data->inner = 1;
  for (int32_t d = 0; d < axis; d++) data->outer *= input->dims[d];
  for (uint32_t d = (uint32_t)axis + 1; d < input->rank; d++) data->inner *= input->dims[d];
  data->axis_size = input->dims[axis];
  data->is_max = context->op->code == TFLACCEL_OP_ARG_MAX;
  *op_data = data;
  return NULL;
}

static int32_t arg_load(const void *data, int32_t dtype, int64_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  default: return ((const int16_t *)data)[index];
  }
}

static tflaccel_status arg_eval(const cpu_op_context *context) {
  const arg_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  for (int64_t o = 0; o < d->outer; o++) {
    for (int64_t i = 0; i < d->inner; i++) {
      const int64_t base = o * d->axis_size * d->inner + i;
      int32_t best = arg_load(input, d->input_dtype, base);
      int64_t best_index = 0;
      for (int64_t a = 1; a < d->axis_size; a++) {
        const int32_t value = arg_load(input, d->input_dtype, base + a * d->inner);
        if (d->is_max ? value > best : value < best) {
          best = value;
          best_index = a;
        }
      }
      const int64_t out = o * d->inner + i;
      if (d->output_dtype == TFLACCEL_DTYPE_INT32)
        ((int32_t *)output)[out] = (int32_t)best_index;
      else
        ((int64_t *)output)[out] = best_index;
    }
  }
  return NULL;
}

const cpu_kernel cpu_quant_arg_max_kernel = {
    .op_code = TFLACCEL_OP_ARG_MAX,
    .check = arg_check,
    .prepare = arg_prepare,
    .release = arg_release,
    .eval = arg_eval,
};

const cpu_kernel cpu_quant_arg_min_kernel = {
    .op_code = TFLACCEL_OP_ARG_MIN,
    .check = arg_check,
    .prepare = arg_prepare,
    .release = arg_release,
    .eval = arg_eval,
};
