/* The facts library (core/facts/), linked on its own: half <-> float over
 * every half, TFLite window geometry, op and dtype names, axis ranges, and
 * what each returns for arguments outside its range. */
#include "config.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/axis.h"
#include "core/facts/buffer_type.h"
#include "core/facts/conv_geometry.h"
#include "core/facts/dtype.h"
#include "core/facts/half.h"
#include "core/facts/op_names.h"
#include "tflaccel/ops.h"
#include "tflaccel/types.h"

/* ---- half <-> float --------------------------------------------------------- */

/* The value of a finite half, from the IEEE definition, in double. */
static double half_value(uint16_t half) {
  int exponent = (half >> 10) & 0x1F;
  int mantissa = half & 0x3FF;
  double magnitude = exponent == 0 ? ldexp(mantissa, -24) : ldexp(1024 + mantissa, exponent - 25);
  return (half & 0x8000) ? -magnitude : magnitude;
}

static uint32_t float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

START_TEST(every_half_converts_exactly_and_back) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    uint16_t half = (uint16_t)h;
    float value = half_to_float(half);
    int exponent = (half >> 10) & 0x1F, mantissa = half & 0x3FF;
    int negative = (half & 0x8000) != 0;
    ck_assert_int_eq(signbit(value) != 0, negative);
    if (exponent == 0x1F && mantissa != 0) {
      ck_assert_msg(isnan(value), "half 0x%04x should be NaN", h);
      /* The payload moves into the float's mantissa. */
      ck_assert_uint_eq(float_bits(value) & 0x7FFFFFu, (uint32_t)mantissa << 13);
      ck_assert_uint_eq(half_from_float(value), negative ? 0xFE00u : 0x7E00u);
      continue;
    }
    if (exponent == 0x1F) {
      ck_assert_msg(isinf(value), "half 0x%04x should be infinite", h);
    } else {
      ck_assert_msg((double)value == half_value(half), "half 0x%04x: %.9g, expected %.9g", h,
                    (double)value, half_value(half));
    }
    ck_assert_msg(half_from_float(value) == half, "half 0x%04x -> %.9g -> 0x%04x", h,
                  (double)value, half_from_float(value));
  }
}
END_TEST

/* Halfway between two neighbours rounds to the even one; a float step
 * either side of halfway rounds to the nearer one. Covers subnormals, the
 * subnormal/normal border and every binade. */
/* The loader's array conversion gives every half's bits as half_to_float
 * does, from little-endian bytes at an odd address too. */
START_TEST(half_array_matches_half_to_float) {
  static unsigned char bytes[1 + 2 * 65536];
  static float values[65536];
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    bytes[1 + 2 * h] = (unsigned char)(h & 0xFF);
    bytes[2 + 2 * h] = (unsigned char)(h >> 8);
  }
  half_to_float_array(bytes + 1, 65536, values);
  for (uint32_t h = 0; h <= 0xFFFF; ++h)
    ck_assert_msg(float_bits(values[h]) == float_bits(half_to_float((uint16_t)h)),
                  "half 0x%04x: bits 0x%08x, expected 0x%08x", h, float_bits(values[h]),
                  float_bits(half_to_float((uint16_t)h)));
}
END_TEST

START_TEST(ties_round_to_even) {
  for (uint16_t half = 0; half < 0x7BFF; ++half) {
    double low = half_value(half), high = half_value((uint16_t)(half + 1));
    float middle = (float)((low + high) / 2); /* 12 significant bits: exact */
    ck_assert((double)middle == (low + high) / 2);
    uint16_t even = (half & 1) ? (uint16_t)(half + 1) : half;
    ck_assert_msg(half_from_float(middle) == even, "midpoint above 0x%04x", half);
    ck_assert_uint_eq(half_from_float(nextafterf(middle, 0.0f)), half);
    ck_assert_uint_eq(half_from_float(nextafterf(middle, INFINITY)), half + 1);
    ck_assert_uint_eq(half_from_float(-middle), 0x8000u | even);
  }
}
END_TEST

