/* cpu_ref's quantized elementwise binary ops (ADD, SUB, MUL, MAXIMUM,
 * MINIMUM, SQUARED_DIFFERENCE on uint8/int8) against TensorFlow Lite's
 * integer arithmetic, bit for bit.
 *
 * The expected values come from an oracle written here from TFLite's rules
 * (kernels/add.cc, sub.cc, mul.cc, squared_difference.cc,
 * maximum_minimum.cc; internal/common.h and quantization_util.cc), in a form
 * of its own, not from the kernels' code:
 *   - a real multiplier m becomes (q, e) with m = q * 2^(e - 31), q in
 *     [2^30, 2^31), q rounded half away from zero, renormalized when it
 *     rounds to 2^31, flushed to (0, 0) below 2^-31;
 *   - SaturatingRoundingDoublingHighMul(a, b) is floor((a*b + 2^30) / 2^31)
 *     (its ties go up, for either sign), INT32_MIN * INT32_MIN saturating;
 *   - RoundingDivideByPOT(x, n) rounds x / 2^n half away from zero;
 *   - ADD: both inputs (x + offset) << 20 times s_i / (2 * max(s1, s2)), summed,
 *     times 2 * max(s1, s2) / (2^20 * s_out); SUB is ADD with the second
 *     multiplier negated (TFLite's op_sign); MUL multiplies the centred
 *     inputs and applies s1 * s2 / s_out (that product in float);
 *     SQUARED_DIFFERENCE is ADD's rescaling with 7 bits, the difference
 *     squared, times (2 * max)^2 / (2^14 * s_out); MAXIMUM/MINIMUM compare
 *     the stored integers;
 *   - the fused activation clamps to zp + round(f / s_out) (in float) within
 *     the dtype's range.
 * Every case runs all 256 x 256 input pairs (a [256,1] input broadcast
 * against a [1,256] one), so every tie and every saturation is met, with
 * scales that differ by factors up to 1000, zero points at both ends of the
 * range and each activation clamp; a few more cases check rank-4
 * broadcasting, equal shapes and a constant scalar. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu_ref/op_builder.h"
#include "tests/cpu_ref_quant/binary_cases.h"
#include "tflaccel/tflaccel.h"

/* ---- the oracle ---------------------------------------------------------- */

typedef struct oracle_multiplier {
  int64_t q;
  int exponent; /* m = q * 2^(exponent - 31) */
} oracle_multiplier;

static oracle_multiplier oracle_quantize(double m) {
  oracle_multiplier result = {0, 0};
  if (m == 0.0) return result;
  int exponent = 0;
  while (ldexp(m, -exponent) >= 1.0) exponent++;
  while (ldexp(m, -exponent) < 0.5) exponent--;
  int64_t q = llround(ldexp(m, 31 - exponent));
  if (q == (INT64_C(1) << 31)) {
    q >>= 1;
    exponent++;
  }
  if (exponent < -31) return result;
  result.q = q;
  result.exponent = exponent;
  return result;
}

static int64_t floor_div(int64_t a, int64_t b) {
  const int64_t quotient = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient;
}

static int64_t oracle_high_mul(int64_t a, int64_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return floor_div(a * b + (INT64_C(1) << 30), INT64_C(1) << 31);
}

static int64_t oracle_divide_pot(int64_t x, int n) {
  if (n == 0) return x;
  const int64_t magnitude = (llabs(x) + (INT64_C(1) << (n - 1))) >> n;
  return x < 0 ? -magnitude : magnitude;
}

/* x times the multiplier: left shifts before, right shifts after the high
 * multiply (TFLite's MultiplyByQuantizedMultiplier). */
static int64_t oracle_apply(int64_t x, oracle_multiplier m) {
  const int left = m.exponent > 0 ? m.exponent : 0;
  const int right = m.exponent > 0 ? 0 : -m.exponent;
  return oracle_divide_pot(oracle_high_mul(x * ((int64_t)1 << left), m.q), right);
}

typedef struct oracle {
  const binary_case *c;
  oracle_multiplier m1, m2, m_out;
  int left_shift;
  int64_t low, high;
} oracle;

static int64_t quantize_bound(float f, const binary_case *c) {
  return c->zp_out + (int64_t)roundf(f / c->s_out);
}

