/* Shape inference and builtin options, on handcrafted models. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph/model.h"
#include "tests/model/tflite_builder.h"
#include "tflaccel/tflaccel.h"

/* BuiltinOptions union types used below (schema.fbs order). */
enum {
  OPTIONS_CONV_2D = 1,
  OPTIONS_POOL_2D = 5,
  OPTIONS_ADD = 11,
  OPTIONS_RESHAPE = 17,
  OPTIONS_STRIDED_SLICE = 32,
  OPTIONS_TRANSPOSE_CONV = 49,
  OPTIONS_PACK = 59,
};

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
  return model;
}

static void load_fails(tb_model *builder, const char *part1, const char *part2) {
  tflaccel_status status;
  tflaccel_model *model = load(builder, &status);
  ck_assert_msg(status != NULL, "loaded; expected \"%s\"", part1);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, part1) != NULL, "\"%s\" lacks \"%s\"", message, part1);
  ck_assert_msg(part2 == NULL || strstr(message, part2) != NULL, "\"%s\" lacks \"%s\"", message,
                part2);
  ck_assert_ptr_null(model);
  tflaccel_status_free(status);
}

/* input [1,8,8,3] -> CONV_2D (filter [16,3,3,3], bias [16]) -> output shape. */
static tb_model *conv_model(const int32_t *output_shape, uint32_t output_rank, uint32_t padding,
                            uint32_t stride) {
  tb_model *builder = tb_create();
  static float filter[16 * 3 * 3 * 3], bias[16];
  uint32_t filter_buffer = tb_buffer(builder, filter, sizeof filter);
  uint32_t bias_buffer = tb_buffer(builder, bias, sizeof bias);
  tb_tensor(builder, "in", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 8, 8, 3}, 0);
  tb_tensor(builder, "filter", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){16, 3, 3, 3}, filter_buffer);
  tb_tensor(builder, "bias", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){16}, bias_buffer);
  tb_tensor(builder, "out", TFLACCEL_DTYPE_FLOAT32, output_rank, output_shape, 0);
  uint32_t conv = tb_opcode(builder, TFLACCEL_OP_CONV_2D, NULL);
  uint32_t op = tb_op(builder, conv, 3, (int32_t[]){0, 1, 2}, 1, (int32_t[]){3});
  tb_field fields[] = {{0, 1, padding}, {1, 4, stride}, {2, 4, stride}, {3, 1, 1 /* RELU */}};
  tb_op_options(builder, op, OPTIONS_CONV_2D, 4, fields);
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){3});
  return builder;
}

START_TEST(conv_2d_shapes_are_checked) {
  /* SAME, stride 2: ceil(8 / 2) = 4. */
  tflaccel_model *model = load_ok(conv_model((int32_t[]){1, 4, 4, 16}, 4, 0, 2));
  const tflaccel_op_desc *op = &model_prepared_graph(model)->ops[0];
  ck_assert_int_eq(op->params->conv_2d.padding, TFLACCEL_PADDING_SAME);
  ck_assert_int_eq(op->params->conv_2d.stride_w, 2);
  ck_assert_int_eq(op->params->conv_2d.stride_h, 2);
  ck_assert_int_eq(op->params->conv_2d.fused_activation, TFLACCEL_ACT_RELU);
  /* Absent from the file: the schema's default of 1. */
  ck_assert_int_eq(op->params->conv_2d.dilation_w, 1);
  ck_assert_int_eq(op->params->conv_2d.dilation_h, 1);
  tflaccel_model_destroy(model);
  /* VALID, stride 1: 8 - 3 + 1 = 6. */
  tflaccel_model_destroy(load_ok(conv_model((int32_t[]){1, 6, 6, 16}, 4, 1, 1)));
  load_fails(conv_model((int32_t[]){1, 8, 8, 16}, 4, 1, 1),
             "op 0 (CONV_2D): output 0 (tensor 3 'out') has shape [1,8,8,16]",
             "VALID padding gives [1,6,6,16]");
  load_fails(conv_model((int32_t[]){1, 4, 4, 16}, 4, 0, 0), "op 0 (CONV_2D): stride 0x0", NULL);
  load_fails(conv_model((int32_t[]){1, 4, 4, 16}, 4, 7, 2), "op 0 (CONV_2D): padding 7", NULL);
}
END_TEST

START_TEST(unknown_output_shapes_are_inferred) {
  /* Stored as [] without has_rank: the prepared graph gets the computed
   * shape, the stored shape stays [] in the public info. */
  tflaccel_model *model = load_ok(conv_model(NULL, 0, 0, 2));
  const tflaccel_tensor_desc *out = &model_prepared_graph(model)->tensors[3];
  ck_assert_uint_eq(out->rank, 4);
  ck_assert_int_eq(out->dims[1], 4);
  ck_assert_int_eq(out->dims[3], 16);
  ck_assert_uint_eq(out->byte_size, 4 * 4 * 16 * 4);
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_model_tensor_info(model, 3, &info));
  ck_assert_uint_eq(info.rank, 0);
  tflaccel_model_destroy(model);
}
END_TEST

