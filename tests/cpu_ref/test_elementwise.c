/* cpu_ref's elementwise, activation, reduction, softmax, arg-max and cast
 * kernels against hand-computed values and independent index arithmetic. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

#define F32 TFLACCEL_DTYPE_FLOAT32
#define I32 TFLACCEL_DTYPE_INT32

/* out = op(a, b) for one binary op with broadcast shapes, checked against
 * a reference that indexes each output element directly. */
static void check_broadcast(int32_t code, int32_t activation, uint32_t rank_a,
                            const int32_t *dims_a, uint32_t rank_b, const int32_t *dims_b,
                            uint32_t rank_out, const int32_t *dims_out, int32_t threads) {
  int count_a = 1, count_b = 1, count_out = 1;
  for (uint32_t i = 0; i < rank_a; i++) count_a *= dims_a[i];
  for (uint32_t i = 0; i < rank_b; i++) count_b *= dims_b[i];
  for (uint32_t i = 0; i < rank_out; i++) count_out *= dims_out[i];
  float *a = malloc(sizeof(float) * count_a), *b = malloc(sizeof(float) * count_b);
  float *expected = malloc(sizeof(float) * count_out);
  tg_random_floats(a, count_a, 71, -3, 3);
  tg_random_floats(b, count_b, 72, 0.5f, 2.5f);
  for (int i = 0; i < count_b; i += 3) b[i] = -b[i]; /* both signs, never 0 */
  for (int o = 0; o < count_out; o++) {
    /* Unravel o, then ravel into each input with its own dims (1 -> 0). */
    int index[8], rest = o;
    for (int d = (int)rank_out - 1; d >= 0; d--) {
      index[d] = rest % dims_out[d];
      rest /= dims_out[d];
    }
    int offset_a = 0, offset_b = 0;
    for (uint32_t d = 0; d < rank_a; d++) {
      int i = index[d + rank_out - rank_a];
      offset_a = offset_a * dims_a[d] + (dims_a[d] == 1 ? 0 : i);
    }
    for (uint32_t d = 0; d < rank_b; d++) {
      int i = index[d + rank_out - rank_b];
      offset_b = offset_b * dims_b[d] + (dims_b[d] == 1 ? 0 : i);
    }
    float x = a[offset_a], y = b[offset_b], value = 0;
    switch (code) {
    case TFLACCEL_OP_ADD: value = x + y; break;
    case TFLACCEL_OP_SUB: value = x - y; break;
    case TFLACCEL_OP_MUL: value = x * y; break;
    case TFLACCEL_OP_DIV: value = x / y; break;
    case TFLACCEL_OP_MAXIMUM: value = fmaxf(x, y); break;
    case TFLACCEL_OP_MINIMUM: value = fminf(x, y); break;
    case TFLACCEL_OP_FLOOR_DIV: value = (float)floor((double)x / (double)y); break;
    }
    if (activation == TFLACCEL_ACT_RELU) value = fmaxf(value, 0);
    if (activation == TFLACCEL_ACT_RELU6) value = fminf(fmaxf(value, 0), 6);
    if (activation == TFLACCEL_ACT_RELU_N1_TO_1) value = fminf(fmaxf(value, -1), 1);
    expected[o] = value;
  }
  test_graph graph;
  tg_init(&graph);
  uint32_t ta = tg_input(&graph, F32, rank_a, dims_a, a);
  uint32_t tb = tg_input(&graph, F32, rank_b, dims_b, b);
  uint32_t tout = tg_tensor(&graph, F32, rank_out, dims_out);
  tflaccel_op_params *params = tg_op(&graph, code, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tout});
  params->arithmetic.fused_activation = activation;
  tg_run_ok(&graph, threads);
  tg_assert_floats(tg_result(&graph, tout), expected, count_out, 1e-6f);
  tg_free(&graph);
  free(a);
  free(b);
  free(expected);
}

