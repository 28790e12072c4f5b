/* Host tensor buffers handed to tflaccel_compiled_model_run. */
#ifndef TFLACCEL_CORE_RUNTIME_TENSOR_BUFFER_H
#define TFLACCEL_CORE_RUNTIME_TENSOR_BUFFER_H

#include "tflaccel/tflaccel.h"

#define TENSOR_BUFFER_MAX_RANK 8

struct tflaccel_tensor_buffer {
  int32_t dtype;
  uint32_t rank;
  int32_t shape[TENSOR_BUFFER_MAX_RANK];
  size_t byte_size;
  void *data; /* 64-byte aligned when owned */
  int owns_data; /* 0: the caller's memory (tflaccel_tensor_buffer_wrap_host) */
};

#endif
