/* Reading any numeric tensor element as a double, for comparing outputs. */
#ifndef TFLACCEL_TOOLS_BENCH_TENSOR_VALUES_H
#define TFLACCEL_TOOLS_BENCH_TENSOR_VALUES_H

#include <stddef.h>
#include <stdint.h>

/* 1 when tensor_value_at can read dtype. */
int tensor_dtype_is_numeric(int32_t dtype);
/* Element index of data, an array of dtype; NaN for a dtype that is not
 * numeric. 64-bit integers beyond 2^53 lose their low bits. */
double tensor_value_at(const void *data, int32_t dtype, size_t index);

#endif