START_TEST(binary_broadcasting) {
  const int32_t codes[] = {TFLACCEL_OP_ADD,     TFLACCEL_OP_SUB,     TFLACCEL_OP_MUL,
                           TFLACCEL_OP_DIV,     TFLACCEL_OP_MAXIMUM, TFLACCEL_OP_MINIMUM,
                           TFLACCEL_OP_FLOOR_DIV};
  for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++) {
    check_broadcast(codes[c], 0, 3, (int32_t[]){2, 1, 3}, 2, (int32_t[]){4, 1}, 3,
                    (int32_t[]){2, 4, 3}, 1);
    check_broadcast(codes[c], 0, 6, (int32_t[]){2, 1, 2, 1, 3, 1}, 6,
                    (int32_t[]){1, 3, 1, 2, 1, 2}, 6, (int32_t[]){2, 3, 2, 2, 3, 2}, 2);
    check_broadcast(codes[c], 0, 4, (int32_t[]){1, 5, 5, 7}, 4, (int32_t[]){1, 5, 5, 7}, 4,
                    (int32_t[]){1, 5, 5, 7}, 1);
    check_broadcast(codes[c], 0, 0, NULL, 2, (int32_t[]){3, 5}, 2, (int32_t[]){3, 5}, 1);
    check_broadcast(codes[c], 0, 4, (int32_t[]){1, 4, 4, 6}, 4, (int32_t[]){1, 4, 4, 1}, 4,
                    (int32_t[]){1, 4, 4, 6}, 2);
  }
  const int32_t activations[] = {TFLACCEL_ACT_RELU, TFLACCEL_ACT_RELU6, TFLACCEL_ACT_RELU_N1_TO_1};
  for (size_t a = 0; a < 3; a++) {
    check_broadcast(TFLACCEL_OP_ADD, activations[a], 2, (int32_t[]){3, 4}, 1, (int32_t[]){4}, 2,
                    (int32_t[]){3, 4}, 1);
    check_broadcast(TFLACCEL_OP_MUL, activations[a], 3, (int32_t[]){2, 3, 4}, 3,
                    (int32_t[]){2, 1, 4}, 3, (int32_t[]){2, 3, 4}, 1);
  }
  /* A large case: several chunks per thread. */
  check_broadcast(TFLACCEL_OP_MUL, 0, 4, (int32_t[]){1, 64, 64, 16}, 1, (int32_t[]){16}, 4,
                  (int32_t[]){1, 64, 64, 16}, 2);
}
END_TEST

static void run_int32_binary(int32_t code, int32_t activation, const int32_t *a, const int32_t *b,
                             int count, int32_t *out, tflaccel_status *status) {
  test_graph graph;
  tg_init(&graph);
  uint32_t ta = tg_input(&graph, I32, 1, (int32_t[]){count}, a);
  uint32_t tb = tg_input(&graph, I32, 1, (int32_t[]){count}, b);
  uint32_t tout = tg_tensor(&graph, I32, 1, (int32_t[]){count});
  tflaccel_op_params *params = tg_op(&graph, code, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tout});
  params->arithmetic.fused_activation = activation;
  *status = tg_run(&graph, 1);
  if (*status == NULL) memcpy(out, tg_result(&graph, tout), sizeof(int32_t) * count);
  tg_free(&graph);
}

START_TEST(int32_arithmetic) {
  const int32_t a[6] = {7, -7, 7, -7, 2147483647, 0};
  const int32_t b[6] = {2, 2, -2, -2, 1, 5};
  int32_t out[6];
  tflaccel_status status;
  run_int32_binary(TFLACCEL_OP_DIV, 0, a, b, 6, out, &status);
  ck_assert_ptr_null(status);
  const int32_t div[6] = {3, -3, -3, 3, 2147483647, 0};
  ck_assert_mem_eq(out, div, sizeof div);
  run_int32_binary(TFLACCEL_OP_FLOOR_DIV, 0, a, b, 6, out, &status);
  ck_assert_ptr_null(status);
  const int32_t floor_div[6] = {3, -4, -4, 3, 2147483647, 0};
  ck_assert_mem_eq(out, floor_div, sizeof floor_div);
  run_int32_binary(TFLACCEL_OP_ADD, 0, a, b, 6, out, &status);
  ck_assert_ptr_null(status);
  const int32_t add[6] = {9, -5, 5, -9, INT32_MIN, 5}; /* wraps */
  ck_assert_mem_eq(out, add, sizeof add);
  run_int32_binary(TFLACCEL_OP_SUB, TFLACCEL_ACT_RELU6, a, b, 6, out, &status);
  ck_assert_ptr_null(status);
  const int32_t sub[6] = {5, 0, 6, 0, 6, 0};
  ck_assert_mem_eq(out, sub, sizeof sub);
  run_int32_binary(TFLACCEL_OP_MUL, 0, a, b, 6, out, &status);
  ck_assert_ptr_null(status);
  const int32_t mul[6] = {14, -14, -14, 14, 2147483647, 0};
  ck_assert_mem_eq(out, mul, sizeof mul);
  const int32_t zero[6] = {1, 1, 0, 1, 1, 1};
  run_int32_binary(TFLACCEL_OP_DIV, 0, a, zero, 6, out, &status);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "division by zero"));
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "(DIV)"));
  tflaccel_status_free(status);
}
END_TEST

