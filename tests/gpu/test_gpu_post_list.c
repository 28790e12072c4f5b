/* The post-op list a backend builds a kernel for (gpu_post_list in
 * plugins/gpu_common/gpu_program.h): decoded as kernels/glsl/common.glsl
 * decodes POST_LIST, it gives back the count, types, roundings, operand
 * flags and output store of the parameters it came from, and it is never
 * 0 (which tells the kernel to read the parameters). The grid values
 * passed beside the parameter offset (gpu_pushed_grid_values) are those
 * of the post-op common.glsl's pushed_grid picks. No device is needed:
 * the conformance suite runs the specialized kernels. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_program.h"

/* common.glsl's post_count, post_type, post_rounding, post_f_operand and
 * out_dense, in C. */
static int post_count(uint32_t list) { return (int)(list & 7u) - 1; }
static uint32_t post_bits(uint32_t list, int i) {
  return list >> (GPU_POST_LIST_POSTS_SHIFT + GPU_POST_LIST_POST_BITS * i);
}
static int post_type(uint32_t list, int i) { return (int)(post_bits(list, i) & 7u); }
static int post_rounding(uint32_t list, int i) { return (int)((post_bits(list, i) >> 3) & 3u); }
static int post_f_operand(uint32_t list, int i) { return (int)((post_bits(list, i) >> 5) & 1u); }
static int out_dense(uint32_t list) { return (int)((list >> GPU_POST_LIST_DENSE_SHIFT) & 31u); }

static int32_t *post(int32_t *params, int i) { return params + GPU_P_POSTS + GPU_POST_SIZE * i; }

START_TEST(no_post_ops_is_not_zero) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  uint32_t list = gpu_post_list(params);
  ck_assert_uint_ne(list, 0);
  ck_assert_int_eq(post_count(list), 0);
  ck_assert_int_eq(out_dense(list), 0);
}
END_TEST

START_TEST(types_roundings_and_operands_come_back) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  params[GPU_P_POST_COUNT] = GPU_MAX_POSTS;
  params[GPU_P_OUT_DENSE] = 1; /* dense float32 */
  post(params, 0)[0] = GPU_POST_BINARY;
  post(params, 0)[1] = 3; /* a binary code: not encoded */
  post(params, 0)[2] = 2;
  post(params, 1)[0] = GPU_POST_QUANTIZE;
  post(params, 1)[1] = 2; /* fixed-point, ties upward */
  post(params, 1)[2] = 4; /* f per channel from t4 */
  post(params, 2)[0] = GPU_POST_QUANTIZE;
  post(params, 2)[1] = 3; /* fixed-point, ties away; one f in [3] */
  post(params, 3)[0] = GPU_POST_PRELU;
  post(params, 3)[2] = 5;
  uint32_t list = gpu_post_list(params);
  ck_assert_int_eq(post_count(list), GPU_MAX_POSTS);
  ck_assert_int_eq(out_dense(list), 1);
  const int types[4] = {GPU_POST_BINARY, GPU_POST_QUANTIZE, GPU_POST_QUANTIZE, GPU_POST_PRELU};
  for (int i = 0; i < GPU_MAX_POSTS; ++i) ck_assert_int_eq(post_type(list, i), types[i]);
  ck_assert_int_eq(post_rounding(list, 1), 2);
  ck_assert_int_eq(post_f_operand(list, 1), 1);
  ck_assert_int_eq(post_rounding(list, 2), 3);
  ck_assert_int_eq(post_f_operand(list, 2), 0);
  /* Only a grid's rounding and operand are encoded. */
  ck_assert_int_eq(post_rounding(list, 0), 0);
  ck_assert_int_eq(post_f_operand(list, 0), 0);
  ck_assert_int_eq(post_f_operand(list, 3), 0);
}
END_TEST

START_TEST(the_stores_grid_is_described_past_the_applied_ones) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  params[GPU_P_POST_COUNT] = 1;
  params[GPU_P_OUT_DENSE] = (1 + 3) | GPU_OUT_DENSE_GRID; /* int8, rounded in the store */
  post(params, 0)[0] = GPU_POST_CLAMP;
  post(params, 1)[0] = GPU_POST_QUANTIZE;
  post(params, 1)[1] = 2;
  post(params, 1)[2] = 3;
  post(params, 2)[0] = GPU_POST_UNARY; /* past the store's: not described */
  uint32_t list = gpu_post_list(params);
  ck_assert_int_eq(post_count(list), 1);
  ck_assert_int_eq(out_dense(list), (1 + 3) | GPU_OUT_DENSE_GRID);
  ck_assert_int_eq(post_type(list, 0), GPU_POST_CLAMP);
  ck_assert_int_eq(post_type(list, 1), GPU_POST_QUANTIZE);
  ck_assert_int_eq(post_rounding(list, 1), 2);
  ck_assert_int_eq(post_f_operand(list, 1), 1);
  ck_assert_int_eq(post_type(list, 2), 0);
}
END_TEST

/* common.glsl's pushed_grid, in C. */
static int pushed_grid(uint32_t list) {
  int found = -1;
  for (int i = 0; i < GPU_MAX_POSTS; ++i)
    if (list != 0 && post_type(list, i) == GPU_POST_QUANTIZE) found = i;
  return found;
}

