/* cpu_ref's data-movement and resize kernels: concatenation, reshape,
 * pad, strided slice, transpose, pack/unpack, gather_nd, depth/space and
 * resize, with hand-computed results. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cpu_ref/kernel.h"
#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

#define F32 TFLACCEL_DTYPE_FLOAT32
#define I32 TFLACCEL_DTYPE_INT32

/* The generic kernel's own verdict on op `op` (whatever the quantized
 * table, consulted first by the plugin, would say). */
static int generic_check(const test_graph *graph, uint32_t op, char *reason) {
  tflaccel_graph_view view = tg_view(graph);
  const cpu_kernel *kernel = cpu_generic_kernel_find(&view, &graph->ops[op]);
  ck_assert_ptr_nonnull(kernel);
  return kernel->check(&view, &graph->ops[op], reason);
}

START_TEST(concatenation) {
  float a[4] = {1, 2, 3, 4}, b[2] = {-5, 6}, c[6] = {7, -8, 9, 10, 11, 12};
  for (int negative_axis = 0; negative_axis <= 1; negative_axis++) {
    test_graph graph;
    tg_init(&graph);
    uint32_t ta = tg_input(&graph, F32, 2, (int32_t[]){2, 2}, a);
    uint32_t tb = tg_const(&graph, F32, 2, (int32_t[]){2, 1}, b);
    uint32_t tc = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, c);
    uint32_t tout = tg_tensor(&graph, F32, 2, (int32_t[]){2, 6});
    tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_CONCATENATION, 3,
                                       (uint32_t[]){ta, tb, tc}, 1, (uint32_t[]){tout});
    params->concatenation.axis = negative_axis ? -1 : 1;
    params->concatenation.fused_activation = TFLACCEL_ACT_RELU;
    tg_run_ok(&graph, 1);
    const float expected[12] = {1, 2, 0, 7, 0, 9, 3, 4, 6, 10, 11, 12};
    tg_assert_floats(tg_result(&graph, tout), expected, 12, 0);
    tg_free(&graph);
  }
  /* int8 with the output's quantization: a byte copy. With another scale
   * the generic kernel declines (a requantizing kernel is needed). */
  int8_t qa[2] = {-3, 4}, qb[2] = {100, -128};
  test_graph graph;
  tg_init(&graph);
  uint32_t ta = tg_input(&graph, TFLACCEL_DTYPE_INT8, 1, (int32_t[]){2}, qa);
  uint32_t tb = tg_input(&graph, TFLACCEL_DTYPE_INT8, 1, (int32_t[]){2}, qb);
  uint32_t tout = tg_tensor(&graph, TFLACCEL_DTYPE_INT8, 1, (int32_t[]){4});
  tg_quantize(&graph, ta, 0.5f, 1);
  tg_quantize(&graph, tb, 0.5f, 1);
  tg_quantize(&graph, tout, 0.5f, 1);
  tg_op(&graph, TFLACCEL_OP_CONCATENATION, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tout});
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(generic_check(&graph, 0, reason));
  tg_run_ok(&graph, 1);
  const int8_t expected[4] = {-3, 4, 100, -128};
  ck_assert_mem_eq(tg_result(&graph, tout), expected, 4);
  tg_quantize(&graph, tb, 0.25f, 1);
  ck_assert(!generic_check(&graph, 0, reason));
  ck_assert_str_eq(reason, "input and output quantization differ (needs a requantizing kernel)");
  tg_free(&graph);
}
END_TEST

