/* tflaccel element types, shared by the public API and the accelerator ABI. */
#ifndef TFLACCEL_TYPES_H
#define TFLACCEL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values are TFLite's TensorType values, so a dtype read from a model file
 * needs no translation. Never renumbered. */
typedef enum tflaccel_dtype {
  TFLACCEL_DTYPE_FLOAT32 = 0,
  TFLACCEL_DTYPE_FLOAT16 = 1,
  TFLACCEL_DTYPE_INT32 = 2,
  TFLACCEL_DTYPE_UINT8 = 3,
  TFLACCEL_DTYPE_INT64 = 4,
  TFLACCEL_DTYPE_STRING = 5,
  TFLACCEL_DTYPE_BOOL = 6,
  TFLACCEL_DTYPE_INT16 = 7,
  TFLACCEL_DTYPE_COMPLEX64 = 8,
  TFLACCEL_DTYPE_INT8 = 9,
  TFLACCEL_DTYPE_FLOAT64 = 10,
  TFLACCEL_DTYPE_COMPLEX128 = 11,
  TFLACCEL_DTYPE_UINT64 = 12,
  TFLACCEL_DTYPE_RESOURCE = 13,
  TFLACCEL_DTYPE_VARIANT = 14,
  TFLACCEL_DTYPE_UINT32 = 15,
  TFLACCEL_DTYPE_UINT16 = 16,
  TFLACCEL_DTYPE_INT4 = 17,
  TFLACCEL_DTYPE_BFLOAT16 = 18,
} tflaccel_dtype;

#define TFLACCEL_DTYPE_COUNT 19

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_TYPES_H */