static float float_value(int32_t bits) { return gpu_float_from_bits(bits); }

START_TEST(the_last_grid_is_pushed_with_its_rate_and_inverse_step) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  params[GPU_P_POST_COUNT] = 2;
  params[GPU_P_OUT_DENSE] = (1 + 3) | GPU_OUT_DENSE_GRID; /* int8, rounded in the store */
  post(params, 0)[0] = GPU_POST_QUANTIZE;                 /* a grid before: not pushed */
  post(params, 0)[8] = gpu_float_bits(0.5f);
  post(params, 1)[0] = GPU_POST_CLAMP;
  int32_t *grid = post(params, 2); /* the store's */
  grid[0] = GPU_POST_QUANTIZE;
  grid[1] = 2;
  grid[3] = gpu_float_bits(8.0f); /* 2^3, one f for all channels */
  grid[8] = gpu_float_bits(0.1f);
  grid[9] = -128;
  grid[10] = -100;
  grid[11] = 127;
  uint32_t list = gpu_post_list(params);
  ck_assert_int_eq(gpu_post_list_pushed_grid(list), 2);
  ck_assert_int_eq(pushed_grid(list), 2);
  int32_t values[GPU_GRID_VALUE_COUNT];
  gpu_pushed_grid_values(params, list, values);
  ck_assert_int_eq(values[GPU_GRID_VALUE_SCALE], grid[8]);
  ck_assert_int_eq(values[GPU_GRID_VALUE_ZERO], -128);
  ck_assert_int_eq(values[GPU_GRID_VALUE_QMIN], -100);
  ck_assert_int_eq(values[GPU_GRID_VALUE_QMAX], 127);
  /* f / scale rounded once from the exact quotient, 1 / f exact. */
  ck_assert_float_eq(float_value(values[GPU_GRID_VALUE_RATE]), (float)(8.0 / (double)0.1f));
  ck_assert_float_eq(float_value(values[GPU_GRID_VALUE_INVERSE_STEP]), 0.125f);
}
END_TEST

START_TEST(a_grid_with_f_per_channel_pushes_no_rate) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  params[GPU_P_POST_COUNT] = 1;
  post(params, 0)[0] = GPU_POST_QUANTIZE;
  post(params, 0)[1] = 3;
  post(params, 0)[2] = 4;                     /* f from t4 */
  post(params, 0)[3] = 7;                     /* a stride, not f */
  post(params, 0)[8] = gpu_float_bits(0.25f); /* scale */
  uint32_t list = gpu_post_list(params);
  int32_t values[GPU_GRID_VALUE_COUNT];
  gpu_pushed_grid_values(params, list, values);
  ck_assert_int_eq(pushed_grid(list), 0);
  ck_assert_float_eq(float_value(values[GPU_GRID_VALUE_SCALE]), 0.25f);
  /* The kernel computes f / scale per channel; these stay f = 1's. */
  ck_assert_float_eq(float_value(values[GPU_GRID_VALUE_RATE]), 4.0f);
  ck_assert_float_eq(float_value(values[GPU_GRID_VALUE_INVERSE_STEP]), 1.0f);
}
END_TEST

START_TEST(no_grid_pushes_zeros) {
  int32_t params[GPU_PARAMS_PER_DISPATCH] = {0};
  params[GPU_P_POST_COUNT] = 1;
  post(params, 0)[0] = GPU_POST_CLAMP;
  post(params, 0)[8] = gpu_float_bits(0.0f);
  post(params, 0)[9] = gpu_float_bits(6.0f);
  uint32_t list = gpu_post_list(params);
  ck_assert_int_eq(gpu_post_list_pushed_grid(list), -1);
  ck_assert_int_eq(gpu_post_list_pushed_grid(0), -1); /* nothing known */
  int32_t values[GPU_GRID_VALUE_COUNT];
  memset(values, 0x55, sizeof values);
  gpu_pushed_grid_values(params, list, values);
  for (int i = 0; i < GPU_GRID_VALUE_COUNT; ++i) ck_assert_int_eq(values[i], 0);
}
END_TEST

START_TEST(ordered_depthwise_kernels_are_not_specialized) {
  ck_assert_int_eq(gpu_kernel_specializes_posts(GPU_KERNEL_DEPTHWISE_CONV_ORDERED), 0);
  ck_assert_int_eq(gpu_kernel_specializes_posts(GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND), 0);
  ck_assert_int_eq(gpu_kernel_specializes_posts(GPU_KERNEL_CONV2D), 1);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu post-op list");
  TCase *tcase = tcase_create("encoding");
  tcase_add_test(tcase, no_post_ops_is_not_zero);
  tcase_add_test(tcase, types_roundings_and_operands_come_back);
  tcase_add_test(tcase, the_stores_grid_is_described_past_the_applied_ones);
  tcase_add_test(tcase, ordered_depthwise_kernels_are_not_specialized);
  tcase_add_test(tcase, the_last_grid_is_pushed_with_its_rate_and_inverse_step);
  tcase_add_test(tcase, a_grid_with_f_per_channel_pushes_no_rate);
  tcase_add_test(tcase, no_grid_pushes_zeros);
  suite_add_tcase(suite, tcase);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