START_TEST(reshape_squeeze_expand) {
  int16_t values[6] = {1, -2, 3, -4, 5, -6};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, TFLACCEL_DTYPE_INT16, 2, (int32_t[]){2, 3}, values);
  uint32_t tshape = tg_const(&graph, I32, 1, (int32_t[]){3}, (int32_t[]){3, -1, 1});
  uint32_t t1 = tg_tensor(&graph, TFLACCEL_DTYPE_INT16, 3, (int32_t[]){3, 2, 1});
  uint32_t t2 = tg_tensor(&graph, TFLACCEL_DTYPE_INT16, 2, (int32_t[]){3, 2});
  uint32_t taxis = tg_const(&graph, I32, 0, NULL, (int32_t[]){0});
  uint32_t t3 = tg_tensor(&graph, TFLACCEL_DTYPE_INT16, 3, (int32_t[]){1, 3, 2});
  tg_op(&graph, TFLACCEL_OP_RESHAPE, 2, (uint32_t[]){tin, tshape}, 1, (uint32_t[]){t1});
  tg_op(&graph, TFLACCEL_OP_SQUEEZE, 1, (uint32_t[]){t1}, 1, (uint32_t[]){t2});
  tg_op(&graph, TFLACCEL_OP_EXPAND_DIMS, 2, (uint32_t[]){t2, taxis}, 1, (uint32_t[]){t3});
  tg_run_ok(&graph, 1);
  ck_assert_mem_eq(tg_result(&graph, t3), values, sizeof values);
  tg_free(&graph);
}
END_TEST

START_TEST(pad_and_padv2) {
  /* [1,2,3,1] padded by rows (1,0) and columns (0,2). */
  float in[6] = {1, 2, 3, 4, 5, 6};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 2, 3, 1}, in);
  int32_t paddings[8] = {0, 0, 1, 0, 0, 2, 0, 0};
  uint32_t tpad = tg_const(&graph, I32, 2, (int32_t[]){4, 2}, paddings);
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 3, 5, 1});
  tg_op(&graph, TFLACCEL_OP_PAD, 2, (uint32_t[]){tin, tpad}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  const float expected[15] = {0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0};
  tg_assert_floats(tg_result(&graph, tout), expected, 15, 0);
  tg_free(&graph);

  /* PADV2 on int32 with int64 paddings and the value 9. */
  int32_t values[2] = {-1, -2};
  int64_t paddings64[2] = {2, 1};
  tg_init(&graph);
  tin = tg_input(&graph, I32, 1, (int32_t[]){2}, values);
  tpad = tg_const(&graph, TFLACCEL_DTYPE_INT64, 2, (int32_t[]){1, 2}, paddings64);
  uint32_t tvalue = tg_const(&graph, I32, 0, NULL, (int32_t[]){9});
  tout = tg_tensor(&graph, I32, 1, (int32_t[]){5});
  tg_op(&graph, TFLACCEL_OP_PADV2, 3, (uint32_t[]){tin, tpad, tvalue}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  const int32_t expected_v2[5] = {9, 9, -1, -2, 9};
  ck_assert_mem_eq(tg_result(&graph, tout), expected_v2, sizeof expected_v2);
  tg_free(&graph);

  /* A uint8 tensor with zero point 128 pads with 128: not a byte zero. */
  uint8_t q[2] = {1, 2};
  tg_init(&graph);
  tin = tg_input(&graph, TFLACCEL_DTYPE_UINT8, 1, (int32_t[]){2}, q);
  tpad = tg_const(&graph, I32, 2, (int32_t[]){1, 2}, (int32_t[]){1, 1});
  tout = tg_tensor(&graph, TFLACCEL_DTYPE_UINT8, 1, (int32_t[]){4});
  tg_quantize(&graph, tin, 0.1f, 128);
  tg_quantize(&graph, tout, 0.1f, 128);
  tg_op(&graph, TFLACCEL_OP_PAD, 2, (uint32_t[]){tin, tpad}, 1, (uint32_t[]){tout});
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!generic_check(&graph, 0, reason));
  ck_assert_str_eq(reason,
                   "PAD: a quantized tensor with zero point 128 pads with its zero point "
                   "(quantized kernel)");
  tg_free(&graph);
}
END_TEST

typedef struct slice_case {
  uint32_t rank;
  int32_t dims[3];
  uint32_t spec;
  int32_t begin[3], end[3], strides[3];
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask, offset;
  uint32_t out_rank;
  int32_t out_dims[3];
  float expected[24];
} slice_case;

