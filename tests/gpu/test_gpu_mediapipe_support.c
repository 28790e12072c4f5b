/* The GPU layer's rules for MediaPipe's transform custom ops
 * (plugins/gpu_common/ops/mediapipe_transform.c): what it takes, and the
 * one-line reason for what it declines, including the options that the
 * facts library reads for cpu_ref and the GPU layer alike. No device is
 * needed: this is the support query, not the kernels (the conformance
 * suite runs those). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_support.h"
#include "tests/support/flexbuffer_vectors.h"

#define F32 TFLACCEL_DTYPE_FLOAT32

/* A one-op graph: tensors 0..input_count-1 the inputs, the last the output. */
typedef struct one_op {
  tflaccel_tensor_desc tensors[3];
  int32_t dims[3][4];
  uint32_t inputs[2], output;
  tflaccel_op_params params;
  tflaccel_op_desc op;
  tflaccel_graph_view graph;
} one_op;

static void set_tensor(one_op *g, uint32_t index, uint32_t rank, const int32_t *dims) {
  tflaccel_tensor_desc *t = &g->tensors[index];
  memset(t, 0, sizeof *t);
  t->struct_size = sizeof *t;
  t->dtype = F32;
  t->rank = rank;
  memcpy(g->dims[index], dims, rank * sizeof dims[0]);
  t->dims = g->dims[index];
  t->name = "";
  int64_t count = 1;
  for (uint32_t i = 0; i < rank; ++i) count *= dims[i];
  t->byte_size = (uint64_t)count * 4;
}

static void build(one_op *g, const char *custom_code, uint32_t input_count,
                  const void *options, size_t options_size) {
  memset(&g->params, 0, sizeof g->params);
  memset(&g->op, 0, sizeof g->op);
  for (uint32_t i = 0; i < input_count; ++i) g->inputs[i] = i;
  g->output = input_count;
  g->op.struct_size = sizeof g->op;
  g->op.code = TFLACCEL_OP_CUSTOM;
  g->op.version = 1;
  g->op.custom_code = custom_code;
  g->op.custom_options = options;
  g->op.custom_options_size = (uint32_t)options_size;
  g->op.params = &g->params;
  g->op.input_count = input_count;
  g->op.output_count = 1;
  g->op.inputs = g->inputs;
  g->op.outputs = &g->output;
  g->graph = (tflaccel_graph_view){sizeof g->graph, input_count + 1, g->tensors, 1, &g->op};
}

/* 1, or 0 with the reason in reason. */
static int supported(one_op *g, char reason[TFLACCEL_REASON_SIZE]) {
  reason[0] = '\0';
  return gpu_op_supported(&g->graph, 0, TFLACCEL_PRECISION_FP32, "gpu_test", reason,
                          TFLACCEL_REASON_SIZE);
}

/* l2tm_options (tests/support): rotation landmarks 0 and 1, subset
 * {2, 3, 300}. */
static int l2tm(int32_t landmarks, const void *options, size_t options_size,
                char reason[TFLACCEL_REASON_SIZE]) {
  one_op g;
  set_tensor(&g, 0, 3, (const int32_t[]){1, landmarks, 3});
  set_tensor(&g, 1, 3, (const int32_t[]){1, 4, 4});
  build(&g, "Landmarks2TransformMatrix", 1, options, options_size);
  return supported(&g, reason);
}

START_TEST(landmarks_to_transform_matrix_rules) {
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert_msg(l2tm(301, l2tm_options, sizeof l2tm_options, reason), "%s", reason);
  /* The facts library's reasons, as cpu_ref gives them. */
  ck_assert_int_eq(l2tm(300, l2tm_options, sizeof l2tm_options, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: Landmarks2TransformMatrix: subset_idxs[2] is not a "
                           "landmark index below 300");
  ck_assert_int_eq(l2tm(301, posenet_options, sizeof posenet_options, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: Landmarks2TransformMatrix: version 1 options (no "
                           "subset_idxs) are not supported");
  ck_assert_int_eq(l2tm(301, NULL, 0, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: Landmarks2TransformMatrix: custom options are not a "
                           "flexbuffer map");
  /* The GPU layer's own limit: indices held as float values. */
  ck_assert_int_eq(l2tm(4096, l2tm_options, sizeof l2tm_options, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: Landmarks2TransformMatrix has 4096 landmarks: the GPU "
                           "layer holds their indices as float values, exact in fp16 only up "
                           "to 2048");
}
END_TEST

START_TEST(transform_ops_rules) {
  char reason[TFLACCEL_REASON_SIZE];
  one_op g;
  /* TransformTensorBilinear: [1, H, W, C] through a [1, 4, 4] matrix. */
  set_tensor(&g, 0, 4, (const int32_t[]){1, 12, 10, 5});
  set_tensor(&g, 1, 3, (const int32_t[]){1, 4, 4});
  set_tensor(&g, 2, 4, (const int32_t[]){1, 8, 6, 5});
  build(&g, "TransformTensorBilinear", 2, NULL, 0);
  ck_assert_msg(supported(&g, reason), "%s", reason);
  set_tensor(&g, 2, 4, (const int32_t[]){1, 8, 6, 4});
  ck_assert_int_eq(supported(&g, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: TransformTensorBilinear: output has 4 channels, input 5");
  set_tensor(&g, 2, 4, (const int32_t[]){1, 8, 6, 5});
  set_tensor(&g, 1, 2, (const int32_t[]){2, 8});
  ck_assert_int_eq(supported(&g, reason), 0);
  ck_assert_str_eq(reason,
                   "gpu_test: TransformTensorBilinear matrix must be [1, 4, 4] (a 4x4 matrix)");

  /* TransformLandmarks: version 2 only ([1, N, D]). */
  set_tensor(&g, 0, 3, (const int32_t[]){1, 9, 2});
  set_tensor(&g, 1, 3, (const int32_t[]){1, 4, 4});
  set_tensor(&g, 2, 3, (const int32_t[]){1, 9, 2});
  build(&g, "TransformLandmarks", 2, NULL, 0);
  ck_assert_msg(supported(&g, reason), "%s", reason);
  set_tensor(&g, 0, 4, (const int32_t[]){1, 1, 9, 2});
  set_tensor(&g, 2, 4, (const int32_t[]){1, 1, 9, 2});
  ck_assert_int_eq(supported(&g, reason), 0);
  ck_assert_str_eq(reason, "gpu_test: TransformLandmarks landmarks must be [1, N, 2 or 3] "
                           "(version 2)");
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_mediapipe_support");
  TCase *test_case = tcase_create("support");
  tcase_add_test(test_case, landmarks_to_transform_matrix_rules);
  tcase_add_test(test_case, transform_ops_rules);
  suite_add_tcase(suite, test_case);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
