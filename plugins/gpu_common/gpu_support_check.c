/* The support rules several op families share (gpu_support_check.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_support_check.h"

/* Writes "<plugin>: <message>" and returns 0. */
int gpu_decline(const gpu_support_check *check, const char *format, ...) {
  char message[TFLACCEL_REASON_SIZE];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  snprintf(check->reason, check->reason_size, "%s: %s", check->plugin, message);
  return 0;
}

int gpu_tensor_is_constant(const tflaccel_tensor_desc *tensor) {
  return (tensor->flags & TFLACCEL_TENSOR_CONSTANT) && tensor->data != NULL;
}

int gpu_tensor_is_index_constant(const tflaccel_tensor_desc *tensor) {
  return gpu_tensor_is_constant(tensor) &&
         (tensor->dtype == TFLACCEL_DTYPE_INT32 || tensor->dtype == TFLACCEL_DTYPE_INT64);
}

int64_t gpu_tensor_element_count(const tflaccel_tensor_desc *tensor) {
  int64_t count = 1;
  for (uint32_t d = 0; d < tensor->rank; ++d) count *= tensor->dims[d];
  return count;
}

int gpu_check_activation(const gpu_support_check *check, int32_t activation) {
  float low, high;
  if (!gpu_activation_range(activation, &low, &high))
    return gpu_decline(check, "%s with fused activation %d (only RELU, RELU6, RELU_N1_TO_1)",
                       check->name, (int)activation);
  return 1;
}

int gpu_check_same_shape(const gpu_support_check *check, const tflaccel_tensor_desc *a,
                         const tflaccel_tensor_desc *b, const char *what) {
  int same = a->rank == b->rank;
  for (uint32_t d = 0; same && d < a->rank; ++d) same = a->dims[d] == b->dims[d];
  if (!same) return gpu_decline(check, "%s: %s shapes differ", check->name, what);
  return 1;
}

int gpu_check_constant_float(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                             const char *role, int64_t expected_count) {
  if (!gpu_tensor_is_constant(tensor))
    return gpu_decline(check, "%s with non-constant %s", check->name, role);
  int float_view = gpu_is_quantized_constant(tensor);
  if (tensor->dtype != TFLACCEL_DTYPE_FLOAT32 && !float_view)
    return gpu_decline(check, "%s %s is %s, expected float32 or a quantized constant",
                       check->name, role, dtype_name(tensor->dtype));
  if (expected_count >= 0 && gpu_tensor_element_count(tensor) != expected_count)
    return gpu_decline(check, "%s %s has %lld elements, expected %lld", check->name, role,
                       (long long)gpu_tensor_element_count(tensor), (long long)expected_count);
  if (!float_view && tensor->data_size < (uint64_t)gpu_tensor_element_count(tensor) * 4)
    return gpu_decline(check, "%s %s data is shorter than its shape", check->name, role);
  return 1;
}

static int has_quantized_tensor(const gpu_support_check *check) {
  const tflaccel_op_desc *op = check->op;
  for (uint32_t i = 0; i < op->input_count + op->output_count; ++i) {
    const tflaccel_tensor_desc *tensor = i < op->input_count
                                             ? gpu_op_input(check->graph, op, i)
                                             : gpu_op_output(check->graph, op, i - op->input_count);
    if (tensor != NULL && tensor->quantization.count > 0 &&
        tensor->dtype != TFLACCEL_DTYPE_FLOAT32)
      return 1;
  }
  return 0;
}

int gpu_check_float_view(const gpu_support_check *check) {
  if (!has_quantized_tensor(check)) return 1;
  switch (check->op->code) {
    /* UNIDIRECTIONAL_SEQUENCE_LSTM's and SVDF's builders say which integer
     * forms their float view takes (ops/sequence_lstm.c, ops/svdf.c). */
    case TFLACCEL_OP_LSTM:
    case TFLACCEL_OP_BIDIRECTIONAL_SEQUENCE_LSTM:
      return gpu_decline(check,
                         "quantized %s: its fixed-point gate arithmetic has no float view "
                         "that tracks the integer model",
                         check->name);
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS: {
      const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
      const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
      if (!gpu_same_quantization(input, output))
        return gpu_decline(check, "%s changes the quantization of the tensor it reshapes",
                           check->name);
      return 1;
    }
    default:
      return 1;
  }
}
