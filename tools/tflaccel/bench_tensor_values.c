#include "config.h"

#include <math.h>

#include "core/facts/half.h"
#include "tflaccel/types.h"
#include "tools/tflaccel/bench_tensor_values.h"

int tensor_dtype_is_numeric(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32:
  case TFLACCEL_DTYPE_FLOAT16:
  case TFLACCEL_DTYPE_FLOAT64:
  case TFLACCEL_DTYPE_INT8:
  case TFLACCEL_DTYPE_UINT8:
  case TFLACCEL_DTYPE_INT16:
  case TFLACCEL_DTYPE_UINT16:
  case TFLACCEL_DTYPE_INT32:
  case TFLACCEL_DTYPE_UINT32:
  case TFLACCEL_DTYPE_INT64:
  case TFLACCEL_DTYPE_UINT64:
  case TFLACCEL_DTYPE_BOOL: return 1;
  default: return 0;
  }
}

double tensor_value_at(const void *data, int32_t dtype, size_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return ((const float *)data)[index];
  case TFLACCEL_DTYPE_FLOAT16: return half_to_float(((const uint16_t *)data)[index]);
  case TFLACCEL_DTYPE_FLOAT64: return ((const double *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[index];
  case TFLACCEL_DTYPE_UINT16: return ((const uint16_t *)data)[index];
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[index];
  case TFLACCEL_DTYPE_UINT32: return ((const uint32_t *)data)[index];
  case TFLACCEL_DTYPE_INT64: return (double)((const int64_t *)data)[index];
  case TFLACCEL_DTYPE_UINT64: return (double)((const uint64_t *)data)[index];
  case TFLACCEL_DTYPE_BOOL: return ((const uint8_t *)data)[index] != 0;
  default: return NAN;
  }
}
