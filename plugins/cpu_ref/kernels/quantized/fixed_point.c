#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"

#include <math.h>

#include "tflaccel/ops.h"
#include "tflaccel/types.h"

int q_quantize_multiplier(double real_multiplier, int32_t *multiplier, int *shift) {
  *multiplier = 0;
  *shift = 0;
  if (real_multiplier == 0.0) return 1;
  if (!isfinite(real_multiplier) || real_multiplier < 0.0) return 0;
  int exponent = 0;
  const double significand = frexp(real_multiplier, &exponent);
  int64_t fixed = (int64_t)round(significand * (double)(INT64_C(1) << 31));
  if (fixed == (INT64_C(1) << 31)) { /* rounding reached 1.0: renormalize */
    fixed /= 2;
    exponent++;
  }
  if (exponent > 31) return 0; /* x << exponent would leave int32 */
  if (exponent < -31) return 1; /* every bit would shift out: flush to zero */
  *multiplier = (int32_t)fixed;
  *shift = exponent;
  return 1;
}

int32_t q_saturate_i32(double value) {
  if (value != value) return 0;
  if (value <= (double)INT32_MIN) return INT32_MIN;
  if (value >= (double)INT32_MAX) return INT32_MAX;
  return (int32_t)value;
}

int32_t q_offset_clamp(int32_t value, int32_t zero_point, int32_t low, int32_t high) {
  const int64_t sum = (int64_t)value + zero_point;
  return sum < low ? low : (sum > high ? high : (int32_t)sum);
}

static int clamp_shift(int shift) {
  return shift < -31 ? -31 : (shift > 31 ? 31 : shift);
}

int32_t q_saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t product = (int64_t)a * (int64_t)b;
  const int64_t nudge = product >= 0 ? (INT64_C(1) << 30) : (INT64_C(1) - (INT64_C(1) << 30));
  /* C division truncates toward zero, as gemmlowp's does. */
  return (int32_t)((product + nudge) / (INT64_C(1) << 31));
}

int32_t q_rounding_divide_by_pot(int32_t x, int exponent) {
  exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);
  const int32_t mask = (int32_t)((INT64_C(1) << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t q_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  shift = clamp_shift(shift);
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  /* TFLite computes x * (1 << left_shift) in int32 and lets it wrap. */
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  return q_rounding_divide_by_pot(q_saturating_rounding_doubling_high_mul(shifted, multiplier),
                                  right_shift);
}

int32_t q_multiply_by_quantized_multiplier_ties_up(int32_t x, int32_t multiplier, int shift) {
  shift = clamp_shift(shift);
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift); /* wraps, as ruy's does */
  const int32_t high = q_saturating_rounding_doubling_high_mul(shifted, multiplier);
  if (right_shift == 0) return high;
  /* In int64 so that high + nudge cannot overflow; >> floors. */
  return (int32_t)(((int64_t)high + (INT64_C(1) << (right_shift - 1))) >> right_shift);
}

q_requantize_fn q_gemm_requantizer(int32_t dtype) {
  return dtype == TFLACCEL_DTYPE_INT8 ? q_multiply_by_quantized_multiplier_ties_up
                                      : q_multiply_by_quantized_multiplier;
}

void q_activation_range(int32_t fused_activation, float output_scale, int32_t output_zero_point,
                        int32_t dtype_min, int32_t dtype_max, int32_t *act_min, int32_t *act_max) {
  /* zero_point + round(f / scale), the division and rounding in float;
   * saturating, so that extreme scales stay defined. */
#define Q_QUANTIZE_ACT(f) \
  q_offset_clamp(q_saturate_i32(roundf((f) / output_scale)), output_zero_point, dtype_min, dtype_max)
  int32_t low = dtype_min, high = dtype_max;
  switch (fused_activation) {
  case TFLACCEL_ACT_RELU:
    low = Q_QUANTIZE_ACT(0.0f);
    break;
  case TFLACCEL_ACT_RELU6:
    low = Q_QUANTIZE_ACT(0.0f);
    high = Q_QUANTIZE_ACT(6.0f);
    break;
  case TFLACCEL_ACT_RELU_N1_TO_1:
    low = Q_QUANTIZE_ACT(-1.0f);
    high = Q_QUANTIZE_ACT(1.0f);
    break;
  default:
    break;
  }
#undef Q_QUANTIZE_ACT
  *act_min = low;
  *act_max = high;
}

int q_checked_log2(float scale, int *log2_result) {
  const float x_log2 = logf(scale) * (1.0f / logf(2.0f));
  const float rounded = roundf(x_log2);
  const float fraction = x_log2 - rounded;
  *log2_result = q_saturate_i32(rounded); /* a NaN or 0 scale must not be UB */
  return fabsf(fraction) < 1e-3f;
}

/* ---- gemmlowp FixedPoint<int16_t, N> ------------------------------------
 * Raw values are int16; integer bits live in the caller's bookkeeping. Plain
 * additions wrap like gemmlowp's (int16 arithmetic converted back). */

static int16_t fx_wrap(int32_t value) {
  return (int16_t)(uint16_t)(uint32_t)value;
}

static int16_t fx_mul(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t product = (int32_t)a * (int32_t)b;
  const int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((product + nudge) / (1 << 15));
}

static int16_t fx_rounding_divide_by_pot(int16_t x, int exponent) {
  const int32_t mask = (1 << exponent) - 1;
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return fx_wrap((x >> exponent) + (remainder > threshold ? 1 : 0));
}

/* Saturating multiply by 2^exponent (left) or rounding divide (right). */
static int16_t fx_multiply_by_pot(int16_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return fx_rounding_divide_by_pot(x, -exponent);
  const int32_t threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return INT16_MAX;
  if (x < -threshold) return INT16_MIN;
  return fx_wrap(x * (1 << exponent));
}

