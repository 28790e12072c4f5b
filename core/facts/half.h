/* IEEE 754 binary16 ("half") <-> float32 (facts library). */
#ifndef TFLACCEL_CORE_FACTS_HALF_H
#define TFLACCEL_CORE_FACTS_HALF_H

#include <stddef.h>
#include <stdint.h>

/* Exact: every half is a float. Subnormals, infinities and signed zeros map
 * to the same value; a NaN keeps its sign and payload (shifted into the
 * float's mantissa). */
float half_to_float(uint16_t half);

/* count halves stored little-endian at bytes (a .tflite buffer, any
 * alignment) into floats, each as half_to_float: the model loader's fold
 * of FLOAT16 weights, without a call per normal half. */
void half_to_float_array(const unsigned char *bytes, size_t count, float *values);

/* Rounds to the nearest half, ties to even, like a hardware conversion:
 * magnitudes from 65520 up become infinity, those at or below 2^-25 become
 * zero (keeping the sign), results below 2^-14 are subnormal. Every NaN
 * becomes the quiet NaN 0x7E00 with its sign (the payload is dropped). */
uint16_t half_from_float(float value);

#endif
