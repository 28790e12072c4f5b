/* Names and sizes of element types. */
#include "config.h"

#include "core/facts/dtype.h"
#include "tflaccel/types.h"

const char *dtype_name(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return "float32";
  case TFLACCEL_DTYPE_FLOAT16: return "float16";
  case TFLACCEL_DTYPE_INT32: return "int32";
  case TFLACCEL_DTYPE_UINT8: return "uint8";
  case TFLACCEL_DTYPE_INT64: return "int64";
  case TFLACCEL_DTYPE_STRING: return "string";
  case TFLACCEL_DTYPE_BOOL: return "bool";
  case TFLACCEL_DTYPE_INT16: return "int16";
  case TFLACCEL_DTYPE_COMPLEX64: return "complex64";
  case TFLACCEL_DTYPE_INT8: return "int8";
  case TFLACCEL_DTYPE_FLOAT64: return "float64";
  case TFLACCEL_DTYPE_COMPLEX128: return "complex128";
  case TFLACCEL_DTYPE_UINT64: return "uint64";
  case TFLACCEL_DTYPE_RESOURCE: return "resource";
  case TFLACCEL_DTYPE_VARIANT: return "variant";
  case TFLACCEL_DTYPE_UINT32: return "uint32";
  case TFLACCEL_DTYPE_UINT16: return "uint16";
  case TFLACCEL_DTYPE_INT4: return "int4";
  case TFLACCEL_DTYPE_BFLOAT16: return "bfloat16";
  }
  return "unknown";
}

size_t dtype_size(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: case TFLACCEL_DTYPE_INT32: case TFLACCEL_DTYPE_UINT32:
    return 4;
  case TFLACCEL_DTYPE_FLOAT16: case TFLACCEL_DTYPE_INT16: case TFLACCEL_DTYPE_UINT16:
  case TFLACCEL_DTYPE_BFLOAT16:
    return 2;
  case TFLACCEL_DTYPE_UINT8: case TFLACCEL_DTYPE_INT8: case TFLACCEL_DTYPE_BOOL:
    return 1;
  case TFLACCEL_DTYPE_INT64: case TFLACCEL_DTYPE_FLOAT64: case TFLACCEL_DTYPE_UINT64:
  case TFLACCEL_DTYPE_COMPLEX64:
    return 8;
  case TFLACCEL_DTYPE_COMPLEX128:
    return 16;
  }
  return 0;
}