START_TEST(float_floor_div_values) {
  float a[4] = {-7.5f, 7.5f, -1, 6}, b[4] = {2, -2, 3, 3}, expected[4] = {-4, -4, -1, 2};
  test_graph graph;
  tg_init(&graph);
  uint32_t ta = tg_input(&graph, F32, 1, (int32_t[]){4}, a);
  uint32_t tb = tg_input(&graph, F32, 1, (int32_t[]){4}, b);
  uint32_t tout = tg_tensor(&graph, F32, 1, (int32_t[]){4});
  tg_op(&graph, TFLACCEL_OP_FLOOR_DIV, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  tg_assert_floats(tg_result(&graph, tout), expected, 4, 0);
  tg_free(&graph);
}
END_TEST

static void run_unary(int32_t code, const float *in, int count, float alpha, float *out) {
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 1, (int32_t[]){count}, in);
  uint32_t tout = tg_tensor(&graph, F32, 1, (int32_t[]){count});
  tflaccel_op_params *params = tg_op(&graph, code, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tout});
  params->leaky_relu.alpha = alpha;
  tg_run_ok(&graph, 1);
  memcpy(out, tg_result(&graph, tout), sizeof(float) * count);
  tg_free(&graph);
}

START_TEST(unary_ops) {
  const float in[8] = {-7, -3, -1.5f, -0.25f, 0, 0.5f, 2, 7.5f};
  const float positive[8] = {0.01f, 0.25f, 0.5f, 1, 2, 4, 9, 100};
  float out[8], expected[8];
  run_unary(TFLACCEL_OP_RELU, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = in[i] > 0 ? in[i] : 0;
  tg_assert_floats(out, expected, 8, 0);
  run_unary(TFLACCEL_OP_RELU6, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = in[i] < 0 ? 0 : (in[i] > 6 ? 6 : in[i]);
  tg_assert_floats(out, expected, 8, 0);
  run_unary(TFLACCEL_OP_RELU_N1_TO_1, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = in[i] < -1 ? -1 : (in[i] > 1 ? 1 : in[i]);
  tg_assert_floats(out, expected, 8, 0);
  run_unary(TFLACCEL_OP_LEAKY_RELU, in, 8, 0.2f, out);
  for (int i = 0; i < 8; i++) expected[i] = in[i] > 0 ? in[i] : 0.2f * in[i];
  tg_assert_floats(out, expected, 8, 1e-7f);
  /* hard_swish(x) = x * relu6(x + 3) / 6: -7 -> 0, -1.5 -> -0.375, 7.5 -> 7.5. */
  run_unary(TFLACCEL_OP_HARD_SWISH, in, 8, 0, out);
  const float hard_swish[8] = {0, 0, -0.375f, -0.114583333f, 0, 0.291666667f, 1.666666667f, 7.5f};
  tg_assert_floats(out, hard_swish, 8, 1e-6f);
  run_unary(TFLACCEL_OP_LOGISTIC, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = (float)(1.0 / (1.0 + exp(-(double)in[i])));
  tg_assert_floats(out, expected, 8, 1e-6f);
  run_unary(TFLACCEL_OP_TANH, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = (float)tanh(in[i]);
  tg_assert_floats(out, expected, 8, 1e-6f);
  run_unary(TFLACCEL_OP_EXP, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = (float)exp(in[i]);
  tg_assert_floats(out, expected, 8, 1e-6f);
  run_unary(TFLACCEL_OP_ABS, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = fabsf(in[i]);
  tg_assert_floats(out, expected, 8, 0);
  run_unary(TFLACCEL_OP_NEG, in, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = -in[i];
  tg_assert_floats(out, expected, 8, 0);
  run_unary(TFLACCEL_OP_FLOOR, in, 8, 0, out);
  const float floors[8] = {-7, -3, -2, -1, 0, 0, 2, 7};
  tg_assert_floats(out, floors, 8, 0);
  run_unary(TFLACCEL_OP_SQRT, positive, 8, 0, out);
  const float roots[8] = {0.1f, 0.5f, 0.707106781f, 1, 1.414213562f, 2, 3, 10};
  tg_assert_floats(out, roots, 8, 1e-6f);
  run_unary(TFLACCEL_OP_RSQRT, positive, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = 1.0f / roots[i];
  tg_assert_floats(out, expected, 8, 1e-6f);
  run_unary(TFLACCEL_OP_LOG, positive, 8, 0, out);
  for (int i = 0; i < 8; i++) expected[i] = (float)log(positive[i]);
  tg_assert_floats(out, expected, 8, 1e-6f);
}
END_TEST

START_TEST(logical_ops) {
  uint8_t a[6] = {1, 0, 1, 0, 1, 1}, b[3] = {1, 0, 1};
  test_graph graph;
  tg_init(&graph);
  uint32_t ta = tg_input(&graph, TFLACCEL_DTYPE_BOOL, 2, (int32_t[]){2, 3}, a);
  uint32_t tb = tg_input(&graph, TFLACCEL_DTYPE_BOOL, 1, (int32_t[]){3}, b);
  uint32_t tand = tg_tensor(&graph, TFLACCEL_DTYPE_BOOL, 2, (int32_t[]){2, 3});
  uint32_t tor = tg_tensor(&graph, TFLACCEL_DTYPE_BOOL, 2, (int32_t[]){2, 3});
  uint32_t tnot = tg_tensor(&graph, TFLACCEL_DTYPE_BOOL, 2, (int32_t[]){2, 3});
  tg_op(&graph, TFLACCEL_OP_LOGICAL_AND, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tand});
  tg_op(&graph, TFLACCEL_OP_LOGICAL_OR, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tor});
  tg_op(&graph, TFLACCEL_OP_LOGICAL_NOT, 1, (uint32_t[]){ta}, 1, (uint32_t[]){tnot});
  tg_run_ok(&graph, 1);
  const uint8_t and_values[6] = {1, 0, 1, 0, 0, 1}, or_values[6] = {1, 0, 1, 1, 1, 1};
  const uint8_t not_values[6] = {0, 1, 0, 1, 0, 0};
  ck_assert_mem_eq(tg_result(&graph, tand), and_values, 6);
  ck_assert_mem_eq(tg_result(&graph, tor), or_values, 6);
  ck_assert_mem_eq(tg_result(&graph, tnot), not_values, 6);
  tg_free(&graph);
}
END_TEST

START_TEST(prelu_broadcast_alpha) {
  float in[12] = {-1, 2, -3, 4, -5, 6, 7, -8, 9, -10, 11, -12};
  float alpha[3] = {0.1f, 0.2f, 0.3f};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 2, 2, 3}, in);
  uint32_t talpha = tg_const(&graph, F32, 3, (int32_t[]){1, 1, 3}, alpha);
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 2, 2, 3});
  tg_op(&graph, TFLACCEL_OP_PRELU, 2, (uint32_t[]){tin, talpha}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 2);
  const float expected[12] = {-0.1f, 2, -0.9f, 4, -1, 6, 7, -1.6f, 9, -1, 11, -3.6f};
  tg_assert_floats(tg_result(&graph, tout), expected, 12, 1e-6f);
  tg_free(&graph);
}
END_TEST

START_TEST(softmax_values) {
  float in[6] = {1, 2, 3, -1, 0, 1};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, in);
  uint32_t tout = tg_tensor(&graph, F32, 2, (int32_t[]){2, 3});
  uint32_t tlog = tg_tensor(&graph, F32, 2, (int32_t[]){2, 3});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_SOFTMAX, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tout});
  params->softmax.beta = 0.5f;
  tg_op(&graph, TFLACCEL_OP_LOG_SOFTMAX, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tlog});
  tg_run_ok(&graph, 1);
  float expected[6], expected_log[6];
  for (int row = 0; row < 2; row++) {
    double sum = 0, sum_beta = 0;
    for (int i = 0; i < 3; i++) {
      sum_beta += exp(0.5 * in[row * 3 + i]);
      sum += exp(in[row * 3 + i]);
    }
    for (int i = 0; i < 3; i++) {
      expected[row * 3 + i] = (float)(exp(0.5 * in[row * 3 + i]) / sum_beta);
      expected_log[row * 3 + i] = (float)(in[row * 3 + i] - log(sum));
    }
  }
  tg_assert_floats(tg_result(&graph, tout), expected, 6, 1e-6f);
  tg_assert_floats(tg_result(&graph, tlog), expected_log, 6, 1e-6f);
  tg_free(&graph);
}
END_TEST

