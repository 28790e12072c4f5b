/* Load-time folding: float16 DEQUANTIZE and DENSIFY of constants. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/half.h"
#include "core/graph/model.h"
#include "tests/model/test_support.h"
#include "tests/model/tflite_builder.h"
#include "tflaccel/tflaccel.h"

static tflaccel_model *load(tb_model *builder, tflaccel_status *status) {
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_ptr_nonnull(bytes);
  tflaccel_model *model = NULL;
  *status = tflaccel_model_load_memory(bytes, size, &model);
  free(bytes);
  tb_destroy(builder);
  return model;
}

static tflaccel_model *load_ok(tb_model *builder) {
  tflaccel_status status;
  tflaccel_model *model = load(builder, &status);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_ptr_null(test_model_consistency(model));
  return model;
}

/* The value of a half, computed the slow way. */
static float reference_half(uint16_t half) {
  int sign = half >> 15, exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  float magnitude;
  if (exponent == 0) magnitude = ldexpf((float)mantissa, -24);
  else if (exponent == 31) magnitude = mantissa ? NAN : INFINITY;
  else magnitude = ldexpf((float)(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

START_TEST(every_half_converts_exactly) {
  for (uint32_t half = 0; half <= 0xffff; ++half) {
    float got = half_to_float((uint16_t)half), want = reference_half((uint16_t)half);
    if (isnan(want)) {
      ck_assert_msg(isnan(got), "half 0x%04x", half);
    } else {
      ck_assert_msg(got == want && signbit(got) == signbit(want), "half 0x%04x: %g, want %g",
                    half, got, want);
    }
  }
}
END_TEST

/* x [1,4] + DEQUANTIZE(w float16 [1,4]) -> y. */
static tb_model *dequantize_model(int dequantized_is_output) {
  tb_model *builder = tb_create();
  uint16_t halves[4] = {0x3c00 /* 1 */, 0xc000 /* -2 */, 0x0001 /* 2^-24 */, 0x7bff /* 65504 */};
  uint32_t buffer = tb_buffer(builder, halves, sizeof halves);
  int32_t shape[] = {1, 4};
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_tensor(builder, "w16", TFLACCEL_DTYPE_FLOAT16, 2, shape, buffer);
  tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_op(builder, tb_opcode(builder, TFLACCEL_OP_DEQUANTIZE, NULL), 1, (int32_t[]){1}, 1,
        (int32_t[]){2});
  tb_op(builder, tb_opcode(builder, TFLACCEL_OP_ADD, NULL), 2, (int32_t[]){0, 2}, 1,
        (int32_t[]){3});
  tb_inputs(builder, 1, (int32_t[]){0});
  if (dequantized_is_output) tb_outputs(builder, 2, (int32_t[]){3, 2});
  else tb_outputs(builder, 1, (int32_t[]){3});
  return builder;
}

START_TEST(float16_dequantize_folds) {
  tflaccel_model *model = load_ok(dequantize_model(0));
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  ck_assert_uint_eq(graph->op_count, 1);
  ck_assert_int_eq(graph->ops[0].code, TFLACCEL_OP_ADD);
  ck_assert_uint_eq(model_prepared_op_source(model, 0), 1);
  const tflaccel_tensor_desc *w = &graph->tensors[2];
  ck_assert(w->flags & TFLACCEL_TENSOR_CONSTANT);
  ck_assert_int_eq(w->dtype, TFLACCEL_DTYPE_FLOAT32);
  ck_assert_uint_eq(w->data_size, 16);
  ck_assert_uint_eq(w->byte_size, 16);
  const float *values = w->data;
  ck_assert_float_eq(values[0], 1.0f);
  ck_assert_float_eq(values[1], -2.0f);
  ck_assert_float_eq(values[2], ldexpf(1.0f, -24));
  ck_assert_float_eq(values[3], 65504.0f);
  ck_assert_int_eq(model_tensor_producer(model, 2), -1);
  ck_assert_int_eq(model_tensor_producer(model, 3), 0);
  uint32_t count;
  const uint32_t *consumers = model_tensor_consumers(model, 2, &count);
  ck_assert_uint_eq(count, 1);
  ck_assert_uint_eq(consumers[0], 0);
  /* The float16 source is unused now: nothing reads it. */
  model_tensor_consumers(model, 1, &count);
  ck_assert_uint_eq(count, 0);
  /* The stored model is unchanged. */
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  ck_assert_uint_eq(summary.op_count, 2);
  ck_assert_uint_eq(summary.weight_bytes, 8);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(a_dequantized_graph_output_stays_an_op) {
  tflaccel_model *model = load_ok(dequantize_model(1));
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  ck_assert_uint_eq(graph->op_count, 2);
  ck_assert_int_eq(graph->ops[0].code, TFLACCEL_OP_DEQUANTIZE);
  ck_assert(!(graph->tensors[2].flags & TFLACCEL_TENSOR_CONSTANT));
  tflaccel_model_destroy(model);
}
END_TEST

/* The dense 4x4 matrix the sparse tests encode. */
static const float dense_matrix[16] = {
  1, 0, 0, 2,
  0, 0, 0, 0,
  0, 3, 4, 0,
  5, 0, 0, 6,
};

/* sparse (4x4, dtype) -> DENSIFY -> [DEQUANTIZE ->] ADD with x. */
static tb_model *densify_model(int8_t dtype, const void *values, size_t values_size,
                               uint32_t levels, const int32_t *order, uint32_t blocks,
                               const int32_t *block_map, const tb_dimension *dimensions) {
  tb_model *builder = tb_create();
  int32_t shape[] = {4, 4};
  uint32_t buffer = tb_buffer(builder, values, values_size);
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  uint32_t sparse = tb_tensor(builder, "sparse", dtype, 2, shape, buffer);
  tb_tensor_sparsity(builder, sparse, levels, order, blocks, block_map, dimensions);
  tb_tensor(builder, "dense", dtype, 2, shape, 0);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_op(builder, tb_opcode(builder, TFLACCEL_OP_DENSIFY, NULL), 1, (int32_t[]){1}, 1,
        (int32_t[]){2});
  uint32_t add = tb_opcode(builder, TFLACCEL_OP_ADD, NULL);
  if (dtype == TFLACCEL_DTYPE_FLOAT16) {
    tb_tensor(builder, "dense32", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
    tb_op(builder, tb_opcode(builder, TFLACCEL_OP_DEQUANTIZE, NULL), 1, (int32_t[]){2}, 1,
          (int32_t[]){4});
    tb_op(builder, add, 2, (int32_t[]){0, 4}, 1, (int32_t[]){3});
  } else {
    tb_op(builder, add, 2, (int32_t[]){0, 2}, 1, (int32_t[]){3});
  }
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){3});
  return builder;
}

static void expect_dense(tflaccel_model *model, uint32_t tensor) {
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  ck_assert_uint_eq(graph->op_count, 1);
  ck_assert_int_eq(graph->ops[0].code, TFLACCEL_OP_ADD);
  const tflaccel_tensor_desc *dense = &graph->tensors[tensor];
  ck_assert(dense->flags & TFLACCEL_TENSOR_CONSTANT);
  ck_assert_int_eq(dense->dtype, TFLACCEL_DTYPE_FLOAT32);
  ck_assert_uint_eq(dense->data_size, sizeof dense_matrix);
  ck_assert_mem_eq(dense->data, dense_matrix, sizeof dense_matrix);
}

/* Row-major CSR: rows dense, columns sparse. */
static const uint8_t csr_segments[] = {0, 2, 2, 4, 6};
static const uint8_t csr_indices[] = {0, 3, 1, 2, 0, 3};

START_TEST(csr_densify_folds) {
  float values[] = {1, 2, 3, 4, 5, 6};
  tb_dimension dimensions[] = {
    {0, 4, 0, NULL, 0, NULL, 0},
    {1, 0, 3, csr_segments, 5, csr_indices, 6},
  };
  tflaccel_model *model = load_ok(densify_model(TFLACCEL_DTYPE_FLOAT32, values, sizeof values, 2,
                                                (int32_t[]){0, 1}, 0, NULL, dimensions));
  expect_dense(model, 2);
  /* The sparse tensor itself says it is sparse. */
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_model_tensor_info(model, 1, &info));
  ck_assert_int_eq(info.is_sparse, 1);
  ck_assert_int_eq(info.is_constant, 1);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(column_major_int32_indices_densify) {
  /* Traversal order (1, 0): columns dense, rows sparse, int32 indices. */
  float values[] = {1, 5, 3, 4, 2, 6};
  int32_t segments[] = {0, 2, 3, 4, 6};
  int32_t indices[] = {0, 3, 2, 2, 0, 3};
  tb_dimension dimensions[] = {
    {0, 4, 0, NULL, 0, NULL, 0},
    {1, 0, 1, segments, 5, indices, 6},
  };
  tflaccel_model *model = load_ok(densify_model(TFLACCEL_DTYPE_FLOAT32, values, sizeof values, 2,
                                                (int32_t[]){1, 0}, 0, NULL, dimensions));
  expect_dense(model, 2);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(block_sparse_float16_densifies_then_dequantizes) {
  /* 2x2 blocks: block rows dense (2), block columns sparse (uint16), then
   * each block's 2x2 values dense. Every block holds a non-zero:
   * rows 0-1 x cols 0-1 = [1 0; 0 0], rows 0-1 x cols 2-3 = [0 2; 0 0],
   * rows 2-3 x cols 0-1 = [0 3; 5 0], rows 2-3 x cols 2-3 = [4 0; 0 6]. */
  uint16_t halves[] = {0x3c00, 0, 0, 0,       /* 1 0 0 0 */
                       0, 0x4000, 0, 0,       /* 0 2 0 0 */
                       0, 0x4200, 0x4500, 0,  /* 0 3 5 0 */
                       0x4400, 0, 0, 0x4600}; /* 4 0 0 6 */
  uint16_t segments[] = {0, 2, 4};
  uint16_t indices[] = {0, 1, 0, 1};
  tb_dimension dimensions[] = {
    {0, 2, 0, NULL, 0, NULL, 0},
    {1, 0, 2, segments, 3, indices, 4},
    {0, 2, 0, NULL, 0, NULL, 0},
    {0, 2, 0, NULL, 0, NULL, 0},
  };
  tflaccel_model *model =
      load_ok(densify_model(TFLACCEL_DTYPE_FLOAT16, halves, sizeof halves, 4,
                            (int32_t[]){0, 1, 2, 3}, 2, (int32_t[]){0, 1}, dimensions));
  expect_dense(model, 4);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(bad_sparse_indices_are_caught) {
  float values[] = {1, 2, 3, 4, 5, 6};
  static const uint8_t bad_indices[] = {0, 3, 1, 2, 0, 4}; /* column 4 of 4 */
  tb_dimension dimensions[] = {
    {0, 4, 0, NULL, 0, NULL, 0},
    {1, 0, 3, csr_segments, 5, bad_indices, 6},
  };
  tflaccel_status status;
  tflaccel_model *model = load(densify_model(TFLACCEL_DTYPE_FLOAT32, values, sizeof values, 2,
                                             (int32_t[]){0, 1}, 0, NULL, dimensions), &status);
  ck_assert_ptr_null(model);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status),
                               "op 0 (DENSIFY) of tensor 1 ('sparse'): level 1: index 4 is outside"));
  tflaccel_status_free(status);

  static const uint8_t falling_segments[] = {0, 2, 1, 4, 6};
  tb_dimension falling[] = {
    {0, 4, 0, NULL, 0, NULL, 0},
    {1, 0, 3, falling_segments, 5, csr_indices, 6},
  };
  model = load(densify_model(TFLACCEL_DTYPE_FLOAT32, values, sizeof values, 2, (int32_t[]){0, 1},
                             0, NULL, falling), &status);
  ck_assert_ptr_null(model);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "array_segments entry 2 (1)"));
  tflaccel_status_free(status);

  /* Fewer values than the indices address. */
  model = load(densify_model(TFLACCEL_DTYPE_FLOAT32, values, 5 * sizeof(float), 2,
                             (int32_t[]){0, 1}, 0, NULL,
                             (tb_dimension[]){{0, 4, 0, NULL, 0, NULL, 0},
                                              {1, 0, 3, csr_segments, 5, csr_indices, 6}}),
               &status);
  ck_assert_ptr_null(model);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "more than the 5 stored values"));
  tflaccel_status_free(status);
}
END_TEST