START_TEST(half_edges) {
  /* The largest half is 65504; 65520 is halfway to the next binade. */
  ck_assert_uint_eq(half_from_float(65504.0f), 0x7BFF);
  ck_assert_uint_eq(half_from_float(nextafterf(65520.0f, 0.0f)), 0x7BFF);
  ck_assert_uint_eq(half_from_float(65520.0f), 0x7C00);
  ck_assert_uint_eq(half_from_float(1e10f), 0x7C00);
  ck_assert_uint_eq(half_from_float(FLT_MAX), 0x7C00);
  ck_assert_uint_eq(half_from_float(-INFINITY), 0xFC00);
  ck_assert_uint_eq(half_from_float(NAN), 0x7E00);
  ck_assert_uint_eq(half_from_float(-NAN), 0xFE00);
  ck_assert_uint_eq(half_from_float(0.0f), 0x0000);
  ck_assert_uint_eq(half_from_float(-0.0f), 0x8000);
  /* 2^-24 is the smallest subnormal; 2^-25, halfway to zero, rounds to it (even). */
  ck_assert_uint_eq(half_from_float(ldexpf(1.0f, -24)), 0x0001);
  ck_assert_uint_eq(half_from_float(ldexpf(1.0f, -25)), 0x0000);
  ck_assert_uint_eq(half_from_float(nextafterf(ldexpf(1.0f, -25), 1.0f)), 0x0001);
  ck_assert_uint_eq(half_from_float(-ldexpf(1.0f, -26)), 0x8000);
  ck_assert_uint_eq(half_from_float(FLT_TRUE_MIN), 0x0000);
  /* The largest subnormal rounds up into the smallest normal. */
  ck_assert_uint_eq(half_from_float(ldexpf(1.0f, -14) - ldexpf(1.0f, -26)), 0x0400);
  ck_assert_uint_eq(half_from_float(1.0f), 0x3C00);
  ck_assert_uint_eq(half_from_float(-2.0f), 0xC000);
  ck_assert_uint_eq(half_from_float(0.1f), 0x2E66);
  ck_assert(half_to_float(0x3555) == 0x1.554p-2f);
}
END_TEST

/* ---- window geometry ------------------------------------------------------ */

enum { SAME = TFLACCEL_PADDING_SAME, VALID = TFLACCEL_PADDING_VALID };

START_TEST(conv_output_sizes) {
  /* MobileNet's first layer: 224, 3x3, stride 2. */
  ck_assert_int_eq(conv_output_size(SAME, 224, 3, 2, 1), 112);
  ck_assert_int_eq(conv_output_size(VALID, 224, 3, 2, 1), 111);
  /* SAME rounds up and ignores the filter. */
  ck_assert_int_eq(conv_output_size(SAME, 7, 3, 2, 1), 4);
  ck_assert_int_eq(conv_output_size(SAME, 5, 7, 1, 1), 5);
  ck_assert_int_eq(conv_output_size(SAME, 5, 3, 1, 4), 5);
  /* VALID: positions where the dilated filter fits whole. */
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 3, 1), 3);
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 1, 2), 6);  /* dilated filter spans 5 */
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 2, 2), 3);
  ck_assert_int_eq(conv_output_size(VALID, 5, 3, 1, 2), 1);   /* fits exactly once */
  ck_assert_int_eq(conv_output_size(VALID, 4, 3, 1, 2), 0);   /* does not fit */
  ck_assert_int_eq(conv_output_size(VALID, 1, 1, 5, 1), 1);
  /* A pooling window the size of the input (global pooling). */
  ck_assert_int_eq(conv_output_size(VALID, 7, 7, 2, 1), 1);
  /* An empty axis has no outputs. */
  ck_assert_int_eq(conv_output_size(SAME, 0, 3, 1, 1), 0);
  ck_assert_int_eq(conv_output_size(VALID, 0, 3, 1, 1), 0);
  /* Extremes neither overflow nor wrap. */
  ck_assert_int_eq(conv_output_size(SAME, INT32_MAX, 3, 1, 1), INT32_MAX);
  ck_assert_int_eq(conv_output_size(SAME, INT32_MAX, 3, INT32_MAX, 1), 1);
  ck_assert_int_eq(conv_output_size(VALID, INT32_MAX, INT32_MAX, 1, INT32_MAX), 0);
  ck_assert_int_eq(conv_output_size(VALID, INT32_MAX, INT32_MAX, 1, 1), 1);
}
END_TEST

START_TEST(conv_output_size_refuses_invalid_arguments) {
  ck_assert_int_eq(conv_output_size(7, 10, 3, 1, 1), -1);
  ck_assert_int_eq(conv_output_size(-1, 10, 3, 1, 1), -1);
  ck_assert_int_eq(conv_output_size(SAME, -1, 3, 1, 1), -1);
  ck_assert_int_eq(conv_output_size(VALID, 10, 0, 1, 1), -1);
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 0, 1), -1);
  ck_assert_int_eq(conv_output_size(SAME, 10, 3, -2, 1), -1);
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 1, 0), -1);
  ck_assert_int_eq(conv_output_size(VALID, 10, 3, 1, INT32_MIN), -1);
}
END_TEST