static void run_reduce(int32_t code, int32_t dtype, const void *in, uint32_t rank,
                       const int32_t *dims, const int32_t *axes, int axis_count, int keep_dims,
                       uint32_t out_rank, const int32_t *out_dims, void *out, size_t out_bytes) {
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, dtype, rank, dims, in);
  uint32_t taxes = tg_const(&graph, I32, 1, (int32_t[]){axis_count}, axes);
  uint32_t tout = tg_tensor(&graph, dtype, out_rank, out_dims);
  tflaccel_op_params *params =
      tg_op(&graph, code, 2, (uint32_t[]){tin, taxes}, 1, (uint32_t[]){tout});
  params->reducer.keep_dims = keep_dims;
  tg_run_ok(&graph, 1);
  memcpy(out, tg_result(&graph, tout), out_bytes);
  tg_free(&graph);
}

START_TEST(reductions) {
  /* [1, 2, 3, 2]: values 0..11. */
  float in[12];
  for (int i = 0; i < 12; i++) in[i] = (float)i;
  int32_t dims[4] = {1, 2, 3, 2};
  float out[6];
  /* MEAN over H, W (axes 1, 2), keep_dims -> [1,1,1,2]: means of evens, odds. */
  run_reduce(TFLACCEL_OP_MEAN, F32, in, 4, dims, (int32_t[]){1, 2}, 2, 1, 4,
             (int32_t[]){1, 1, 1, 2}, out, 2 * sizeof(float));
  tg_assert_floats(out, (const float[]){5, 6}, 2, 1e-6f);
  /* MEAN over the last axis given as -1 (and repeated), no keep -> [1,2,3]. */
  run_reduce(TFLACCEL_OP_MEAN, F32, in, 4, dims, (int32_t[]){-1, 3}, 2, 0, 3,
             (int32_t[]){1, 2, 3}, out, 6 * sizeof(float));
  tg_assert_floats(out, (const float[]){0.5f, 2.5f, 4.5f, 6.5f, 8.5f, 10.5f}, 6, 1e-6f);
  run_reduce(TFLACCEL_OP_SUM, F32, in, 4, dims, (int32_t[]){1}, 1, 0, 3, (int32_t[]){1, 3, 2},
             out, 6 * sizeof(float));
  tg_assert_floats(out, (const float[]){6, 8, 10, 12, 14, 16}, 6, 0);
  run_reduce(TFLACCEL_OP_REDUCE_MAX, F32, in, 4, dims, (int32_t[]){2}, 1, 1, 4,
             (int32_t[]){1, 2, 1, 2}, out, 4 * sizeof(float));
  tg_assert_floats(out, (const float[]){4, 5, 10, 11}, 4, 0);
  run_reduce(TFLACCEL_OP_REDUCE_MIN, F32, in, 4, dims, (int32_t[]){0, 1, 2, 3}, 4, 0, 0, NULL,
             out, sizeof(float));
  ck_assert(out[0] == 0);
  int32_t in_i[6] = {1, -2, 3, 4, 5, -6}, out_i[3];
  run_reduce(TFLACCEL_OP_SUM, I32, in_i, 2, (int32_t[]){2, 3}, (int32_t[]){0}, 1, 0, 1,
             (int32_t[]){3}, out_i, sizeof out_i);
  ck_assert(out_i[0] == 5 && out_i[1] == 3 && out_i[2] == -3);
  run_reduce(TFLACCEL_OP_REDUCE_PROD, I32, in_i, 2, (int32_t[]){2, 3}, (int32_t[]){1}, 1, 0, 1,
             (int32_t[]){2}, out_i, 2 * sizeof(int32_t));
  ck_assert(out_i[0] == -6 && out_i[1] == -120);
}
END_TEST

