/* The int32 conformance cases (conformance_cases.h): int32 values on the
 * GPU plugins, held as exact float values where the bound proof
 * (plugins/gpu_common/gpu_int_bounds.h) allows, and GATHER_ND. The decode
 * cases are movenet's keypoint decoding in small: ARG_MAX over H * W
 * positions, row and column by FLOOR_DIV, MUL and SUB, PACK and
 * CONCATENATION of the indices, GATHER_ND at them. With H * W above 2048
 * the indices pass fp16's exact integers: the GPU plugins run it in fp32,
 * and in fp16 with the int32 ops from ARG_MAX on in a partition compiled
 * at fp32 (their answer's precision, ABI 1.3: CF_GPU_FP16_NEEDS_FP32). */
#include "config.h"

#include <check.h>
#include <string.h>

#include "tests/conformance/conformance_cases.h"

/* Decode: ints[0] H, ints[1] W, shape[2] C (the keypoints); the peak of
 * channel c sits at position ints[2 + c] of H * W, well above the noise,
 * so that the largest value is one in either precision. Outputs: the
 * rows and columns (int32 [1, C]) and the params gathered at (row,
 * column, c) (float [1, C]). */
static void build_decode(cf_graph *graph, const cf_case *spec) {
  int32_t h = spec->ints[0], w = spec->ints[1], c = spec->shape[2], n = h * w;
  /* The case's own data must agree with itself: H * W positions, a peak
   * inside them for each of at most 8 channels (channels[] below). */
  ck_assert_int_eq(spec->shape[1], n);
  ck_assert_int_le(c, 8);
  ck_assert_int_ge((int)spec->int_count, 2 + c);
  for (int32_t k = 0; k < c; ++k) ck_assert(spec->ints[2 + k] >= 0 && spec->ints[2 + k] < n);
  int32_t heat_dims[3] = {1, n, c}, row_dims[2] = {1, c}, one = 1, axis = 1;
  uint32_t noise = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, heat_dims, 0.0f, 0.25f);
  uint32_t peaks = cf_constant(graph, 3, heat_dims, 0.0f, 0.0f);
  float *peak = graph->data[peaks];
  memset(peak, 0, sizeof(float) * (size_t)n * (size_t)c);
  for (int32_t k = 0; k < c; ++k) peak[spec->ints[2 + k] * c + k] = 1.0f;
  uint32_t heat = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, heat_dims);
  cf_op(graph, TFLACCEL_OP_ADD, 2, (uint32_t[]){noise, peaks}, heat);
  uint32_t at = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 2, row_dims);
  cf_op(graph, TFLACCEL_OP_ARG_MAX, 2,
        (uint32_t[]){heat, cf_constant_int32(graph, 1, &one, &axis)}, at)
      ->arg.output_type = TFLACCEL_DTYPE_INT32;
  uint32_t width = cf_constant_int32(graph, 1, &one, &w);
  uint32_t row = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 2, row_dims);
  cf_op(graph, TFLACCEL_OP_FLOOR_DIV, 2, (uint32_t[]){at, width}, row);
  uint32_t row_start = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 2, row_dims);
  cf_op(graph, TFLACCEL_OP_MUL, 2, (uint32_t[]){row, width}, row_start);
  uint32_t column = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 2, row_dims);
  cf_op(graph, TFLACCEL_OP_SUB, 2, (uint32_t[]){at, row_start}, column);
  int32_t pair_dims[3] = {1, c, 2}, channel_dims[3] = {1, c, 1}, index_dims[3] = {1, c, 3};
  uint32_t pair = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 3, pair_dims);
  cf_op(graph, TFLACCEL_OP_PACK, 2, (uint32_t[]){row, column}, pair)->pack =
      (tflaccel_pack_params){2, 2};
  int32_t channels[8];
  for (int32_t k = 0; k < c; ++k) channels[k] = k;
  uint32_t index = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 3, index_dims);
  cf_op(graph, TFLACCEL_OP_CONCATENATION, 2,
        (uint32_t[]){pair, cf_constant_int32(graph, 3, channel_dims, channels)}, index)
      ->concatenation = (tflaccel_concatenation_params){2, TFLACCEL_ACT_NONE};
  int32_t params_dims[3] = {h, w, c};
  uint32_t params = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, params_dims, -2.0f, 2.0f);
  uint32_t gathered = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, row_dims);
  cf_op(graph, TFLACCEL_OP_GATHER_ND, 2, (uint32_t[]){params, index}, gathered);
  cf_output(graph, row);
  cf_output(graph, column);
  cf_output(graph, gathered);
}

/* ARG_MAX (ARG_MIN) over axis 1 of MAXIMUM (MINIMUM) of noise in
 * [0, 0.25) and a constant of 0 but 1 (-1) at positions ints[1 + 2c] and
 * ints[2 + 2c] of channel c: two exactly equal extremes in any precision,
 * so only the first index is right. shape {1, N, C}; on the GPU, axes of
 * 64 and more are split over a work group (ops/arg_max.c), where a tie's
 * later position may fall to an earlier item. */
