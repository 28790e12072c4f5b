/* cpu_ref's fixed-point primitives against values worked out by hand from
 * TFLite 2.9's definitions (double rounding, ties away from zero, int32
 * wrap-around on left shifts, saturation of INT32_MIN * INT32_MIN) and from
 * ruy's x86 kernels (the same, with the last tie broken upward). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "tflaccel/ops.h"
#include "tflaccel/types.h"

START_TEST(quantize_multiplier_values) {
  int32_t multiplier = -1;
  int shift = -1;
  q_quantize_multiplier(0.5, &multiplier, &shift);
  ck_assert_int_eq(multiplier, 1 << 30);
  ck_assert_int_eq(shift, 0);
  q_quantize_multiplier(1.0, &multiplier, &shift);
  ck_assert_int_eq(multiplier, 1 << 30);
  ck_assert_int_eq(shift, 1);
  q_quantize_multiplier(0.75, &multiplier, &shift);
  ck_assert_int_eq(multiplier, 1610612736); /* 0.75 * 2^31 */
  ck_assert_int_eq(shift, 0);
  q_quantize_multiplier(0.1, &multiplier, &shift); /* 0.8 * 2^-3 */
  ck_assert_int_eq(multiplier, 1717986918);        /* round(0.8 * 2^31) */
  ck_assert_int_eq(shift, -3);
  q_quantize_multiplier(3.0, &multiplier, &shift); /* 0.75 * 2^2 */
  ck_assert_int_eq(multiplier, 1610612736);
  ck_assert_int_eq(shift, 2);
  /* A significand that rounds up to 1.0 is renormalized. */
  q_quantize_multiplier(1.0 - ldexp(1.0, -40), &multiplier, &shift);
  ck_assert_int_eq(multiplier, 1 << 30);
  ck_assert_int_eq(shift, 1);
  /* Zero, and multipliers below 2^-31, become (0, 0). */
  q_quantize_multiplier(0.0, &multiplier, &shift);
  ck_assert_int_eq(multiplier, 0);
  ck_assert_int_eq(shift, 0);
  q_quantize_multiplier(ldexp(1.0, -40), &multiplier, &shift);
  ck_assert_int_eq(multiplier, 0);
  ck_assert_int_eq(shift, 0);
}
END_TEST

/* Parameters no real model has must give a refusal and defined results,
 * never undefined behaviour (run under UBSan to see the latter). */
START_TEST(extreme_parameters_stay_defined) {
  int32_t multiplier = 7;
  int shift = 7;
  const double refused[] = {NAN, INFINITY, -INFINITY, -0.5, ldexp(1.0, 31), 1e38};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    ck_assert_int_eq(q_quantize_multiplier(refused[i], &multiplier, &shift), 0);
    ck_assert_int_eq(multiplier, 0);
    ck_assert_int_eq(shift, 0);
  }
  ck_assert_int_eq(q_quantize_multiplier(ldexp(1.0, 30), &multiplier, &shift), 1);
  ck_assert_int_eq(shift, 31);
  ck_assert_int_eq(q_quantize_multiplier(1e-45, &multiplier, &shift), 1); /* flushed to 0 */
  ck_assert_int_eq(multiplier, 0);
  /* Shifts beyond 31 bits either way are clamped. */
  (void)q_multiply_by_quantized_multiplier(123456, INT32_MAX, 141);
  (void)q_multiply_by_quantized_multiplier(-123456, INT32_MAX, -141);
  (void)q_multiply_by_quantized_multiplier_ties_up(123456, INT32_MAX, 61);
  (void)q_multiply_by_quantized_multiplier_ties_up(-123456, INT32_MAX, -61);
  ck_assert_int_eq(q_rounding_divide_by_pot(-7, 99), q_rounding_divide_by_pot(-7, 31));
  ck_assert_int_eq(q_saturate_i32(NAN), 0);
  ck_assert_int_eq(q_saturate_i32(1e30), INT32_MAX);
  ck_assert_int_eq(q_saturate_i32(-1e30), INT32_MIN);
  ck_assert_int_eq(q_saturate_i32(-2.5), -2);
  ck_assert_int_eq(q_offset_clamp(INT32_MAX, 100, -128, 127), 127);
  ck_assert_int_eq(q_offset_clamp(INT32_MIN, -100, -128, 127), -128);
  int32_t act_min, act_max;
  q_activation_range(TFLACCEL_ACT_RELU6, 1e-30f, 5, -128, 127, &act_min, &act_max);
  ck_assert_int_eq(act_min, 5);
  ck_assert_int_eq(act_max, 127);
}
END_TEST