START_TEST(arg_max_and_min) {
  /* [2, 4] floats with a tie in row 0 (first index wins). */
  float in[8] = {1, 5, 5, -2, -1, -3, 0, -3};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 2, (int32_t[]){2, 4}, in);
  uint32_t taxis = tg_const(&graph, I32, 1, (int32_t[]){1}, (int32_t[]){-1});
  uint32_t tmax = tg_tensor(&graph, TFLACCEL_DTYPE_INT64, 1, (int32_t[]){2});
  uint32_t tmin = tg_tensor(&graph, I32, 1, (int32_t[]){2});
  tg_op(&graph, TFLACCEL_OP_ARG_MAX, 2, (uint32_t[]){tin, taxis}, 1, (uint32_t[]){tmax})
      ->arg.output_type = TFLACCEL_DTYPE_INT64;
  tg_op(&graph, TFLACCEL_OP_ARG_MIN, 2, (uint32_t[]){tin, taxis}, 1, (uint32_t[]){tmin})
      ->arg.output_type = I32;
  tg_run_ok(&graph, 1);
  const int64_t *max = tg_result(&graph, tmax);
  const int32_t *min = tg_result(&graph, tmin);
  ck_assert(max[0] == 1 && max[1] == 2);
  ck_assert(min[0] == 3 && min[1] == 1);
  tg_free(&graph);

  /* uint8 and int8 along axis 0 of [3, 2]. */
  uint8_t u8[6] = {200, 3, 255, 7, 10, 7};
  int8_t s8[6] = {-100, 3, 100, -7, -128, 7};
  tg_init(&graph);
  uint32_t tu = tg_input(&graph, TFLACCEL_DTYPE_UINT8, 2, (int32_t[]){3, 2}, u8);
  uint32_t ts = tg_input(&graph, TFLACCEL_DTYPE_INT8, 2, (int32_t[]){3, 2}, s8);
  uint32_t taxis0 = tg_const(&graph, I32, 1, (int32_t[]){1}, (int32_t[]){0});
  uint32_t tu_out = tg_tensor(&graph, I32, 1, (int32_t[]){2});
  uint32_t ts_out = tg_tensor(&graph, I32, 1, (int32_t[]){2});
  tg_op(&graph, TFLACCEL_OP_ARG_MAX, 2, (uint32_t[]){tu, taxis0}, 1, (uint32_t[]){tu_out});
  tg_op(&graph, TFLACCEL_OP_ARG_MIN, 2, (uint32_t[]){ts, taxis0}, 1, (uint32_t[]){ts_out});
  tg_run_ok(&graph, 1);
  const int32_t *u_result = tg_result(&graph, tu_out), *s_result = tg_result(&graph, ts_out);
  ck_assert(u_result[0] == 1 && u_result[1] == 1);
  ck_assert(s_result[0] == 2 && s_result[1] == 1);
  tg_free(&graph);
}
END_TEST