/* A gemmlowp int32-raw constant scaled down to int16 (rounding shift by 16). */
static int16_t fx_constant(int32_t raw_int32) {
  return (int16_t)q_rounding_divide_by_pot(raw_int32, 16);
}

static int16_t fx_saturating_add(int16_t a, int16_t b) {
  return (int16_t)q_clamp_i32((int32_t)a + b, INT16_MIN, INT16_MAX);
}

static int16_t fx_one(int integer_bits) {
  return integer_bits == 0 ? INT16_MAX : (int16_t)(1 << (15 - integer_bits));
}

/* exp(x) for x in [-1/4, 0), Q0.15 in and out. */
static int16_t fx_exp_on_interval_near_zero(int16_t a) {
  const int16_t constant_term = fx_constant(1895147668);     /* exp(-1/8) */
  const int16_t constant_1_over_3 = fx_constant(715827883);  /* 1/3 */
  const int16_t x = fx_wrap(a + (1 << 12));                  /* a + 1/8 */
  const int16_t x2 = fx_mul(x, x);
  const int16_t x3 = fx_mul(x2, x);
  const int16_t x4 = fx_mul(x2, x2);
  const int16_t x4_over_4 = fx_multiply_by_pot(x4, -2);
  const int16_t sum = fx_multiply_by_pot(
      fx_wrap(fx_mul(fx_wrap(x4_over_4 + x3), constant_1_over_3) + x2), -1);
  return fx_saturating_add(constant_term, fx_mul(constant_term, fx_wrap(x + sum)));
}

/* exp(a) for a <= 0 in Q(integer_bits), result Q0.15. */
static int16_t fx_exp_on_negative_values(int16_t a, int integer_bits) {
  const int fractional_bits = 15 - integer_bits;
  const int16_t one_quarter = (int16_t)(1 << (fractional_bits - 2));
  const int16_t mask = (int16_t)(one_quarter - 1);
  const int16_t a_mod_quarter_minus_quarter = fx_wrap((a & mask) - one_quarter);
  int16_t result =
      fx_exp_on_interval_near_zero(fx_multiply_by_pot(a_mod_quarter_minus_quarter, integer_bits));
  const int16_t remainder = fx_wrap(a_mod_quarter_minus_quarter - a);

  /* exp(-2^k) for k = -2..4, as gemmlowp's Q0.31 constants. */
  static const int32_t barrel_multipliers[7] = {1672461947, 1302514674, 790015084, 290630308,
                                                39332535,   720401,     242};
  for (int exponent = -2; exponent <= 4; exponent++) {
    if (integer_bits > exponent) {
      const int shift_amount = fractional_bits + exponent;
      if (remainder & (1 << shift_amount))
        result = fx_mul(result, fx_constant(barrel_multipliers[exponent + 2]));
    }
  }
  if (integer_bits > 5) { /* below -32 the result is 0 */
    const int16_t clamp = fx_constant(-(1 << (36 - integer_bits)));
    if (a < clamp) result = 0;
  }
  if (a == 0) result = INT16_MAX;
  return result;
}

/* Newton-Raphson for 1 / (1 + a) over a in (0, 1), in Q2.13; returns the
 * last iterate x (Q2.13, x ~ 2 / (1 + a)). */
static int16_t fx_reciprocal_iterate(int16_t a) {
  const int32_t sum = (int32_t)a + INT16_MAX;
  const int16_t half_denominator = (int16_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
  const int16_t constant_48_over_17 = fx_constant(1515870810);
  const int16_t constant_neg_32_over_17 = fx_constant(-1010580540);
  const int16_t one_q2 = (int16_t)(1 << 13);
  int16_t x = fx_wrap(constant_48_over_17 + fx_mul(half_denominator, constant_neg_32_over_17));
  for (int i = 0; i < 3; i++) {
    const int16_t half_denominator_times_x = fx_mul(half_denominator, x);
    const int16_t one_minus = fx_wrap(one_q2 - half_denominator_times_x);
    /* x * one_minus is Q4.11; Rescale<2> shifts it left by 2. */
    x = fx_wrap(x + fx_multiply_by_pot(fx_mul(x, one_minus), 2));
  }
  return x;
}

static int16_t fx_one_over_one_plus_x(int16_t a) {
  /* ExactMulByPot<-1> turns Q2.13 into Q1.14; Rescale<0> shifts left by 1. */
  return fx_multiply_by_pot(fx_reciprocal_iterate(a), 1);
}

static int16_t fx_one_minus_x_over_one_plus_x(int16_t a) {
  const int16_t x = fx_reciprocal_iterate(a);
  return fx_multiply_by_pot(fx_wrap(x - (1 << 13)), 2);
}

int16_t q_logistic_q3_12(int16_t input) {
  const int integer_bits = 3;
  const int positive = input > 0;
  const int16_t abs_input = positive ? input : fx_wrap(-input);
  const int16_t result_if_positive =
      fx_one_over_one_plus_x(fx_exp_on_negative_values(fx_wrap(-abs_input), integer_bits));
  const int16_t result_if_negative = fx_wrap(fx_one(0) - result_if_positive);
  if (input == 0) return fx_constant(1 << 30); /* one half */
  return positive ? result_if_positive : result_if_negative;
}

int16_t q_tanh_int16(int16_t input, int integer_bits) {
  const int negative = input < 0;
  const int16_t n = negative ? input : fx_wrap(-input);
  /* exp(2n): the raw value read with one more integer bit. */
  const int16_t t = fx_one_minus_x_over_one_plus_x(fx_exp_on_negative_values(n, integer_bits + 1));
  if (input == 0) return 0;
  return negative ? fx_wrap(-t) : t;
}
