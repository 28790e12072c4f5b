/* Fixed-point arithmetic of TFLite's integer kernels (TFLite 2.9 forms).
 *
 * A real multiplier M is stored as a Q0.31 significand and a power-of-two
 * exponent: M = multiplier * 2^(shift - 31). TFLite 2.9 applies it with
 * "double rounding" (its default; TFLITE_SINGLE_ROUNDING unset): a saturating
 * rounding doubling high multiply, then a rounding right shift. (The
 * single-rounding form of later releases, one rounding of the 64-bit
 * product, differs by one unit on some ties; the 2.9 references need this.)
 * Its int8 matrix multiplies run in ruy, whose x86 kernels break the last
 * tie upward: see q_gemm_requantizer.
 * The int16 helpers mirror gemmlowp's FixedPoint<int16_t, N> functions that
 * TFLite's integer LSTM uses for its gate activations. */
#ifndef TFLACCEL_CPU_REF_QUANT_FIXED_POINT_H
#define TFLACCEL_CPU_REF_QUANT_FIXED_POINT_H

#include <stdint.h>

/* double -> (significand in [2^30, 2^31), exponent); 0 -> (0, 0); values
 * below 2^-31 flush to (0, 0), as TFLite does. Returns 0, with (0, 0), for a
 * multiplier no kernel can apply: not finite, negative, or 2^31 and above
 * (a shift past 31 bits). Load-time checks keep real models away from that;
 * the result stays defined whatever the parameters. */
int q_quantize_multiplier(double real_multiplier, int32_t *multiplier, int *shift);

/* value truncated to int32, saturating (NaN gives 0): converting a float
 * outside the int32 range is undefined behaviour, and extreme quantization
 * scales make such values. */
int32_t q_saturate_i32(double value);

/* zero_point + value, clamped to [low, high], without int32 overflow. */
int32_t q_offset_clamp(int32_t value, int32_t zero_point, int32_t low, int32_t high);

/* round(a * b / 2^31), saturating INT32_MIN * INT32_MIN to INT32_MAX. */
int32_t q_saturating_rounding_doubling_high_mul(int32_t a, int32_t b);

/* x / 2^exponent rounded to nearest, ties away from zero; exponent is
 * clamped to 0..31. */
int32_t q_rounding_divide_by_pot(int32_t x, int exponent);

/* TFLite's MultiplyByQuantizedMultiplier (double rounding). A positive shift
 * multiplies x by 2^shift first, wrapping like TFLite does. Shifts are
 * clamped to -31..31, the range q_quantize_multiplier produces. */
int32_t q_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift);

/* The same double rounding, but the final shift breaks ties upward (toward
 * +inf) instead of away from zero: (h + 2^(r-1)) >> r with h the rounding
 * doubling high multiply above. (That first step already breaks its ties
 * upward, for either sign.) This is what ruy's x86 SIMD kernels (AVX, AVX2,
 * AVX-512) compute; it differs from the form above by one unit when a
 * negative value sits exactly halfway. Same shift convention. */
int32_t q_multiply_by_quantized_multiplier_ties_up(int32_t x, int32_t multiplier, int shift);

/* Requantization of an int32 accumulator: one of the two functions above. */
typedef int32_t (*q_requantize_fn)(int32_t x, int32_t multiplier, int shift);

/* The requantization TFLite 2.9 on x86 (with AVX) applies to the
 * matrix-multiply ops, CONV_2D and FULLY_CONNECTED, of activation dtype
 * `dtype`: their accumulators go through cpu_backend_gemm, which sends int8
 * to ruy (ties upward) and uint8 to gemmlowp (ties away from zero, like the
 * reference kernels). DEPTHWISE_CONV_2D and the other ops requantize with
 * q_multiply_by_quantized_multiplier themselves. */
q_requantize_fn q_gemm_requantizer(int32_t dtype);

/* Activation clamp of a quantized output: [qmin, qmax] of the dtype narrowed
 * by the fused activation, computed like TFLite's
 * CalculateActivationRangeQuantized (round(f / scale) in float). */
void q_activation_range(int32_t fused_activation, float output_scale, int32_t output_zero_point,
                        int32_t dtype_min, int32_t dtype_max, int32_t *act_min, int32_t *act_max);

/* TFLite's CheckedLog2: 1 when scale is a power of two (within 1e-3 in the
 * exponent), with the rounded exponent in *log2_result. */
int q_checked_log2(float scale, int *log2_result);

/* gemmlowp FixedPoint<int16_t>: logistic of a Q3.12 input into Q0.15, and
 * tanh of a Q(integer_bits) input (0..6 integer bits) into Q0.15. */
int16_t q_logistic_q3_12(int16_t input);
int16_t q_tanh_int16(int16_t input, int integer_bits);

static inline int32_t q_clamp_i32(int32_t value, int32_t low, int32_t high) {
  return value < low ? low : (value > high ? high : value);
}

#endif
