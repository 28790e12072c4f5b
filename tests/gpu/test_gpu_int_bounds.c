/* The bound proof of int32 values on the GPU (plugins/gpu_common/
 * gpu_int_bounds.h) and the support query's answers from it: what each op
 * bounds, that the precision decides (2^24 in fp32, 2^11 in fp16), and
 * that a decline names the bound. No device is needed: the conformance
 * suite (conformance_int_cases.c) runs the kernels. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_support.h"
#include "tests/conformance/conformance_graph.h"

#define I32 TFLACCEL_DTYPE_INT32

/* movenet's decode over `positions`: tensors at, row (FLOOR_DIV by
 * width), row_start (MUL), column (SUB); ops 0..3 in that order. */
typedef struct decode {
  cf_graph graph;
  uint32_t at, row, row_start, column;
} decode;

static void build_decode(decode *d, int32_t positions, int32_t width) {
  cf_graph *g = &d->graph;
  cf_graph_init(g, 1);
  int32_t heat_dims[3] = {1, positions, 2}, dims[2] = {1, 2}, one = 1, axis = 1;
  uint32_t heat = cf_input(g, TFLACCEL_DTYPE_FLOAT32, 3, heat_dims, 0.0f, 1.0f);
  d->at = cf_tensor(g, I32, 2, dims);
  cf_op(g, TFLACCEL_OP_ARG_MAX, 2, (uint32_t[]){heat, cf_constant_int32(g, 1, &one, &axis)},
        d->at)
      ->arg.output_type = I32;
  uint32_t w = cf_constant_int32(g, 1, &one, &width);
  d->row = cf_tensor(g, I32, 2, dims);
  cf_op(g, TFLACCEL_OP_FLOOR_DIV, 2, (uint32_t[]){d->at, w}, d->row);
  d->row_start = cf_tensor(g, I32, 2, dims);
  cf_op(g, TFLACCEL_OP_MUL, 2, (uint32_t[]){d->row, w}, d->row_start);
  d->column = cf_tensor(g, I32, 2, dims);
  cf_op(g, TFLACCEL_OP_SUB, 2, (uint32_t[]){d->at, d->row_start}, d->column);
  cf_output(g, d->column);
}

static int64_t bound_of(decode *d, uint32_t tensor) {
  int64_t bound = -1;
  ck_assert_int_eq(gpu_int_bound(cf_graph_view(&d->graph), tensor, &bound), 1);
  return bound;
}

static int supported(decode *d, uint32_t op, int32_t precision, char *reason) {
  return gpu_op_supported(cf_graph_view(&d->graph), op, precision, "gpu_test", reason,
                          TFLACCEL_REASON_SIZE);
}

START_TEST(each_op_bounds_its_output) {
  decode d;
  build_decode(&d, 3000, 60);
  ck_assert_int_eq(bound_of(&d, d.at), 2999);       /* an index along 3000 */
  ck_assert_int_eq(bound_of(&d, d.row), 50);        /* ceil(2999 / 60) */
  ck_assert_int_eq(bound_of(&d, d.row_start), 3000); /* 50 * 60 */
  ck_assert_int_eq(bound_of(&d, d.column), 5999);   /* 2999 + 3000 */
  cf_graph_release(&d.graph);
}
END_TEST

START_TEST(fp32_runs_what_fp16_declines_naming_the_bound) {
  decode d;
  build_decode(&d, 3000, 60);
  char reason[TFLACCEL_REASON_SIZE];
  for (uint32_t op = 0; op < 4; ++op)
    ck_assert_msg(supported(&d, op, TFLACCEL_PRECISION_FP32, reason), "op %u: %s", op, reason);
  ck_assert_int_eq(supported(&d, 2, TFLACCEL_PRECISION_FP16, reason), 0);
  ck_assert_str_eq(reason,
                   "gpu_test: MUL output is int32 with values up to 3000: GPU tensors hold "
                   "integers as float values, exact in fp16 only up to 2048");
  ck_assert_int_eq(supported(&d, 0, TFLACCEL_PRECISION_FP16, reason), 0);
  ck_assert_str_eq(reason,
                   "gpu_test: ARG_MAX over 3000 values: GPU tensors hold indices as float "
                   "values, exact in fp16 only up to 2048");
  cf_graph_release(&d.graph);
}
END_TEST

/* The plugin's answer (gpu_op_supported_at): in fp16, what only fp32 holds
 * exactly runs with required precision fp32, the fp16 bound as the reason;
 * what fp16 holds, or what fp32 does not hold either, keeps -1. */
static int supported_at(decode *d, uint32_t op, int32_t precision, char *reason,
                        int32_t *required) {
  return gpu_op_supported_at(cf_graph_view(&d->graph), op, precision, "gpu_test", reason,
                             TFLACCEL_REASON_SIZE, required);
}

