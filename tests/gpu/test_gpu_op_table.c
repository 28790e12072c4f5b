/* The GPU layer's op table (plugins/gpu_common/ops/op_table.c): every op
 * it finds a builder for can be both asked about and lowered, the builder
 * found is the op's own, ops without one are declined with the reason
 * that says so, and only the ops whose kernels read through a fused PAD
 * say they do (the lowering driver fuses a PAD on that word alone). No
 * device is needed: this is the table, not the kernels. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/op_names.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_support.h"

/* Beyond every TFLite builtin op code. */
#define LAST_CODE 255

static tflaccel_op_desc op_of(int32_t code, const char *custom_code) {
  static const tflaccel_op_params params;
  tflaccel_op_desc op;
  memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.code = code;
  op.custom_code = custom_code;
  op.params = &params;
  return op;
}

static void check_builder_of(const tflaccel_op_desc *op) {
  const gpu_op_builder *builder = gpu_op_builder_find(op);
  if (builder == NULL) return;
  ck_assert_int_eq(builder->code, op->code);
  /* Messages name the op by the facts library's table. */
  const char *name = op->code == TFLACCEL_OP_CUSTOM ? op->custom_code : op_code_name(op->code);
  ck_assert_ptr_nonnull(name);
  ck_assert_msg(builder->supports != NULL && builder->lower != NULL,
                "%s can be asked about but not lowered, or the reverse", name);
  ck_assert_msg(builder->min_inputs <= builder->max_inputs && builder->outputs >= 1,
                "%s: arity [%u, %u] -> %u", name, builder->min_inputs, builder->max_inputs,
                builder->outputs);
  ck_assert(builder->values == GPU_VALUES_FLOAT32 ||
            builder->values == GPU_VALUES_FLOAT32_OR_BOOL || builder->values == GPU_VALUES_BOOL);
  if (op->code == TFLACCEL_OP_CUSTOM) ck_assert_str_eq(builder->custom_code, op->custom_code);
}

START_TEST(every_builder_found_is_complete_and_the_ops_own) {
  int found = 0;
  for (int32_t code = 0; code <= LAST_CODE; ++code) {
    tflaccel_op_desc op = op_of(code, NULL);
    check_builder_of(&op);
    found += gpu_op_builder_find(&op) != NULL;
  }
  /* The builtin ops gpu_common runs (README: every float model of
   * ../shared/models, QUANTIZE and DEQUANTIZE of the float view, and the
   * ops the corpus needed: TRANSPOSE, PACK, UNPACK, ARG_MAX, ARG_MIN, CAST,
   * UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF, GATHER_ND); a change here is a change of
   * what it runs. */
  ck_assert_int_eq(found, 48);
  /* The custom ops it runs: MediaPipe's transposed convolution and its
   * three transform ops. */
  static const char *const custom_codes[] = {GPU_CUSTOM_TRANSPOSE_CONV_BIAS,
                                             "Landmarks2TransformMatrix",
                                             "TransformTensorBilinear", "TransformLandmarks"};
  for (size_t i = 0; i < sizeof custom_codes / sizeof custom_codes[0]; ++i) {
    tflaccel_op_desc custom = op_of(TFLACCEL_OP_CUSTOM, custom_codes[i]);
    check_builder_of(&custom);
    ck_assert_ptr_nonnull(gpu_op_builder_find(&custom));
  }
}
END_TEST

START_TEST(ops_without_a_builder_are_declined_with_that_reason) {
  tflaccel_tensor_desc tensor;
  memset(&tensor, 0, sizeof tensor);
  tensor.struct_size = sizeof tensor;
  tensor.name = "";
  tflaccel_op_desc ops[4] = {op_of(TFLACCEL_OP_CUSTOM, "PosenetDecoderOp"),
                             op_of(TFLACCEL_OP_CUSTOM, NULL), op_of(TFLACCEL_OP_RSQRT, NULL),
                             op_of(LAST_CODE, NULL)};
  /* A builtin op is named, not numbered; only a code no schema names is.
   * Ops the corpus uses that have no kernel say why (ops/declined.c). */
  const char *expected[4] = {
      "gpu_test: there is no GPU kernel for custom op PosenetDecoderOp: sequential pose "
      "decoding (roots in score order, non-maximum suppression against the poses kept, a walk "
      "along the skeleton per pose), not dense math",
      "gpu_test: there is no GPU kernel for custom op (unnamed)",
      "gpu_test: there is no GPU kernel for RSQRT",
      "gpu_test: there is no GPU kernel for op code 255"};
  for (int i = 0; i < 4; ++i) {
    ck_assert_ptr_null(gpu_op_builder_find(&ops[i]));
    tflaccel_graph_view graph = {sizeof graph, 1, &tensor, 1, &ops[i]};
    char reason[TFLACCEL_REASON_SIZE];
    ck_assert_int_eq(
        gpu_op_supported(&graph, 0, TFLACCEL_PRECISION_FP32, "gpu_test", reason, sizeof reason),
        0);
    ck_assert_str_eq(reason, expected[i]);
  }
}
END_TEST

START_TEST(only_windowed_ops_read_through_a_fused_pad) {
  for (int32_t code = 0; code <= LAST_CODE; ++code) {
    tflaccel_op_desc op = op_of(code, NULL);
    const gpu_op_builder *builder = gpu_op_builder_find(&op);
    int windowed = code == TFLACCEL_OP_CONV_2D || code == TFLACCEL_OP_DEPTHWISE_CONV_2D ||
                   code == TFLACCEL_OP_MAX_POOL_2D || code == TFLACCEL_OP_AVERAGE_POOL_2D;
    ck_assert_msg((builder != NULL && builder->reads_through_pad) == windowed,
                  "op code %d: reads_through_pad is %d", (int)code,
                  builder != NULL ? builder->reads_through_pad : -1);
  }
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_op_table");
  TCase *test_case = tcase_create("table");
  tcase_add_test(test_case, every_builder_found_is_complete_and_the_ops_own);
  tcase_add_test(test_case, ops_without_a_builder_are_declined_with_that_reason);
  tcase_add_test(test_case, only_windowed_ops_read_through_a_fused_pad);
  suite_add_tcase(suite, test_case);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
