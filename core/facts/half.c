/* Half <-> float on the bit patterns, so no rounding mode or libm is
 * involved and every result is the same on every machine. */
#include "config.h"

#include <string.h>

#include "core/facts/half.h"

float half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13); /* infinity or NaN */
  } else if (exponent != 0) {
    bits = sign | ((exponent + 127u - 15u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign; /* signed zero */
  } else {
    /* Subnormal: shift the mantissa up until its leading 1 is implicit. */
    uint32_t shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((127u - 15u + 1u - shift) << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

void half_to_float_array(const unsigned char *bytes, size_t count, float *values) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t half = (uint32_t)bytes[2 * i] | (uint32_t)bytes[2 * i + 1] << 8;
    uint32_t exponent = half & 0x7C00u;
    if (exponent == 0 || exponent == 0x7C00u) {
      values[i] = half_to_float((uint16_t)half); /* zero, subnormal, infinity, NaN */
      continue;
    }
    /* A normal half: its exponent and mantissa move up 13 bits and the
     * exponent's bias grows from 15 to 127. */
    uint32_t bits = (half & 0x8000u) << 16 | (((half & 0x7FFFu) << 13) + ((127u - 15u) << 23));
    memcpy(&values[i], &bits, sizeof bits);
  }
}

uint16_t half_from_float(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t exponent = (bits >> 23) & 0xFFu;
  uint32_t mantissa = bits & 0x7FFFFFu;
  if (exponent == 0xFFu) /* infinity, or NaN: the one quiet NaN */
    return (uint16_t)(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
  int32_t half_exponent = (int32_t)exponent - 127 + 15;
  if (half_exponent >= 0x1F) return (uint16_t)(sign | 0x7C00u);
  if (half_exponent <= 0) {
    /* Subnormal half (or zero): the float's implicit 1 joins the mantissa,
     * which is shifted right by 14 - half_exponent and rounded. */
    if (half_exponent < -10) return sign; /* at most 2^-25: rounds to zero */
    mantissa |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - half_exponent);
    uint32_t half_mantissa = mantissa >> shift;
    uint32_t remainder = mantissa & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1u);
    if (remainder > halfway || (remainder == halfway && (half_mantissa & 1u))) ++half_mantissa;
    return (uint16_t)(sign | half_mantissa); /* a carry makes the smallest normal */
  }
  uint32_t half = ((uint32_t)half_exponent << 10) | (mantissa >> 13);
  uint32_t remainder = mantissa & 0x1FFFu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u))) ++half; /* may carry to inf */
  return (uint16_t)(sign | half);
}