START_TEST(fp16_answers_fp32_for_what_only_fp32_holds) {
  decode d;
  build_decode(&d, 3000, 60);
  char reason[TFLACCEL_REASON_SIZE];
  int32_t required = 0;
  for (uint32_t op = 0; op < 4; ++op) {
    ck_assert_msg(supported_at(&d, op, TFLACCEL_PRECISION_FP16, reason, &required), "op %u: %s",
                  op, reason);
    ck_assert_int_eq(required, TFLACCEL_PRECISION_FP32);
    ck_assert_msg(strstr(reason, "exact in fp16 only up to 2048") != NULL ||
                      strstr(reason, "in fp16 (GPU division") != NULL,
                  "op %u: %s", op, reason);
    ck_assert(supported_at(&d, op, TFLACCEL_PRECISION_FP32, reason, &required));
    ck_assert_int_eq(required, -1);
  }
  cf_graph_release(&d.graph);
  build_decode(&d, 192, 16); /* fp16 holds it: nothing changes */
  for (uint32_t op = 0; op < 4; ++op) {
    ck_assert(supported_at(&d, op, TFLACCEL_PRECISION_FP16, reason, &required));
    ck_assert_int_eq(required, -1);
  }
  cf_graph_release(&d.graph);
  build_decode(&d, 3000000, 60); /* FLOOR_DIV is not exact in fp32 either */
  ck_assert_int_eq(supported_at(&d, 1, TFLACCEL_PRECISION_FP16, reason, &required), 0);
  ck_assert_int_eq(required, -1);
  ck_assert_msg(strstr(reason, "FLOOR_DIV") != NULL && strstr(reason, "fp16") != NULL, "%s",
                reason); /* the fp16 decline stays */
  cf_graph_release(&d.graph);
}
END_TEST

START_TEST(small_decode_runs_in_fp16) {
  decode d;
  build_decode(&d, 192, 16); /* at <= 191, row <= 12, row_start <= 192, column <= 383 */
  char reason[TFLACCEL_REASON_SIZE];
  for (uint32_t op = 0; op < 4; ++op)
    ck_assert_msg(supported(&d, op, TFLACCEL_PRECISION_FP16, reason), "op %u: %s", op, reason);
  cf_graph_release(&d.graph);
}
END_TEST

START_TEST(floor_div_keeps_a_margin_for_rounded_division) {
  decode d;
  build_decode(&d, 3000000, 60); /* dividends up to 2999999 > 2^24 / 8 */
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert_int_eq(supported(&d, 1, TFLACCEL_PRECISION_FP32, reason), 0);
  ck_assert_str_eq(reason,
                   "gpu_test: FLOOR_DIV of int32 values up to 2999999: floor(a / b) of float "
                   "values is exact only for |a| up to 2097152 in fp32 (GPU division rounds "
                   "within 2.5 ulp)");
  cf_graph_release(&d.graph);
}
END_TEST

START_TEST(graph_inputs_have_no_bound) {
  cf_graph g;
  cf_graph_init(&g, 1);
  int32_t dims[1] = {5}, one = 1, two = 2;
  uint32_t input = cf_input(&g, I32, 1, dims, 0.0f, 10.0f);
  uint32_t out = cf_tensor(&g, I32, 1, dims);
  cf_op(&g, TFLACCEL_OP_ADD, 2, (uint32_t[]){input, cf_constant_int32(&g, 1, &one, &two)}, out);
  cf_output(&g, out);
  int64_t bound;
  ck_assert_int_eq(gpu_int_bound(cf_graph_view(&g), input, &bound), 0);
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert_int_eq(gpu_op_supported(cf_graph_view(&g), 0, TFLACCEL_PRECISION_FP32, "gpu_test",
                                    reason, sizeof reason),
                   0);
  ck_assert_str_eq(reason,
                   "gpu_test: ADD input 0 is int32 with no proven bound (GPU tensors hold "
                   "integers as float values, exact in fp32 up to 16777216)");
  /* No bound is no precision's: fp16 declines it, asking for none. */
  int32_t required = 0;
  ck_assert_int_eq(gpu_op_supported_at(cf_graph_view(&g), 0, TFLACCEL_PRECISION_FP16, "gpu_test",
                                       reason, sizeof reason, &required),
                   0);
  ck_assert_int_eq(required, -1);
  cf_graph_release(&g);
}
END_TEST

START_TEST(constants_bound_by_their_largest_magnitude) {
  cf_graph g;
  cf_graph_init(&g, 1);
  int32_t dims[1] = {3}, values[3] = {4, -9000, 7};
  uint32_t constant = cf_constant_int32(&g, 1, dims, values);
  int64_t bound;
  ck_assert_int_eq(gpu_int_bound(cf_graph_view(&g), constant, &bound), 1);
  ck_assert_int_eq(bound, 9000);
  cf_graph_release(&g);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu int32 bounds");
  TCase *tcase = tcase_create("bounds");
  tcase_add_test(tcase, each_op_bounds_its_output);
  tcase_add_test(tcase, fp32_runs_what_fp16_declines_naming_the_bound);
  tcase_add_test(tcase, fp16_answers_fp32_for_what_only_fp32_holds);
  tcase_add_test(tcase, small_decode_runs_in_fp16);
  tcase_add_test(tcase, floor_div_keeps_a_margin_for_rounded_division);
  tcase_add_test(tcase, graph_inputs_have_no_bound);
  tcase_add_test(tcase, constants_bound_by_their_largest_magnitude);
  suite_add_tcase(suite, tcase);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