static void build_arg_ties(cf_graph *graph, const cf_case *spec) {
  int32_t n = spec->shape[1], c = spec->shape[2], one = 1, axis = 1;
  int32_t dims[3] = {1, n, c}, out_dims[2] = {1, c};
  int is_min = spec->op == TFLACCEL_OP_ARG_MIN;
  /* Two extremes inside the axis for every channel. */
  ck_assert_int_ge((int)spec->int_count, 1 + 2 * c);
  for (int32_t k = 0; k < 2 * c; ++k) ck_assert(spec->ints[1 + k] >= 0 && spec->ints[1 + k] < n);
  uint32_t noise = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, dims, 0.0f, 0.25f);
  uint32_t peaks = cf_constant(graph, 3, dims, 0.0f, 0.0f);
  float *peak = graph->data[peaks];
  memset(peak, 0, sizeof(float) * (size_t)n * (size_t)c);
  for (int32_t k = 0; k < c; ++k)
    for (int32_t i = 0; i < 2; ++i) peak[spec->ints[1 + 2 * k + i] * c + k] = is_min ? -1.0f : 1.0f;
  uint32_t values = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, dims);
  cf_op(graph, is_min ? TFLACCEL_OP_MINIMUM : TFLACCEL_OP_MAXIMUM, 2,
        (uint32_t[]){noise, peaks}, values);
  uint32_t at = cf_tensor(graph, TFLACCEL_DTYPE_INT32, 2, out_dims);
  cf_op(graph, spec->op, 2, (uint32_t[]){values, cf_constant_int32(graph, 1, &one, &axis)}, at)
      ->arg.output_type = TFLACCEL_DTYPE_INT32;
  cf_output(graph, at);
}

/* GATHER_ND of the main input at constant indices: int_count values of
 * shape2 (its last dim the index depth). */
static void build_gather_nd(cf_graph *graph, const cf_case *spec) {
  uint32_t params = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -2.0f, 2.0f);
  uint32_t indices = cf_constant_int32(graph, spec->rank2, spec->shape2, spec->ints);
  int32_t depth = spec->shape2[spec->rank2 - 1], dims[4];
  /* Every index inside the params' dims it addresses. */
  ck_assert(depth >= 1 && (uint32_t)depth <= spec->rank);
  for (uint32_t i = 0; i < spec->int_count; ++i)
    ck_assert(spec->ints[i] >= 0 && spec->ints[i] < spec->shape[i % (uint32_t)depth]);
  uint32_t rank = 0;
  for (uint32_t d = 0; d + 1 < spec->rank2; ++d) dims[rank++] = spec->shape2[d];
  for (uint32_t d = (uint32_t)depth; d < spec->rank; ++d) dims[rank++] = spec->shape[d];
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, rank, dims);
  cf_op(graph, TFLACCEL_OP_GATHER_ND, 2, (uint32_t[]){params, indices}, output);
  cf_output(graph, output);
}

const cf_case cf_int_cases[] = {
    {.name = "int32 decode of arg max over 50x60", .build = build_decode,
     .op = TFLACCEL_OP_GATHER_ND, .shape = {1, 3000, 5}, .int_count = 7,
     .ints = {50, 60, 2999, 2100, 2049, 61, 0}, .flags = CF_GPU_RUNS | CF_GPU_FP16_NEEDS_FP32},
    {.name = "int32 decode of arg max over 12x16", .build = build_decode,
     .op = TFLACCEL_OP_GATHER_ND, .shape = {1, 192, 4}, .int_count = 6,
     .ints = {12, 16, 191, 100, 17, 0}, .flags = CF_GPU_RUNS},
    {.name = "gather nd rows", .build = build_gather_nd, .op = TFLACCEL_OP_GATHER_ND, .rank = 3,
     .shape = {5, 6, 7}, .rank2 = 2, .shape2 = {4, 1}, .int_count = 4, .ints = {4, 0, 2, 2},
     .flags = CF_GPU_RUNS},
    {.name = "gather nd pixels of rank 4", .build = build_gather_nd, .op = TFLACCEL_OP_GATHER_ND,
     .rank = 4, .shape = {2, 5, 6, 9}, .rank2 = 2, .shape2 = {3, 3}, .int_count = 9,
     .ints = {1, 4, 5, 0, 0, 0, 1, 2, 3}, .flags = CF_GPU_RUNS},
    {.name = "gather nd elements", .build = build_gather_nd, .op = TFLACCEL_OP_GATHER_ND,
     .rank = 2, .shape = {17, 17}, .rank2 = 3, .shape2 = {2, 2, 2}, .int_count = 8,
     .ints = {16, 16, 0, 3, 7, 7, 9, 1}, .flags = CF_GPU_RUNS},
    {.name = "arg max over 3000 with ties", .build = build_arg_ties, .op = TFLACCEL_OP_ARG_MAX,
     .shape = {1, 3000, 3}, .int_count = 7, .ints = {0, 2049, 130, 5, 2999, 1500, 1501},
     .flags = CF_GPU_RUNS | CF_GPU_FP16_NEEDS_FP32},
    {.name = "arg min over 100 with ties", .build = build_arg_ties, .op = TFLACCEL_OP_ARG_MIN,
     .shape = {1, 100, 5}, .int_count = 11,
     .ints = {0, 99, 64, 1, 65, 0, 63, 98, 97, 50, 51}, .flags = CF_GPU_RUNS},
};
const uint32_t cf_int_case_count = sizeof cf_int_cases / sizeof cf_int_cases[0];