/* The real sparse models: everything folds and the graph still validates. */
START_TEST(sparse_mediapipe_models_fold) {
  const char *dir = test_shared_models("the sparse MediaPipe models");
  if (dir == NULL) return;
  const char *names[] = {"face_detection_full_range_sparse.tflite", "pose_detection.tflite"};
  for (size_t i = 0; i < 2; ++i) {
    char *path = test_join(dir, names[i]);
    tflaccel_model *model = NULL;
    tflaccel_status status = tflaccel_model_load_file(path, &model);
    ck_assert_msg(status == NULL, "%s: %s", path, tflaccel_status_message(status));
    ck_assert_ptr_null(test_model_consistency(model));
    const tflaccel_graph_view *graph = model_prepared_graph(model);
    uint32_t folded_sparse = 0;
    for (uint32_t p = 0; p < graph->op_count; ++p) {
      ck_assert_int_ne(graph->ops[p].code, TFLACCEL_OP_DENSIFY);
      ck_assert_int_ne(graph->ops[p].code, TFLACCEL_OP_DEQUANTIZE);
      for (uint32_t k = 0; k < graph->ops[p].input_count; ++k) {
        uint32_t t = graph->ops[p].inputs[k];
        if (t == TFLACCEL_NO_TENSOR || !(graph->tensors[t].flags & TFLACCEL_TENSOR_CONSTANT))
          continue;
        const tflaccel_tensor_desc *desc = &graph->tensors[t];
        /* Every constant an op reads is plain: float32 weights whose data
         * is exactly their size. */
        ck_assert_uint_eq(desc->data_size, desc->byte_size);
        tflaccel_tensor_info info = {.struct_size = sizeof info};
        ck_assert_ptr_null(tflaccel_model_tensor_info(model, t, &info));
        if (!info.is_constant) {
          ck_assert_int_eq(desc->dtype, TFLACCEL_DTYPE_FLOAT32);
          ++folded_sparse;
        }
      }
    }
    ck_assert_uint_gt(folded_sparse, 0);
    tflaccel_model_destroy(model);
    free(path);
  }
}
END_TEST

int main(void) {
  Suite *suite = suite_create("model_fold");
  TCase *cases = tcase_create("fold");
  tcase_add_test(cases, every_half_converts_exactly);
  tcase_add_test(cases, float16_dequantize_folds);
  tcase_add_test(cases, a_dequantized_graph_output_stays_an_op);
  tcase_add_test(cases, csr_densify_folds);
  tcase_add_test(cases, column_major_int32_indices_densify);
  tcase_add_test(cases, block_sparse_float16_densifies_then_dequantizes);
  tcase_add_test(cases, bad_sparse_indices_are_caught);
  tcase_add_test(cases, sparse_mediapipe_models_fold);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