static tb_model *binary_model(int32_t code, const int32_t *a, uint32_t rank_a, const int32_t *b,
                              uint32_t rank_b, const int32_t *out, uint32_t rank_out) {
  tb_model *builder = tb_create();
  tb_tensor(builder, "a", TFLACCEL_DTYPE_FLOAT32, rank_a, a, 0);
  tb_tensor(builder, "b", TFLACCEL_DTYPE_FLOAT32, rank_b, b, 0);
  tb_tensor(builder, "out", TFLACCEL_DTYPE_FLOAT32, rank_out, out, 0);
  tb_op(builder, tb_opcode(builder, code, NULL), 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
  tb_inputs(builder, 2, (int32_t[]){0, 1});
  tb_outputs(builder, 1, (int32_t[]){2});
  return builder;
}

START_TEST(broadcasting_is_checked) {
  tflaccel_model *model = load_ok(binary_model(TFLACCEL_OP_ADD, (int32_t[]){1, 5, 1, 3}, 4,
                                               (int32_t[]){4, 1}, 2, (int32_t[]){1, 5, 4, 3}, 4));
  /* No options table: AddOptions' defaults. */
  const tflaccel_op_desc *op = &model_prepared_graph(model)->ops[0];
  ck_assert_int_eq(op->params->arithmetic.fused_activation, TFLACCEL_ACT_NONE);
  ck_assert_int_eq(op->params->arithmetic.pot_scale_int16, 1);
  tflaccel_model_destroy(model);
  load_fails(binary_model(TFLACCEL_OP_MUL, (int32_t[]){2, 3}, 2, (int32_t[]){4}, 1,
                          (int32_t[]){2, 3}, 2),
             "op 0 (MUL): input shapes [2,3] and [4] do not broadcast", NULL);
  load_fails(binary_model(TFLACCEL_OP_MAXIMUM, (int32_t[]){2, 3}, 2, (int32_t[]){3}, 1,
                          (int32_t[]){3, 3}, 2),
             "op 0 (MAXIMUM): output 0", "broadcasting the inputs gives [2,3]");
}
END_TEST

START_TEST(wrong_option_types_are_caught) {
  tb_model *builder = binary_model(TFLACCEL_OP_ADD, (int32_t[]){4}, 1, (int32_t[]){4}, 1,
                                   (int32_t[]){4}, 1);
  tb_op_options(builder, 0, OPTIONS_POOL_2D, 0, NULL);
  load_fails(builder, "op 0 (ADD): builtin options are of type 5 (Pool2DOptions)",
             "expected AddOptions (11)");
}
END_TEST

/* RESHAPE x [2,6] by a constant shape. */
static tb_model *reshape_model(const int32_t *target, uint32_t target_count, const int32_t *out,
                               uint32_t out_rank) {
  tb_model *builder = tb_create();
  uint32_t shape_buffer = tb_buffer(builder, target, target_count * sizeof *target);
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){2, 6}, 0);
  tb_tensor(builder, "shape", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){(int32_t)target_count},
            shape_buffer);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, out_rank, out, 0);
  tb_op(builder, tb_opcode(builder, TFLACCEL_OP_RESHAPE, NULL), 2, (int32_t[]){0, 1}, 1,
        (int32_t[]){2});
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){2});
  return builder;
}