START_TEST(strided_slice_masks) {
  /* Inputs hold their flat index: v = 4r + c for [3,4], 12a + 4b + c for [2,3,4]. */
  const slice_case cases[] = {
      {2, {3, 4}, 2, {1, 0}, {3, 4}, {1, 2}, 0, 0, 0, 0, 0, 0, 2, {2, 2}, {4, 6, 8, 10}},
      /* Both axes reversed: rows from -1 down past -4, columns via end_mask. */
      {2, {3, 4}, 2, {-1, -1}, {-4, 0}, {-1, -1}, 0, 2, 0, 0, 0, 0, 2, {3, 4},
       {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {2, {3, 4}, 2, {1, 0}, {2, 4}, {1, 1}, 0, 0, 0, 0, 1, 0, 1, {4}, {4, 5, 6, 7}},
      {2, {3, 4}, 2, {-1, 0}, {0, 4}, {1, 1}, 0, 0, 0, 0, 1, 0, 1, {4}, {8, 9, 10, 11}},
      {2, {3, 4}, 2, {2, 1}, {3, 3}, {1, 1}, 1, 0, 0, 0, 0, 0, 2, {3, 2}, {1, 2, 5, 6, 9, 10}},
      /* [..., 1:3] on [2,3,4]. */
      {3, {2, 3, 4}, 2, {0, 1}, {0, 3}, {1, 1}, 0, 0, 1, 0, 0, 0, 3, {2, 3, 2},
       {1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22}},
      /* [:, newaxis, 0:2] on [3,4]. */
      {2, {3, 4}, 3, {0, 0, 0}, {0, 0, 2}, {1, 1, 1}, 1, 1, 0, 2, 0, 0, 3, {3, 1, 2},
       {0, 1, 4, 5, 8, 9}},
      /* offset: end holds sizes. */
      {2, {3, 4}, 2, {1, 1}, {2, 2}, {1, 1}, 0, 0, 0, 0, 0, 1, 2, {2, 2}, {5, 6, 9, 10}},
      /* Fewer entries than dims: the rest is taken whole. */
      {2, {3, 4}, 1, {1}, {2}, {1}, 0, 0, 0, 0, 0, 0, 2, {1, 4}, {4, 5, 6, 7}},
      {2, {3, 4}, 2, {0, 1}, {3, 4}, {2, 2}, 0, 0, 0, 0, 0, 0, 2, {2, 2}, {1, 3, 9, 11}},
      /* Begin past the end: empty. */
      {2, {3, 4}, 2, {5, 0}, {7, 4}, {1, 1}, 0, 0, 0, 0, 0, 0, 2, {0, 4}, {0}},
  };
  float input[24];
  for (int i = 0; i < 24; i++) input[i] = (float)i;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const slice_case *k = &cases[i];
    test_graph graph;
    tg_init(&graph);
    int32_t spec = (int32_t)k->spec;
    uint32_t tin = tg_input(&graph, F32, k->rank, k->dims, input);
    uint32_t tbegin = tg_const(&graph, I32, 1, &spec, k->begin);
    uint32_t tend = tg_const(&graph, I32, 1, &spec, k->end);
    uint32_t tstrides = tg_const(&graph, I32, 1, &spec, k->strides);
    uint32_t tout = tg_tensor(&graph, F32, k->out_rank, k->out_dims);
    tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_STRIDED_SLICE, 4,
                                       (uint32_t[]){tin, tbegin, tend, tstrides}, 1,
                                       (uint32_t[]){tout});
    params->strided_slice.begin_mask = k->begin_mask;
    params->strided_slice.end_mask = k->end_mask;
    params->strided_slice.ellipsis_mask = k->ellipsis_mask;
    params->strided_slice.new_axis_mask = k->new_axis_mask;
    params->strided_slice.shrink_axis_mask = k->shrink_axis_mask;
    params->strided_slice.offset = k->offset;
    char reason[TFLACCEL_REASON_SIZE];
    ck_assert_msg(tg_supported(&graph, 0, reason), "case %zu: %s", i, reason);
    tg_run_ok(&graph, 1);
    int count = 1;
    for (uint32_t d = 0; d < k->out_rank; d++) count *= k->out_dims[d];
    if (count > 0) tg_assert_floats(tg_result(&graph, tout), k->expected, count, 0);
    tg_free(&graph);
  }
}
END_TEST

