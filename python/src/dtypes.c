/* tflaccel dtypes (TFLite's TensorType values) as numpy types. */
#include "binding.h"

int binding_numpy_type(int32_t dtype) {
  switch (dtype) {
    case TFLACCEL_DTYPE_FLOAT32: return NPY_FLOAT32;
    case TFLACCEL_DTYPE_FLOAT16: return NPY_FLOAT16;
    case TFLACCEL_DTYPE_INT32: return NPY_INT32;
    case TFLACCEL_DTYPE_UINT8: return NPY_UINT8;
    case TFLACCEL_DTYPE_INT64: return NPY_INT64;
    case TFLACCEL_DTYPE_BOOL: return NPY_BOOL;
    case TFLACCEL_DTYPE_INT16: return NPY_INT16;
    case TFLACCEL_DTYPE_COMPLEX64: return NPY_COMPLEX64;
    case TFLACCEL_DTYPE_INT8: return NPY_INT8;
    case TFLACCEL_DTYPE_FLOAT64: return NPY_FLOAT64;
    case TFLACCEL_DTYPE_COMPLEX128: return NPY_COMPLEX128;
    case TFLACCEL_DTYPE_UINT64: return NPY_UINT64;
    case TFLACCEL_DTYPE_UINT32: return NPY_UINT32;
    case TFLACCEL_DTYPE_UINT16: return NPY_UINT16;
    default: return -1;
  }
}