START_TEST(conv_padding) {
  /* 224 -> 112 with 3x3 stride 2: one input short, which goes after. */
  ck_assert_int_eq(conv_padding_before(224, 112, 3, 2, 1), 0);
  ck_assert_int_eq(conv_padding_before(7, 4, 3, 2, 1), 1);
  ck_assert_int_eq(conv_padding_before(5, 5, 3, 1, 1), 1);
  ck_assert_int_eq(conv_padding_before(5, 5, 5, 1, 1), 2);
  ck_assert_int_eq(conv_padding_before(6, 3, 3, 2, 1), 0);
  ck_assert_int_eq(conv_padding_before(10, 10, 3, 1, 2), 2);  /* dilated filter spans 5 */
  ck_assert_int_eq(conv_padding_before(10, 10, 3, 1, 4), 4);
  /* VALID sizes need none. */
  ck_assert_int_eq(conv_padding_before(224, 111, 3, 2, 1), 0);
  ck_assert_int_eq(conv_padding_before(10, 6, 3, 1, 2), 0);
  ck_assert_int_eq(conv_padding_before(10, 0, 3, 1, 1), 0);
  /* Invalid, and a total beyond int32. */
  ck_assert_int_eq(conv_padding_before(-1, 4, 3, 1, 1), -1);
  ck_assert_int_eq(conv_padding_before(4, -1, 3, 1, 1), -1);
  ck_assert_int_eq(conv_padding_before(4, 4, 0, 1, 1), -1);
  ck_assert_int_eq(conv_padding_before(4, 4, 3, 0, 1), -1);
  ck_assert_int_eq(conv_padding_before(4, 4, 3, 1, 0), -1);
  ck_assert_int_eq(conv_padding_before(0, INT32_MAX, 3, INT32_MAX, 1), -1);
}
END_TEST

START_TEST(transpose_conv_geometry) {
  /* TRANSPOSE_CONV: padding of the forward conv from the output size. */
  ck_assert_int_eq(transpose_conv_padding_before(SAME, 8, 3, 2), 0);
  ck_assert_int_eq(transpose_conv_padding_before(SAME, 7, 3, 2), 1);
  ck_assert_int_eq(transpose_conv_padding_before(SAME, 16, 4, 2), 1);
  ck_assert_int_eq(transpose_conv_padding_before(VALID, 8, 3, 2), 0);
  ck_assert_int_eq(transpose_conv_padding_before(3, 8, 3, 2), -1);
  ck_assert_int_eq(transpose_conv_padding_before(SAME, 8, 3, 0), -1);
  /* Convolution2DTransposeBias: MediaPipe's 2x upsampling, 4x4 stride 2. */
  ck_assert_int_eq(transpose_conv_bias_total_padding(SAME, 4, 4, 2), 2);
  ck_assert_int_eq(transpose_conv_bias_output_size(SAME, 4, 4, 2), 8);
  ck_assert_int_eq(transpose_conv_bias_total_padding(VALID, 4, 4, 2), 0);
  ck_assert_int_eq(transpose_conv_bias_output_size(VALID, 4, 4, 2), 10);
  ck_assert_int_eq(transpose_conv_bias_total_padding(SAME, 5, 2, 3), 0); /* never negative */
  ck_assert_int_eq(transpose_conv_bias_output_size(SAME, 5, 2, 3), 14);
  ck_assert_int_eq(transpose_conv_bias_output_size(SAME, 1, 1, 1), 1);
  /* Invalid, and sizes beyond int32. */
  ck_assert_int_eq(transpose_conv_bias_total_padding(SAME, 0, 4, 2), -1);
  ck_assert_int_eq(transpose_conv_bias_output_size(SAME, 0, 4, 2), -1);
  ck_assert_int_eq(transpose_conv_bias_output_size(VALID, 4, 0, 2), -1);
  ck_assert_int_eq(transpose_conv_bias_output_size(VALID, 4, 4, 0), -1);
  ck_assert_int_eq(transpose_conv_bias_output_size(9, 4, 4, 2), -1);
  ck_assert_int_eq(transpose_conv_bias_output_size(VALID, INT32_MAX, 4, INT32_MAX), -1);
}
END_TEST

/* ---- names, sizes, axes ---------------------------------------------------- */