START_TEST(doubling_high_mul) {
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MIN), INT32_MAX);
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MAX), -INT32_MAX);
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
  /* 1 * 0.5 = 0.5 rounds away from zero; -1 * 0.5 rounds to 0 with the
   * nudge 1 - 2^30 (gemmlowp's asymmetry). */
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(1, 1 << 30), 1);
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);
  ck_assert_int_eq(q_saturating_rounding_doubling_high_mul(1000, 1 << 30), 500);
}
END_TEST

START_TEST(rounding_divide_by_pot) {
  ck_assert_int_eq(q_rounding_divide_by_pot(5, 1), 3);   /* 2.5 -> 3 */
  ck_assert_int_eq(q_rounding_divide_by_pot(-5, 1), -3); /* -2.5 -> -3 */
  ck_assert_int_eq(q_rounding_divide_by_pot(4, 1), 2);
  ck_assert_int_eq(q_rounding_divide_by_pot(-4, 1), -2);
  ck_assert_int_eq(q_rounding_divide_by_pot(7, 2), 2);   /* 1.75 */
  ck_assert_int_eq(q_rounding_divide_by_pot(-6, 2), -2); /* -1.5 */
  ck_assert_int_eq(q_rounding_divide_by_pot(-5, 2), -1); /* -1.25 */
  ck_assert_int_eq(q_rounding_divide_by_pot(123, 0), 123);
  ck_assert_int_eq(q_rounding_divide_by_pot(INT32_MAX, 31), 1);
  ck_assert_int_eq(q_rounding_divide_by_pot(INT32_MIN, 31), -1);
}
END_TEST

START_TEST(multiply_by_quantized_multiplier) {
  const int32_t half = 1 << 30; /* 0.5 in Q0.31 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(100, half, -1), 25);  /* x * 0.25 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(-100, half, -1), -25);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(6, half, -1), 2);    /* 1.5 -> 2 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(-6, half, -1), -2);  /* -1.5 -> -2 */
  /* Double rounding: 5 * 0.25 = 1.25 gives 2 (2.5 after the first rounding),
   * where a single rounding would give 1. TFLite 2.9 computes 2. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(5, half, -1), 2);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(1000, half, 2), 2000); /* left shift */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(7, 1610612736, 0), 5); /* 5.25 */
  /* A left shift wraps in int32 like TFLite's x * (1 << shift). */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(1 << 30, half, 2), 0);
  /* Saturation inside the high multiply. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(INT32_MIN, INT32_MIN, 0), INT32_MAX);
  /* A zero multiplier (flushed tiny scale) gives 0. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(123456, 0, 0), 0);
}
END_TEST

/* ruy's x86 form (TFLite's int8 CONV_2D / FULLY_CONNECTED): the same
 * double rounding, the final shift breaking ties upward. Worked by hand with
 * the multiplier 0.5 (2^30) and shift -1, i.e. x * 0.25. */
START_TEST(multiply_by_quantized_multiplier_ties_up) {
  const int32_t half = 1 << 30;
  /* -6 * 0.25 = -1.5: high multiply -3, then (-3 + 1) >> 1 = -1; the
   * ties-away form gives -2. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-6, half, -1), -1);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(-6, half, -1), -2);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-10, half, -1), -2); /* -2.5 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(-10, half, -1), -3);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-2, half, -1), 0); /* -0.5 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(-2, half, -1), -1);
  /* Positive ties and non-ties agree with the ties-away form. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(6, half, -1), 2);   /* 1.5 */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-24, half, -1), -6);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(7, half, -1), 2);   /* 1.75 */
  /* Still double rounding: 5 * 0.25 = 1.25 -> 2.5 -> 2 (one rounding: 1);
   * -5 * 0.25 = -1.25 -> -2.5 -> -2 (tie upward) -> -1. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(5, half, -1), 2);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-5, half, -1), -1);
  /* Left shift (x * 2 * 0.5) and its int32 wrap-around. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(-3, half, 1), -3);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(1 << 30, half, 2), 0);
  /* Largest shift: INT32_MIN * 0.5 / 2^31 = -0.5 rounds up to 0 (ties-away:
   * -1). */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(INT32_MIN, half, -31), 0);
  ck_assert_int_eq(q_multiply_by_quantized_multiplier(INT32_MIN, half, -31), -1);
  /* No overflow when high + nudge passes INT32_MAX: 2147483646 + 2 >> 2. */
  ck_assert_int_eq(q_multiply_by_quantized_multiplier_ties_up(INT32_MAX, INT32_MAX, -2),
                   536870912);
  /* Which form each matrix-multiply dtype takes. */
  ck_assert(q_gemm_requantizer(TFLACCEL_DTYPE_INT8) == q_multiply_by_quantized_multiplier_ties_up);
  ck_assert(q_gemm_requantizer(TFLACCEL_DTYPE_UINT8) == q_multiply_by_quantized_multiplier);
}
END_TEST