START_TEST(cast_combinations) {
  /* Floats to integers truncate toward zero and saturate at the target's
   * range; integers wrap (300 -> int8 44). */
  float floats[6] = {-1.7f, 2.9f, 300.0f, -1.0f, 0.0f, 127.5f};
  test_graph graph;
  tg_init(&graph);
  uint32_t tf = tg_input(&graph, F32, 1, (int32_t[]){6}, floats);
  uint32_t ti32 = tg_tensor(&graph, I32, 1, (int32_t[]){6});
  uint32_t tu8 = tg_tensor(&graph, TFLACCEL_DTYPE_UINT8, 1, (int32_t[]){6});
  uint32_t tbool = tg_tensor(&graph, TFLACCEL_DTYPE_BOOL, 1, (int32_t[]){6});
  uint32_t ti64 = tg_tensor(&graph, TFLACCEL_DTYPE_INT64, 1, (int32_t[]){6});
  uint32_t tback = tg_tensor(&graph, F32, 1, (int32_t[]){6});
  uint32_t ti8 = tg_tensor(&graph, TFLACCEL_DTYPE_INT8, 1, (int32_t[]){6});
  uint32_t tbool_f = tg_tensor(&graph, F32, 1, (int32_t[]){6});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){tf}, 1, (uint32_t[]){ti32});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){tf}, 1, (uint32_t[]){tu8});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){tf}, 1, (uint32_t[]){tbool});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){ti32}, 1, (uint32_t[]){ti64});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){ti64}, 1, (uint32_t[]){tback});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){ti32}, 1, (uint32_t[]){ti8});
  tg_op(&graph, TFLACCEL_OP_CAST, 1, (uint32_t[]){tbool}, 1, (uint32_t[]){tbool_f});
  tg_mark_output(&graph, ti32);
  tg_mark_output(&graph, tbool);
  tg_mark_output(&graph, ti64);
  tg_run_ok(&graph, 1);
  const int32_t i32[6] = {-1, 2, 300, -1, 0, 127};
  const uint8_t u8[6] = {0, 2, 255, 0, 0, 127};
  const uint8_t bools[6] = {1, 1, 1, 1, 0, 1};
  const int64_t i64[6] = {-1, 2, 300, -1, 0, 127};
  const float back[6] = {-1, 2, 300, -1, 0, 127};
  const int8_t i8[6] = {-1, 2, 44, -1, 0, 127};
  const float bool_f[6] = {1, 1, 1, 1, 0, 1};
  ck_assert_mem_eq(tg_result(&graph, ti32), i32, sizeof i32);
  ck_assert_mem_eq(tg_result(&graph, tu8), u8, sizeof u8);
  ck_assert_mem_eq(tg_result(&graph, tbool), bools, sizeof bools);
  ck_assert_mem_eq(tg_result(&graph, ti64), i64, sizeof i64);
  ck_assert_mem_eq(tg_result(&graph, tback), back, sizeof back);
  ck_assert_mem_eq(tg_result(&graph, ti8), i8, sizeof i8);
  ck_assert_mem_eq(tg_result(&graph, tbool_f), bool_f, sizeof bool_f);
  tg_free(&graph);
}
END_TEST