START_TEST(reshape_is_checked_and_inferred) {
  tflaccel_model_destroy(load_ok(reshape_model((int32_t[]){3, 4}, 2, (int32_t[]){3, 4}, 2)));
  load_fails(reshape_model((int32_t[]){3, 4}, 2, (int32_t[]){5, 4}, 2),
             "op 0 (RESHAPE): output [5,4] has 20 elements, the input [2,6] 12", NULL);
  tflaccel_model *model = load_ok(reshape_model((int32_t[]){-1, 3}, 2, NULL, 0));
  const tflaccel_tensor_desc *y = &model_prepared_graph(model)->tensors[2];
  ck_assert_uint_eq(y->rank, 2);
  ck_assert_int_eq(y->dims[0], 4);
  ck_assert_int_eq(y->dims[1], 3);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(strided_slice_is_checked) {
  /* x [1,4,4,64][0:1, 0:4, 0:4, 0:32] as hand_recrop does it. */
  for (int wrong = 0; wrong < 2; ++wrong) {
    tb_model *builder = tb_create();
    int32_t begin[] = {0, 0, 0, 0}, end[] = {1, 4, 4, 32}, strides[] = {1, 1, 1, 1};
    uint32_t b = tb_buffer(builder, begin, sizeof begin);
    uint32_t e = tb_buffer(builder, end, sizeof end);
    uint32_t s = tb_buffer(builder, strides, sizeof strides);
    tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 4, 4, 64}, 0);
    tb_tensor(builder, "begin", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){4}, b);
    tb_tensor(builder, "end", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){4}, e);
    tb_tensor(builder, "strides", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){4}, s);
    tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 4, 4, wrong ? 64 : 32}, 0);
    uint32_t op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_STRIDED_SLICE, NULL), 4,
                        (int32_t[]){0, 1, 2, 3}, 1, (int32_t[]){4});
    tb_field fields[] = {{0, 4, 0x7} /* begin_mask on axes 0..2 */};
    tb_op_options(builder, op, OPTIONS_STRIDED_SLICE, 1, fields);
    tb_inputs(builder, 1, (int32_t[]){0});
    tb_outputs(builder, 1, (int32_t[]){4});
    if (wrong) {
      load_fails(builder, "op 0 (STRIDED_SLICE)", "slicing the input gives [1,4,4,32]");
    } else {
      tflaccel_model *model = load_ok(builder);
      ck_assert_int_eq(model_prepared_graph(model)->ops[0].params->strided_slice.begin_mask, 7);
      tflaccel_model_destroy(model);
    }
  }
}
END_TEST

START_TEST(pack_and_pool_are_checked) {
  tb_model *builder = tb_create();
  tb_tensor(builder, "a", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){17}, 0);
  tb_tensor(builder, "b", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){17}, 0);
  tb_tensor(builder, "p", TFLACCEL_DTYPE_INT32, 2, (int32_t[]){2, 17}, 0);
  uint32_t op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_PACK, NULL), 2, (int32_t[]){0, 1}, 1,
                      (int32_t[]){2});
  tb_field fields[] = {{0, 4, 2}, {1, 4, 1} /* axis 1: [17, 2] */};
  tb_op_options(builder, op, OPTIONS_PACK, 2, fields);
  tb_inputs(builder, 2, (int32_t[]){0, 1});
  tb_outputs(builder, 1, (int32_t[]){2});
  load_fails(builder, "op 0 (PACK)", "packing the inputs gives [17,2]");

  builder = tb_create();
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 7, 7, 8}, 0);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 3, 3, 8}, 0);
  op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_MAX_POOL_2D, NULL), 1, (int32_t[]){0}, 1,
             (int32_t[]){1});
  tb_field pool[] = {{0, 1, 1} /* VALID */, {1, 4, 2}, {2, 4, 2}, {3, 4, 3}, {4, 4, 3}};
  tb_op_options(builder, op, OPTIONS_POOL_2D, 5, pool);
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){1});
  tflaccel_model *model = load_ok(builder);
  const tflaccel_pool_2d_params *params = &model_prepared_graph(model)->ops[0].params->pool_2d;
  ck_assert_int_eq(params->filter_w, 3);
  ck_assert_int_eq(params->padding, TFLACCEL_PADDING_VALID);
  tflaccel_model_destroy(model);
}
END_TEST

/* MediaPipe's transpose convolution: raw options, output size rule. */
static tb_model *transpose_conv_bias_model(const void *options, size_t options_size,
                                           int32_t output_height) {
  tb_model *builder = tb_create();
  static float weights[4 * 2 * 2 * 8], bias[4];
  uint32_t w = tb_buffer(builder, weights, sizeof weights);
  uint32_t b = tb_buffer(builder, bias, sizeof bias);
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 16, 16, 8}, 0);
  tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){4, 2, 2, 8}, w);
  tb_tensor(builder, "b", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){4}, b);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, output_height, 32, 4}, 0);
  uint32_t op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_CUSTOM, "Convolution2DTransposeBias"),
                      3, (int32_t[]){0, 1, 2}, 1, (int32_t[]){3});
  tb_op_custom_options(builder, op, options, options_size);
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){3});
  return builder;
}

