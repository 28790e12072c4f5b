/* The support rules several op families share (gpu_support_check.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "plugins/gpu_common/gpu_op_math.h"
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
  if (tensor->dtype != TFLACCEL_DTYPE_FLOAT32)
    return gpu_decline(check, "%s %s is %s, expected float32", check->name, role,
                       dtype_name(tensor->dtype));
  if (expected_count >= 0 && gpu_tensor_element_count(tensor) != expected_count)
    return gpu_decline(check, "%s %s has %lld elements, expected %lld", check->name, role,
                       (long long)gpu_tensor_element_count(tensor), (long long)expected_count);
  if (tensor->data_size < (uint64_t)gpu_tensor_element_count(tensor) * 4)
    return gpu_decline(check, "%s %s data is shorter than its shape", check->name, role);
  return 1;
}
