/* ARG_MAX and ARG_MIN along a constant axis: float32, int32, int64, int16,
 * int8, uint8 and bool inputs (raw values: quantization keeps the order);
 * int32 or int64 output. Ties go to the first index, as in TFLite. */
#include "config.h"

#include "core/facts/axis.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int arg_input_ok(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: case TFLACCEL_DTYPE_INT32: case TFLACCEL_DTYPE_INT64:
  case TFLACCEL_DTYPE_INT16: case TFLACCEL_DTYPE_INT8: case TFLACCEL_DTYPE_UINT8:
  case TFLACCEL_DTYPE_BOOL:
    return 1;
  }
  return 0;
}

static int arg_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     char *reason) {
  const char *name = cpu_op_name(op);
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *axis = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!arg_input_ok(input->dtype))
    return cpu_reason(reason, "%s: %s input is not supported", name, cpu_dtype_name(input->dtype));
  if (!cpu_is_index_dtype(output->dtype))
    return cpu_reason(reason, "%s: output is %s, expected int32 or int64", name,
                      cpu_dtype_name(output->dtype));
  /* output_type 0 (FLOAT32) is the options' default: absent. */
  int32_t wanted = op->params->arg.output_type;
  if (wanted != TFLACCEL_DTYPE_FLOAT32 && wanted != output->dtype)
    return cpu_reason(reason, "%s: output_type is %s but the output tensor is %s", name,
                      cpu_dtype_name(wanted), cpu_dtype_name(output->dtype));
  if (!cpu_is_index_dtype(axis->dtype) || !cpu_is_constant(axis) || cpu_element_count(axis) != 1)
    return cpu_reason(reason, "%s: axis must be one constant int32/int64 value", name);
  int32_t dim = axis_normalize(cpu_read_index(axis, axis->data, 0), input->rank);
  if (dim < 0) return cpu_reason(reason, "%s: axis is outside rank %u", name, input->rank);
  if (input->dims[dim] < 1) return cpu_reason(reason, "%s: the reduced axis is empty", name);
  int matches = output->rank + 1 == input->rank;
  for (uint32_t d = 0; matches && d < output->rank; d++)
    matches = output->dims[d] == input->dims[d < (uint32_t)dim ? d : d + 1];
  if (!matches) return cpu_reason(reason, "%s: output shape is not the input's without axis %d",
                                  name, dim);
  return 1;
}

static double read_as_double(int32_t dtype, const void *data, int64_t i) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return ((const float *)data)[i];
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[i];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[i];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[i];
  default: return ((const uint8_t *)data)[i]; /* uint8, bool */
  }
}

static tflaccel_status arg_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *axis_tensor = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  int32_t axis =
      axis_normalize(cpu_read_index(axis_tensor, cpu_input_data(context, 1), 0), input->rank);
  int64_t outer = cpu_dims_product(input, 0, (uint32_t)axis);
  int64_t length = input->dims[axis];
  int64_t inner = cpu_dims_product(input, (uint32_t)axis + 1, input->rank);
  int is_max = context->op->code == TFLACCEL_OP_ARG_MAX;
  const void *in = cpu_input_data(context, 0);
  void *out = cpu_output_data(context, 0);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t k = 0; k < inner; k++) {
      int64_t base = o * length * inner + k;
      int64_t best = 0;
      if (input->dtype == TFLACCEL_DTYPE_INT64) {
        /* int64 compares exactly, not through double. */
        const int64_t *values = in;
        int64_t best_value = values[base];
        for (int64_t j = 1; j < length; j++) {
          int64_t value = values[base + j * inner];
          if (is_max ? value > best_value : value < best_value) {
            best_value = value;
            best = j;
          }
        }
      } else {
        double best_value = read_as_double(input->dtype, in, base);
        for (int64_t j = 1; j < length; j++) {
          double value = read_as_double(input->dtype, in, base + j * inner);
          if (is_max ? value > best_value : value < best_value) {
            best_value = value;
            best = j;
          }
        }
      }
      if (output->dtype == TFLACCEL_DTYPE_INT64)
        ((int64_t *)out)[o * inner + k] = best;
      else
        ((int32_t *)out)[o * inner + k] = (int32_t)best;
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_arg_max = {
    .op_code = TFLACCEL_OP_ARG_MAX, .check = arg_check, .eval = arg_eval};
const cpu_kernel cpu_kernel_arg_min = {
    .op_code = TFLACCEL_OP_ARG_MIN, .check = arg_check, .eval = arg_eval};