static void oracle_init(oracle *o, const binary_case *c) {
  memset(o, 0, sizeof *o);
  o->c = c;
  o->low = c->dtype == TFLACCEL_DTYPE_UINT8 ? 0 : -128;
  o->high = c->dtype == TFLACCEL_DTYPE_UINT8 ? 255 : 127;
  if (c->activation == ACT_RELU || c->activation == ACT_RELU6) {
    const int64_t zero = quantize_bound(0.0f, c);
    if (zero > o->low) o->low = zero;
  }
  if (c->activation == ACT_RELU6) {
    const int64_t six = quantize_bound(6.0f, c);
    if (six < o->high) o->high = six;
  }
  if (c->activation == ACT_RELU_N1_TO_1) {
    const int64_t minus_one = quantize_bound(-1.0f, c), one = quantize_bound(1.0f, c);
    if (minus_one > o->low) o->low = minus_one;
    if (one < o->high) o->high = one;
  }
  const double twice_max = 2.0 * (double)(c->s1 > c->s2 ? c->s1 : c->s2);
  switch (c->op) {
  case TFLACCEL_OP_ADD:
  case TFLACCEL_OP_SUB:
    o->left_shift = 20;
    o->m_out = oracle_quantize(twice_max / (1048576.0 * (double)c->s_out));
    break;
  case TFLACCEL_OP_SQUARED_DIFFERENCE:
    o->left_shift = 7;
    o->m_out = oracle_quantize(twice_max * twice_max / (16384.0 * (double)c->s_out));
    break;
  case TFLACCEL_OP_MUL: {
    const float product = c->s1 * c->s2 / c->s_out; /* in float, as TFLite */
    o->m_out = oracle_quantize((double)product);
    break;
  }
  default:
    break;
  }
  o->m1 = oracle_quantize((double)c->s1 / twice_max);
  o->m2 = oracle_quantize((double)c->s2 / twice_max);
  if (c->op == TFLACCEL_OP_SUB) o->m2.q = -o->m2.q;
}

static int64_t oracle_element(const oracle *o, int64_t x1, int64_t x2) {
  const binary_case *c = o->c;
  const int64_t a = x1 - c->zp1, b = x2 - c->zp2;
  int64_t value;
  switch (c->op) {
  case TFLACCEL_OP_ADD:
  case TFLACCEL_OP_SUB:
    value = oracle_apply(oracle_apply(a * ((int64_t)1 << o->left_shift), o->m1) +
                             oracle_apply(b * ((int64_t)1 << o->left_shift), o->m2),
                         o->m_out) +
            c->zp_out;
    break;
  case TFLACCEL_OP_SQUARED_DIFFERENCE: {
    const int64_t difference = oracle_apply(a * ((int64_t)1 << o->left_shift), o->m1) -
                               oracle_apply(b * ((int64_t)1 << o->left_shift), o->m2);
    value = oracle_apply(difference * difference, o->m_out) + c->zp_out;
    break;
  }
  case TFLACCEL_OP_MUL:
    value = oracle_apply(a * b, o->m_out) + c->zp_out;
    break;
  case TFLACCEL_OP_MAXIMUM:
    return x1 > x2 ? x1 : x2;
  case TFLACCEL_OP_MINIMUM:
    return x1 < x2 ? x1 : x2;
  default:
    ck_abort_msg("no oracle for op %d", (int)c->op);
    return 0;
  }
  return value < o->low ? o->low : (value > o->high ? o->high : value);
}

/* ---- running cases through cpu_ref --------------------------------------- */

static int64_t stored_value(const void *data, int32_t dtype, size_t index) {
  return dtype == TFLACCEL_DTYPE_UINT8 ? ((const uint8_t *)data)[index]
                                       : ((const int8_t *)data)[index];
}

/* Output element `index` of a broadcast over right-aligned shapes of rank 4. */
static void broadcast_indices(const int32_t out[4], const int32_t in1[4], const int32_t in2[4],
                              size_t index, size_t *i1, size_t *i2) {
  size_t remaining = index, stride1 = 1, stride2 = 1;
  *i1 = *i2 = 0;
  for (int d = 3; d >= 0; d--) {
    const size_t coordinate = remaining % (size_t)out[d];
    remaining /= (size_t)out[d];
    if (in1[d] != 1) *i1 += coordinate * stride1;
    if (in2[d] != 1) *i2 += coordinate * stride2;
    stride1 *= (size_t)in1[d];
    stride2 *= (size_t)in2[d];
  }
}

static size_t shape_count(const int32_t shape[4]) {
  return (size_t)shape[0] * shape[1] * shape[2] * shape[3];
}

/* Runs case c on inputs of shapes in1/in2 (rank 4) with the given values
 * (the second a constant when constant2) and compares every element. */