START_TEST(transpose_conv_bias_is_parsed) {
  int32_t same[3] = {1, 2, 2}, valid[3] = {2, 2, 2}, bad[3] = {9, 2, 2};
  tflaccel_model *model = load_ok(transpose_conv_bias_model(same, sizeof same, 32));
  const tflaccel_op_desc *op = &model_prepared_graph(model)->ops[0];
  ck_assert_int_eq(op->params->transpose_conv_bias.padding, TFLACCEL_PADDING_SAME);
  ck_assert_int_eq(op->params->transpose_conv_bias.stride_w, 2);
  tflaccel_model_destroy(model);
  /* VALID: 2 * (16 - 1) + 2 = 32 as well with a 2x2 kernel and stride 2. */
  model = load_ok(transpose_conv_bias_model(valid, sizeof valid, 32));
  ck_assert_int_eq(model_prepared_graph(model)->ops[0].params->transpose_conv_bias.padding,
                   TFLACCEL_PADDING_VALID);
  tflaccel_model_destroy(model);
  load_fails(transpose_conv_bias_model(same, sizeof same, 30), "op 0 (Convolution2DTransposeBias)",
             "gives [1,32,32,4]");
  load_fails(transpose_conv_bias_model(same, 8, 32), "op 0 (Convolution2DTransposeBias)",
             "options are 8 bytes, expected 12");
  load_fails(transpose_conv_bias_model(bad, sizeof bad, 32), "padding 9", NULL);
}
END_TEST

START_TEST(transpose_conv_follows_output_shape) {
  tb_model *builder = tb_create();
  int32_t output_shape[] = {1, 8, 8, 4};
  static float weights[4 * 3 * 3 * 2];
  uint32_t s = tb_buffer(builder, output_shape, sizeof output_shape);
  uint32_t w = tb_buffer(builder, weights, sizeof weights);
  tb_tensor(builder, "output_shape", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){4}, s);
  tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){4, 3, 3, 2}, w);
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 4, 4, 2}, 0);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 8, 8, 3}, 0);
  uint32_t op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_TRANSPOSE_CONV, NULL), 4,
                      (int32_t[]){0, 1, 2, -1}, 1, (int32_t[]){3});
  tb_field fields[] = {{0, 1, 0}, {1, 4, 2}, {2, 4, 2}};
  tb_op_options(builder, op, OPTIONS_TRANSPOSE_CONV, 3, fields);
  tb_inputs(builder, 1, (int32_t[]){2});
  tb_outputs(builder, 1, (int32_t[]){3});
  load_fails(builder, "op 0 (TRANSPOSE_CONV)", "the output_shape input gives [1,8,8,4]");
}
END_TEST

START_TEST(optional_inputs_become_no_tensor) {
  tb_model *builder = conv_model((int32_t[]){1, 4, 4, 16}, 4, 0, 2);
  tflaccel_model *model = load_ok(builder);
  ck_assert_uint_eq(model_prepared_graph(model)->ops[0].inputs[2], 2);
  tflaccel_model_destroy(model);

  builder = tb_create();
  static float filter[16 * 3 * 3 * 3];
  uint32_t filter_buffer = tb_buffer(builder, filter, sizeof filter);
  tb_tensor(builder, "in", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 8, 8, 3}, 0);
  tb_tensor(builder, "filter", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){16, 3, 3, 3}, filter_buffer);
  tb_tensor(builder, "out", TFLACCEL_DTYPE_FLOAT32, 4, (int32_t[]){1, 8, 8, 16}, 0);
  uint32_t op = tb_op(builder, tb_opcode(builder, TFLACCEL_OP_CONV_2D, NULL), 3,
                      (int32_t[]){0, 1, -1}, 1, (int32_t[]){2});
  tb_field fields[] = {{1, 4, 1}, {2, 4, 1}};
  tb_op_options(builder, op, OPTIONS_CONV_2D, 2, fields);
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){2});
  model = load_ok(builder);
  const tflaccel_op_desc *desc = &model_prepared_graph(model)->ops[0];
  ck_assert_uint_eq(desc->input_count, 3);
  ck_assert_uint_eq(desc->inputs[2], TFLACCEL_NO_TENSOR);
  uint32_t count;
  const uint32_t *consumers = model_tensor_consumers(model, 0, &count);
  ck_assert_uint_eq(count, 1);
  ck_assert_uint_eq(consumers[0], 0);
  ck_assert_int_eq(model_tensor_producer(model, 2), 0);
  ck_assert_int_eq(model_tensor_producer(model, 1), -1);
  tflaccel_model_destroy(model);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("model_shapes");
  TCase *cases = tcase_create("shapes");
  tcase_add_test(cases, conv_2d_shapes_are_checked);
  tcase_add_test(cases, unknown_output_shapes_are_inferred);
  tcase_add_test(cases, broadcasting_is_checked);
  tcase_add_test(cases, wrong_option_types_are_caught);
  tcase_add_test(cases, reshape_is_checked_and_inferred);
  tcase_add_test(cases, strided_slice_is_checked);
  tcase_add_test(cases, pack_and_pool_are_checked);
  tcase_add_test(cases, transpose_conv_bias_is_parsed);
  tcase_add_test(cases, transpose_conv_follows_output_shape);
  tcase_add_test(cases, optional_inputs_become_no_tensor);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
