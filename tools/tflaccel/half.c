#include "config.h"

#include <math.h>
#include <string.h>

#include "tools/tflaccel/half.h"

float half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half >> 15) << 31;
  uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  float value;
  if (exponent == 0) {
    value = ldexpf((float)mantissa, -24); /* subnormal or zero */
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = ldexpf((float)(mantissa | 0x400u), (int)exponent - 25);
  }
  return sign ? -value : value;
}

uint16_t half_from_float(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  if (isnan(value)) return (uint16_t)(sign | 0x7E00u);
  float magnitude = fabsf(value);
  if (magnitude >= 65520.0f) return (uint16_t)(sign | 0x7C00u);
  if (magnitude < ldexpf(1.0f, -25)) return sign;
  int exponent;
  frexpf(magnitude, &exponent); /* magnitude = m * 2^exponent, m in [0.5, 1) */
  int half_exponent = exponent - 1 + 15;
  if (half_exponent <= 0) {
    /* Subnormal: units of 2^-24, round to nearest even. */
    float units = magnitude * 16777216.0f;
    return (uint16_t)(sign | (uint16_t)lrintf(units));
  }
  float scaled = ldexpf(magnitude, 10 - (exponent - 1)); /* in [1024, 2048) */
  long rounded = lrintf(scaled);
  if (rounded == 2048) {
    rounded = 1024;
    ++half_exponent;
  }
  if (half_exponent >= 31) return (uint16_t)(sign | 0x7C00u);
  return (uint16_t)(sign | (uint16_t)(half_exponent << 10) | (uint16_t)(rounded - 1024));
}