static void run_case(const binary_case *c, const int32_t in1[4], const void *values1,
                     const int32_t in2[4], const void *values2, int constant2) {
  int32_t out_shape[4];
  for (int d = 0; d < 4; d++) out_shape[d] = in1[d] > in2[d] ? in1[d] : in2[d];
  test_graph g;
  tg_init(&g);
  uint32_t t1 = tg_input(&g, c->dtype, 4, in1, values1);
  uint32_t t2 = constant2 ? tg_const(&g, c->dtype, 4, in2, values2)
                          : tg_input(&g, c->dtype, 4, in2, values2);
  uint32_t out = tg_tensor(&g, c->dtype, 4, out_shape);
  tg_quantize(&g, t1, c->s1, c->zp1);
  tg_quantize(&g, t2, c->s2, c->zp2);
  tg_quantize(&g, out, c->s_out, c->zp_out);
  tflaccel_op_params *params = tg_op(&g, c->op, 2, (uint32_t[]){t1, t2}, 1, &out);
  if (c->op == TFLACCEL_OP_ADD || c->op == TFLACCEL_OP_SUB || c->op == TFLACCEL_OP_MUL)
    params->arithmetic.fused_activation = c->activation;
  char reason[TFLACCEL_REASON_SIZE] = "";
  ck_assert_msg(tg_supported(&g, 0, reason), "%s: declined: %s", c->name, reason);
  tg_run_ok(&g, 2);
  const void *result = tg_result(&g, out);
  oracle o;
  oracle_init(&o, c);
  const size_t count = shape_count(out_shape);
  size_t mismatches = 0;
  for (size_t i = 0; i < count; i++) {
    size_t i1, i2;
    broadcast_indices(out_shape, in1, in2, i, &i1, &i2);
    const int64_t x1 = stored_value(values1, c->dtype, i1), x2 = stored_value(values2, c->dtype, i2);
    const int64_t expected = oracle_element(&o, x1, x2);
    const int64_t actual = stored_value(result, c->dtype, i);
    if (actual != expected && mismatches++ == 0)
      fprintf(stderr, "%s: element %zu (x1 %lld, x2 %lld): %lld, expected %lld\n", c->name, i,
              (long long)x1, (long long)x2, (long long)actual, (long long)expected);
  }
  ck_assert_msg(mismatches == 0, "%s: %zu of %zu elements differ from TFLite's arithmetic",
                c->name, mismatches, count);
  tg_free(&g);
}



/* All 256 x 256 pairs: input 1 [1,1,256,1] holds every value, input 2
 * [1,1,1,256] too, broadcast to [1,1,256,256]. */
START_TEST(every_input_pair) {
  const binary_case *c = &exhaustive_cases[_i];
  uint8_t values[256];
  for (int v = 0; v < 256; v++) values[v] = (uint8_t)v; /* int8: the same bytes */
  const int32_t column[4] = {1, 1, 256, 1}, row[4] = {1, 1, 1, 256};
  run_case(c, column, values, row, values, 0);
}
END_TEST

static void fill_values(uint8_t *values, size_t count, uint32_t seed) {
  uint32_t s = seed;
  for (size_t i = 0; i < count; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    values[i] = (uint8_t)(s >> 24);
  }
}

/* Rank-4 broadcasting both ways, equal shapes and a constant scalar. */
START_TEST(broadcast_shapes) {
  static const binary_case shaped_cases[] = {
      {"add u8 shapes", TFLACCEL_OP_ADD, U8, 0.03f, 0.011f, 0.05f, 120, 3, 131, ACT_RELU},
      {"sub i8 shapes", TFLACCEL_OP_SUB, I8, 0.02f, 0.2f, 0.1f, -7, 60, 2, ACT_NONE},
      {"mul u8 shapes", TFLACCEL_OP_MUL, U8, 0.02f, 0.03f, 0.02f, 128, 128, 128, ACT_RELU6},
      {"squared_difference i8 shapes", TFLACCEL_OP_SQUARED_DIFFERENCE, I8, 0.1f, 0.1f, 0.5f, 0, 0,
       -128, ACT_NONE},
      {"maximum u8 shapes", TFLACCEL_OP_MAXIMUM, U8, 0.1f, 0.1f, 0.1f, 0, 0, 0, ACT_NONE},
  };
  uint8_t a[120], b[120];
  fill_values(a, sizeof a, 1);
  fill_values(b, sizeof b, 2);
  const int32_t left[4] = {2, 1, 3, 1}, right[4] = {1, 4, 1, 5};
  const int32_t full[4] = {2, 3, 4, 5}, scalar[4] = {1, 1, 1, 1};
  for (size_t k = 0; k < sizeof shaped_cases / sizeof shaped_cases[0]; k++) {
    run_case(&shaped_cases[k], left, a, right, b, 0);
    run_case(&shaped_cases[k], full, a, full, b, 0);
    run_case(&shaped_cases[k], full, a, scalar, b, 1);
  }
}
END_TEST