START_TEST(dequantize_float16) {
  /* 1.0, -2.0, 0.5, 65504 (max half), smallest subnormal 2^-24, -0. */
  uint16_t halves[6] = {0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x8000};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, TFLACCEL_DTYPE_FLOAT16, 1, (int32_t[]){6}, halves);
  uint32_t tout = tg_tensor(&graph, F32, 1, (int32_t[]){6});
  tg_op(&graph, TFLACCEL_OP_DEQUANTIZE, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  const float expected[6] = {1, -2, 0.5f, 65504, 5.9604644775390625e-8f, -0.0f};
  ck_assert_mem_eq(tg_result(&graph, tout), expected, sizeof expected);
  tg_free(&graph);
}
END_TEST

static Suite *elementwise_suite(void) {
  Suite *suite = suite_create("cpu_ref elementwise kernels");
  TCase *tc = tcase_create("elementwise");
  tcase_add_test(tc, binary_broadcasting);
  tcase_add_test(tc, int32_arithmetic);
  tcase_add_test(tc, float_floor_div_values);
  tcase_add_test(tc, unary_ops);
  tcase_add_test(tc, logical_ops);
  tcase_add_test(tc, prelu_broadcast_alpha);
  tcase_add_test(tc, softmax_values);
  tcase_add_test(tc, reductions);
  tcase_add_test(tc, arg_max_and_min);
  tcase_add_test(tc, cast_combinations);
  tcase_add_test(tc, dequantize_float16);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(elementwise_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