START_TEST(activation_ranges) {
  int32_t low = 0, high = 0;
  q_activation_range(TFLACCEL_ACT_NONE, 0.1f, -128, -128, 127, &low, &high);
  ck_assert_int_eq(low, -128);
  ck_assert_int_eq(high, 127);
  q_activation_range(TFLACCEL_ACT_RELU6, 0.1f, -128, -128, 127, &low, &high);
  ck_assert_int_eq(low, -128);
  ck_assert_int_eq(high, -68); /* -128 + round(6 / 0.1) */
  q_activation_range(TFLACCEL_ACT_RELU, 0.05f, 10, 0, 255, &low, &high);
  ck_assert_int_eq(low, 10);
  ck_assert_int_eq(high, 255);
  q_activation_range(TFLACCEL_ACT_RELU_N1_TO_1, 0.5f, 0, -128, 127, &low, &high);
  ck_assert_int_eq(low, -2);
  ck_assert_int_eq(high, 2);
  /* Clamped to the dtype when the activation reaches beyond it. */
  q_activation_range(TFLACCEL_ACT_RELU6, 0.01f, 100, 0, 255, &low, &high);
  ck_assert_int_eq(low, 100);
  ck_assert_int_eq(high, 255);
}
END_TEST

START_TEST(checked_log2) {
  int log2_value = 0;
  ck_assert_int_eq(q_checked_log2(1.0f / 4096.0f, &log2_value), 1);
  ck_assert_int_eq(log2_value, -12);
  ck_assert_int_eq(q_checked_log2(0.000488281f, &log2_value), 1);
  ck_assert_int_eq(log2_value, -11);
  ck_assert_int_eq(q_checked_log2(0.003f, &log2_value), 0);
}
END_TEST

/* gemmlowp's int16 logistic (Q3.12 -> Q0.15): fixed points, symmetry, and
 * closeness to the real function. */
START_TEST(logistic_int16) {
  ck_assert_int_eq(q_logistic_q3_12(0), 16384);
  ck_assert_int_ge(q_logistic_q3_12(INT16_MAX), 32700);
  ck_assert_int_le(q_logistic_q3_12(INT16_MIN), 20);
  int16_t previous = q_logistic_q3_12(INT16_MIN);
  for (int32_t x = INT16_MIN; x <= INT16_MAX; x += 7) {
    const int16_t value = q_logistic_q3_12((int16_t)x);
    /* gemmlowp's int16 approximation is monotonic to within a few units */
    ck_assert_int_ge(value, previous - 8);
    previous = value;
    const double expected = 32768.0 / (1.0 + exp(-x / 4096.0));
    ck_assert_msg(fabs(value - expected) <= 10.0, "logistic(%d) = %d, expected %.1f", x, value,
                  expected);
    if (x > INT16_MIN) /* sigma(-x) = 1 - sigma(x), within a unit */
      ck_assert_int_le(abs(q_logistic_q3_12((int16_t)-x) + value - 32767), 1);
  }
}
END_TEST

START_TEST(tanh_int16) {
  for (int bits = 0; bits <= 6; bits++) {
    ck_assert_int_eq(q_tanh_int16(0, bits), 0);
    for (int32_t x = INT16_MIN + 1; x <= INT16_MAX; x += 13) {
      const int16_t value = q_tanh_int16((int16_t)x, bits);
      ck_assert_int_eq(q_tanh_int16((int16_t)-x, bits), -value); /* odd */
      const double expected = tanh(x / (double)(1 << (15 - bits))) * 32768.0;
      ck_assert_msg(fabs(value - expected) <= 16.0, "tanh(%d) with %d integer bits = %d, expected %.1f",
                    x, bits, value, expected);
    }
  }
}
END_TEST

static Suite *fixed_point_suite(void) {
  Suite *suite = suite_create("cpu_ref_quant_fixed_point");
  TCase *tc = tcase_create("fixed_point");
  tcase_add_test(tc, quantize_multiplier_values);
  tcase_add_test(tc, extreme_parameters_stay_defined);
  tcase_add_test(tc, doubling_high_mul);
  tcase_add_test(tc, rounding_divide_by_pot);
  tcase_add_test(tc, multiply_by_quantized_multiplier);
  tcase_add_test(tc, multiply_by_quantized_multiplier_ties_up);
  tcase_add_test(tc, activation_ranges);
  tcase_add_test(tc, checked_log2);
  tcase_add_test(tc, logistic_int16);
  tcase_add_test(tc, tanh_int16);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(fixed_point_suite());
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
