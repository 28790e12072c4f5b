/* Names and element sizes of tflaccel_dtype values (facts library). */
#ifndef TFLACCEL_CORE_FACTS_DTYPE_H
#define TFLACCEL_CORE_FACTS_DTYPE_H

#include <stddef.h>
#include <stdint.h>

/* "float32", "int8", ...; "unknown" for a value outside tflaccel_dtype. */
const char *dtype_name(int32_t dtype);
/* Bytes of one element; 0 for types without a fixed size (string, int4,
 * resource, variant) and for values outside tflaccel_dtype. */
size_t dtype_size(int32_t dtype);

#endif