/* SQUARED_DIFFERENCE takes int8 only, with a multiplier below one; the
 * reason says why. */
START_TEST(declines_what_tflite_refuses) {
  test_graph g;
  tg_init(&g);
  const int32_t dims[1] = {4};
  const uint8_t values[4] = {0, 1, 2, 3};
  uint32_t a = tg_input(&g, U8, 1, dims, values), b = tg_input(&g, U8, 1, dims, values);
  uint32_t out = tg_tensor(&g, U8, 1, dims);
  tg_quantize(&g, a, 0.1f, 0);
  tg_quantize(&g, b, 0.1f, 0);
  tg_quantize(&g, out, 0.1f, 0);
  tg_op(&g, TFLACCEL_OP_SQUARED_DIFFERENCE, 2, (uint32_t[]){a, b}, 1, &out);
  char reason[TFLACCEL_REASON_SIZE] = "";
  ck_assert_int_eq(tg_supported(&g, 0, reason), 0);
  ck_assert_str_eq(reason, "uint8 inputs are not supported (int8 only, as in TFLite)");
  tg_free(&g);

  tg_init(&g);
  a = tg_input(&g, I8, 1, dims, values);
  b = tg_input(&g, I8, 1, dims, values);
  out = tg_tensor(&g, I8, 1, dims);
  tg_quantize(&g, a, 1.0f, 0);
  tg_quantize(&g, b, 1.0f, 0);
  tg_quantize(&g, out, 0.0001f, 0); /* (2 * 1)^2 / (2^14 * 0.0001) >= 1 */
  tg_op(&g, TFLACCEL_OP_SQUARED_DIFFERENCE, 2, (uint32_t[]){a, b}, 1, &out);
  ck_assert_int_eq(tg_supported(&g, 0, reason), 0);
  ck_assert_msg(strstr(reason, "output scale too small") != NULL, "%s", reason);
  tg_free(&g);
}
END_TEST

/* The oracle itself on hand-worked values, so that a wrong oracle cannot
 * agree with a wrong kernel unnoticed. */
START_TEST(oracle_hand_values) {
  oracle_multiplier half = oracle_quantize(0.5);
  ck_assert_int_eq(half.q, INT64_C(1) << 30);
  ck_assert_int_eq(half.exponent, 0);
  oracle_multiplier almost_one = oracle_quantize(1.0 - ldexp(1.0, -40)); /* rounds to 2^31 */
  ck_assert_int_eq(almost_one.q, INT64_C(1) << 30);
  ck_assert_int_eq(almost_one.exponent, 1);
  ck_assert_int_eq(oracle_quantize(ldexp(1.0, -40)).q, 0); /* flushed */
  /* 3 * 2^30 / 2^31 = 1.5 -> 2; -1.5 -> -1 (ties up). */
  ck_assert_int_eq(oracle_high_mul(3, INT64_C(1) << 30), 2);
  ck_assert_int_eq(oracle_high_mul(-3, INT64_C(1) << 30), -1);
  ck_assert_int_eq(oracle_high_mul(INT32_MIN, INT32_MIN), INT32_MAX);
  /* 5 / 2 -> 3, -5 / 2 -> -3 (away from zero); 7 / 4 -> 2. */
  ck_assert_int_eq(oracle_divide_pot(5, 1), 3);
  ck_assert_int_eq(oracle_divide_pot(-5, 1), -3);
  ck_assert_int_eq(oracle_divide_pot(7, 2), 2);
  ck_assert_int_eq(oracle_divide_pot(-6, 2), -2);
  /* uint8 ADD, scales 0.5/0.5 -> 1.0: (1 + 2) * 0.5 = 1.5 rounds to 2. */
  oracle o;
  const binary_case add = {"hand", TFLACCEL_OP_ADD, U8, 0.5f, 0.5f, 1.0f, 0, 0, 0, ACT_NONE};
  oracle_init(&o, &add);
  ck_assert_int_eq(oracle_element(&o, 1, 2), 2);
  ck_assert_int_eq(oracle_element(&o, 255, 255), 255);
  ck_assert_int_eq(oracle_element(&o, 0, 1), 1); /* 0.5 -> 1 */
}
END_TEST

int main(void) {
  Suite *suite = suite_create("cpu_ref_quant_binary_exact");
  TCase *tc = tcase_create("binary");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, oracle_hand_values);
  tcase_add_loop_test(tc, every_input_pair, 0,
                      (int)BINARY_CASE_COUNT);
  tcase_add_test(tc, broadcast_shapes);
  tcase_add_test(tc, declines_what_tflite_refuses);
  suite_add_tcase(suite, tc);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