START_TEST(transpose_perm) {
  float in[24];
  for (int i = 0; i < 24; i++) in[i] = (float)i;
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 3, (int32_t[]){2, 3, 4}, in);
  uint32_t tperm = tg_const(&graph, I32, 1, (int32_t[]){3}, (int32_t[]){2, 0, 1});
  uint32_t tout = tg_tensor(&graph, F32, 3, (int32_t[]){4, 2, 3});
  tg_op(&graph, TFLACCEL_OP_TRANSPOSE, 2, (uint32_t[]){tin, tperm}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  float expected[24];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 3; k++) expected[(i * 2 + j) * 3 + k] = in[(j * 3 + k) * 4 + i];
  tg_assert_floats(tg_result(&graph, tout), expected, 24, 0);
  tg_free(&graph);

  /* Rank 6, uint8, reversing the axes. */
  uint8_t bytes[64];
  for (int i = 0; i < 64; i++) bytes[i] = (uint8_t)i;
  int32_t dims[6] = {2, 1, 2, 2, 4, 2};
  tg_init(&graph);
  tin = tg_input(&graph, TFLACCEL_DTYPE_UINT8, 6, dims, bytes);
  int64_t perm[6] = {5, 4, 3, 2, 1, 0};
  tperm = tg_const(&graph, TFLACCEL_DTYPE_INT64, 1, (int32_t[]){6}, perm);
  tout = tg_tensor(&graph, TFLACCEL_DTYPE_UINT8, 6, (int32_t[]){2, 4, 2, 2, 1, 2});
  tg_op(&graph, TFLACCEL_OP_TRANSPOSE, 2, (uint32_t[]){tin, tperm}, 1, (uint32_t[]){tout});
  tg_run_ok(&graph, 1);
  const uint8_t *result = tg_result(&graph, tout);
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      for (int c = 0; c < 2; c++)
        for (int d = 0; d < 4; d++)
          for (int f = 0; f < 2; f++) {
            /* input index [a,0,b,c,d,f] -> output index [f,d,c,b,0,a] */
            int source = ((((a * 1 + 0) * 2 + b) * 2 + c) * 4 + d) * 2 + f;
            int target = ((((f * 4 + d) * 2 + c) * 2 + b) * 1 + 0) * 2 + a;
            ck_assert_uint_eq(result[target], bytes[source]);
          }
  tg_free(&graph);
}
END_TEST