START_TEST(op_and_dtype_names) {
  ck_assert_str_eq(op_code_name(TFLACCEL_OP_ADD), "ADD");
  ck_assert_str_eq(op_code_name(TFLACCEL_OP_CONV_2D), "CONV_2D");
  ck_assert_str_eq(op_code_name(TFLACCEL_OP_DEPTHWISE_CONV_2D), "DEPTHWISE_CONV_2D");
  ck_assert_str_eq(op_code_name(TFLACCEL_OP_CUSTOM), "CUSTOM");
  ck_assert_str_eq(op_code_name(TFLACCEL_OP_TRANSPOSE_CONV), "TRANSPOSE_CONV");
  ck_assert_str_eq(op_code_name(209), "STABLEHLO_CASE");
  ck_assert_ptr_null(op_code_name(210));
  ck_assert_ptr_null(op_code_name(-1));
  ck_assert_ptr_null(op_code_name(INT32_MAX));
  ck_assert_ptr_null(op_code_name(INT32_MIN));

  ck_assert_str_eq(dtype_name(TFLACCEL_DTYPE_FLOAT32), "float32");
  ck_assert_str_eq(dtype_name(TFLACCEL_DTYPE_INT8), "int8");
  ck_assert_str_eq(dtype_name(TFLACCEL_DTYPE_BFLOAT16), "bfloat16");
  ck_assert_str_eq(dtype_name(TFLACCEL_DTYPE_COUNT), "unknown");
  ck_assert_str_eq(dtype_name(-1), "unknown");
  for (int32_t dtype = 0; dtype < TFLACCEL_DTYPE_COUNT; ++dtype)
    ck_assert_str_ne(dtype_name(dtype), "unknown");

  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_FLOAT32), 4);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_FLOAT16), 2);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_UINT8), 1);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_BOOL), 1);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_INT64), 8);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_COMPLEX128), 16);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_STRING), 0);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_INT4), 0);
  ck_assert_uint_eq(dtype_size(TFLACCEL_DTYPE_COUNT), 0);
  ck_assert_uint_eq(dtype_size(-3), 0);

  ck_assert_str_eq(buffer_type_name(TFLACCEL_BUFFER_HOST), "host");
  ck_assert_str_eq(buffer_type_name(TFLACCEL_BUFFER_VULKAN), "Vulkan");
  ck_assert_str_eq(buffer_type_name(TFLACCEL_BUFFER_OPAQUE_FD), "opaque fd");
  ck_assert_str_eq(buffer_type_name(TFLACCEL_BUFFER_TYPE_COUNT), "unknown");
  ck_assert_str_eq(buffer_type_name(-1), "unknown");
  for (int32_t type = 0; type < TFLACCEL_BUFFER_TYPE_COUNT; ++type)
    ck_assert_str_ne(buffer_type_name(type), "unknown");
}
END_TEST

START_TEST(axes) {
  ck_assert_int_eq(axis_normalize(0, 4), 0);
  ck_assert_int_eq(axis_normalize(3, 4), 3);
  ck_assert_int_eq(axis_normalize(-1, 4), 3);
  ck_assert_int_eq(axis_normalize(-4, 4), 0);
  ck_assert_int_eq(axis_normalize(4, 4), -1);
  ck_assert_int_eq(axis_normalize(-5, 4), -1);
  ck_assert_int_eq(axis_normalize(0, 0), -1);
  ck_assert_int_eq(axis_normalize(INT64_MAX, 4), -1);
  ck_assert_int_eq(axis_normalize(INT64_MIN, 4), -1);
  /* A rank beyond int32 has axes the int32 result cannot hold. */
  ck_assert_int_eq(axis_normalize(5, UINT32_MAX), 5);
  ck_assert_int_eq(axis_normalize(-1, UINT32_MAX), -1);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("facts");
  TCase *half = tcase_create("half");
  tcase_add_test(half, every_half_converts_exactly_and_back);
  tcase_add_test(half, half_array_matches_half_to_float);
  tcase_add_test(half, ties_round_to_even);
  tcase_add_test(half, half_edges);
  suite_add_tcase(suite, half);
  TCase *geometry = tcase_create("conv_geometry");
  tcase_add_test(geometry, conv_output_sizes);
  tcase_add_test(geometry, conv_output_size_refuses_invalid_arguments);
  tcase_add_test(geometry, conv_padding);
  tcase_add_test(geometry, transpose_conv_geometry);
  suite_add_tcase(suite, geometry);
  TCase *names = tcase_create("names");
  tcase_add_test(names, op_and_dtype_names);
  tcase_add_test(names, axes);
  suite_add_tcase(suite, names);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