START_TEST(pack_unpack) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {-1, -2, -3, -4, -5, -6};
  struct {
    int32_t axis;
    int32_t dims[3];
    float expected[12];
  } cases[] = {
      {0, {2, 2, 3}, {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6}},
      {1, {2, 2, 3}, {1, 2, 3, -1, -2, -3, 4, 5, 6, -4, -5, -6}},
      {-1, {2, 3, 2}, {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6}},
  };
  for (size_t i = 0; i < 3; i++) {
    test_graph graph;
    tg_init(&graph);
    uint32_t ta = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, a);
    uint32_t tb = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, b);
    uint32_t tout = tg_tensor(&graph, F32, 3, cases[i].dims);
    tflaccel_op_params *params =
        tg_op(&graph, TFLACCEL_OP_PACK, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){tout});
    params->pack.values_count = 2;
    params->pack.axis = cases[i].axis;
    /* Unpack it again along the same axis. */
    uint32_t ua = tg_tensor(&graph, F32, 2, (int32_t[]){2, 3});
    uint32_t ub = tg_tensor(&graph, F32, 2, (int32_t[]){2, 3});
    params = tg_op(&graph, TFLACCEL_OP_UNPACK, 1, (uint32_t[]){tout}, 2, (uint32_t[]){ua, ub});
    params->unpack.num = 2;
    params->unpack.axis = cases[i].axis;
    tg_mark_output(&graph, tout);
    tg_run_ok(&graph, 1);
    tg_assert_floats(tg_result(&graph, tout), cases[i].expected, 12, 0);
    tg_assert_floats(tg_result(&graph, ua), a, 6, 0);
    tg_assert_floats(tg_result(&graph, ub), b, 6, 0);
    tg_free(&graph);
  }
  /* UNPACK of [2,3] along axis 1 into three columns. */
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, a);
  uint32_t c0 = tg_tensor(&graph, F32, 1, (int32_t[]){2});
  uint32_t c1 = tg_tensor(&graph, F32, 1, (int32_t[]){2});
  uint32_t c2 = tg_tensor(&graph, F32, 1, (int32_t[]){2});
  tg_op(&graph, TFLACCEL_OP_UNPACK, 1, (uint32_t[]){tin}, 3, (uint32_t[]){c0, c1, c2})
      ->unpack.axis = 1;
  tg_run_ok(&graph, 1);
  tg_assert_floats(tg_result(&graph, c0), (const float[]){1, 4}, 2, 0);
  tg_assert_floats(tg_result(&graph, c1), (const float[]){2, 5}, 2, 0);
  tg_assert_floats(tg_result(&graph, c2), (const float[]){3, 6}, 2, 0);
  tg_free(&graph);
}
END_TEST

START_TEST(gather_nd) {
  float params[6] = {1, 2, 3, 4, 5, 6};
  int32_t rows[3] = {1, 0, 2};
  int64_t points[4] = {1, 0, 2, 1};
  test_graph graph;
  tg_init(&graph);
  uint32_t tp = tg_input(&graph, F32, 2, (int32_t[]){3, 2}, params);
  uint32_t trows = tg_input(&graph, I32, 2, (int32_t[]){3, 1}, rows);
  uint32_t tpoints = tg_const(&graph, TFLACCEL_DTYPE_INT64, 2, (int32_t[]){2, 2}, points);
  uint32_t t1 = tg_tensor(&graph, F32, 2, (int32_t[]){3, 2});
  uint32_t t2 = tg_tensor(&graph, F32, 1, (int32_t[]){2});
  tg_op(&graph, TFLACCEL_OP_GATHER_ND, 2, (uint32_t[]){tp, trows}, 1, (uint32_t[]){t1});
  tg_op(&graph, TFLACCEL_OP_GATHER_ND, 2, (uint32_t[]){tp, tpoints}, 1, (uint32_t[]){t2});
  tg_run_ok(&graph, 1);
  tg_assert_floats(tg_result(&graph, t1), (const float[]){3, 4, 1, 2, 5, 6}, 6, 0);
  tg_assert_floats(tg_result(&graph, t2), (const float[]){3, 6}, 2, 0);
  rows[1] = 3; /* out of range: an error at run time */
  tflaccel_status status = tg_run(&graph, 1);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_str_eq(tflaccel_status_message(status),
                   "cpu_ref execute: op #0 (GATHER_ND): index 3 is outside dim 0 of "
                   "size 3");
  tflaccel_status_free(status);
  tg_free(&graph);
}
END_TEST

START_TEST(depth_to_space_and_back) {
  float in[32];
  for (int i = 0; i < 32; i++) in[i] = (float)i;
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 2, 2, 8}, in);
  uint32_t tspace = tg_tensor(&graph, F32, 4, (int32_t[]){1, 4, 4, 2});
  uint32_t tback = tg_tensor(&graph, F32, 4, (int32_t[]){1, 2, 2, 8});
  tg_op(&graph, TFLACCEL_OP_DEPTH_TO_SPACE, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tspace})
      ->block_size.block_size = 2;
  tg_op(&graph, TFLACCEL_OP_SPACE_TO_DEPTH, 1, (uint32_t[]){tspace}, 1, (uint32_t[]){tback})
      ->block_size.block_size = 2;
  tg_mark_output(&graph, tspace);
  tg_run_ok(&graph, 1);
  float expected[32];
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++)
      for (int c = 0; c < 2; c++)
        expected[(y * 4 + x) * 2 + c] =
            in[((y / 2) * 2 + x / 2) * 8 + ((y % 2) * 2 + x % 2) * 2 + c];
  tg_assert_floats(tg_result(&graph, tspace), expected, 32, 0);
  tg_assert_floats(tg_result(&graph, tback), in, 32, 0);
  tg_free(&graph);
}
END_TEST

START_TEST(resize_bilinear_modes) {
  /* v(y, x) = 2y + x on 2x2, up to 4x4: a linear ramp, so each output is
   * 2 * ey + ex for the effective (clamped) source coordinates e. */
  float in[4] = {0, 1, 2, 3};
  const float plain[4] = {0, 0.5f, 1, 1};
  const float aligned[4] = {0, 1.0f / 3, 2.0f / 3, 1};
  const float half[4] = {0, 0.25f, 0.75f, 1};
  const float *coordinates[3] = {plain, aligned, half};
  for (int mode = 0; mode < 3; mode++) {
    test_graph graph;
    tg_init(&graph);
    uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 2, 2, 1}, in);
    uint32_t tsize = tg_const(&graph, I32, 1, (int32_t[]){2}, (int32_t[]){4, 4});
    uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 4, 4, 1});
    tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_RESIZE_BILINEAR, 2,
                                       (uint32_t[]){tin, tsize}, 1, (uint32_t[]){tout});
    params->resize.align_corners = mode == 1;
    params->resize.half_pixel_centers = mode == 2;
    tg_run_ok(&graph, 2);
    float expected[16];
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 4; x++)
        expected[y * 4 + x] = 2 * coordinates[mode][y] + coordinates[mode][x];
    tg_assert_floats(tg_result(&graph, tout), expected, 16, 1e-6f);
    tg_free(&graph);
  }
}
END_TEST

START_TEST(resize_nearest_modes) {
  /* 1x3 -> 1x5 of int32 {10, 20, 30}. */
  int32_t in[3] = {10, 20, 30};
  const int32_t expected[3][5] = {
      {10, 10, 20, 20, 30}, /* floor(o * 0.6) */
      {10, 20, 20, 30, 30}, /* round(o * 0.5), halves away from zero */
      {10, 10, 20, 30, 30}, /* floor((o + 0.5) * 0.6) */
  };
  for (int mode = 0; mode < 3; mode++) {
    test_graph graph;
    tg_init(&graph);
    uint32_t tin = tg_input(&graph, I32, 4, (int32_t[]){1, 1, 3, 1}, in);
    uint32_t tsize = tg_const(&graph, I32, 1, (int32_t[]){2}, (int32_t[]){1, 5});
    uint32_t tout = tg_tensor(&graph, I32, 4, (int32_t[]){1, 1, 5, 1});
    tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR, 2,
                                       (uint32_t[]){tin, tsize}, 1, (uint32_t[]){tout});
    params->resize.align_corners = mode == 1;
    params->resize.half_pixel_centers = mode == 2;
    tg_run_ok(&graph, 1);
    ck_assert_mem_eq(tg_result(&graph, tout), expected[mode], sizeof expected[mode]);
    tg_free(&graph);
  }
}
END_TEST

static Suite *movement_suite(void) {
  Suite *suite = suite_create("cpu_ref data movement kernels");
  TCase *tc = tcase_create("movement");
  tcase_add_test(tc, concatenation);
  tcase_add_test(tc, reshape_squeeze_expand);
  tcase_add_test(tc, pad_and_padv2);
  tcase_add_test(tc, strided_slice_masks);
  tcase_add_test(tc, transpose_perm);
  tcase_add_test(tc, pack_unpack);
  tcase_add_test(tc, gather_nd);
  tcase_add_test(tc, depth_to_space_and_back);
  tcase_add_test(tc, resize_bilinear_modes);
  tcase_add_test(tc, resize_nearest_modes);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(movement_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
