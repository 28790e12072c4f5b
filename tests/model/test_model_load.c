/* Every model loads; a few models' contents match what flatc dumps of them
 * show; the public model API's arguments and struct sizes are checked. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/graph/model.h"
#include "tests/model/test_support.h"
#include "tests/model/tflite_builder.h"
#include "tflaccel/tflaccel.h"

static tflaccel_model *load_named(const char *dir, const char *name) {
  char *path = test_join(dir, name);
  ck_assert_ptr_nonnull(path);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file(path, &model);
  ck_assert_msg(status == NULL, "%s: %s", path, tflaccel_status_message(status));
  free(path);
  return model;
}

/* Counts of the stored ops of subgraph 0 with builtin code `code`. */
static uint32_t count_ops(const tflaccel_model *model, int32_t code) {
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  uint32_t count = 0;
  for (uint32_t i = 0; i < summary.op_count; ++i) {
    tflaccel_op_info op = {.struct_size = sizeof op};
    ck_assert_ptr_null(tflaccel_model_op_info(model, i, &op));
    if (op.code == code) ++count;
  }
  return count;
}

typedef struct expected_io {
  const char *name;
  int32_t dtype;
  uint32_t rank;
  int32_t shape[4];
  float scale;        /* 0: not quantized */
  int32_t zero_point;
} expected_io;

static void check_io(const tflaccel_model *model, int input, uint32_t index,
                     const expected_io *expected) {
  uint32_t tensor;
  tflaccel_status status = input ? tflaccel_model_input_tensor(model, index, &tensor)
                                 : tflaccel_model_output_tensor(model, index, &tensor);
  ck_assert_ptr_null(status);
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_model_tensor_info(model, tensor, &info));
  ck_assert_str_eq(info.name, expected->name);
  ck_assert_int_eq(info.dtype, expected->dtype);
  ck_assert_uint_eq(info.rank, expected->rank);
  for (uint32_t k = 0; k < expected->rank; ++k) ck_assert_int_eq(info.shape[k], expected->shape[k]);
  if (expected->scale == 0.0f) {
    ck_assert_uint_eq(info.quantization.count, 0);
  } else {
    ck_assert_uint_eq(info.quantization.count, 1);
    ck_assert_float_eq_tol(info.quantization.scales[0], expected->scale, 1e-9f);
    ck_assert_int_eq(info.quantization.zero_points[0], expected->zero_point);
  }
}

static void check_summary(const tflaccel_model *model, uint32_t tensors, uint32_t ops,
                          uint32_t inputs, uint32_t outputs) {
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  ck_assert_uint_eq(summary.schema_version, 3);
  ck_assert_uint_eq(summary.subgraph_count, 1);
  ck_assert_uint_eq(summary.tensor_count, tensors);
  ck_assert_uint_eq(summary.op_count, ops);
  ck_assert_uint_eq(summary.input_count, inputs);
  ck_assert_uint_eq(summary.output_count, outputs);
  ck_assert_uint_gt(summary.weight_bytes, 0);
  ck_assert_uint_gt(summary.peak_activation_bytes, 0);
  ck_assert_ptr_nonnull(summary.description);
}

START_TEST(every_model_loads) {
  const char *dir = test_model_dir();
  ck_assert_msg(dir != NULL, "neither ../shared/models nor tests/data found");
  size_t count;
  char **paths = test_list_models(dir, &count);
  ck_assert_uint_ge(count, 3);
  for (size_t i = 0; i < count; ++i) {
    tflaccel_model *model = NULL;
    tflaccel_status status = tflaccel_model_load_file(paths[i], &model);
    ck_assert_msg(status == NULL, "%s: %s", paths[i], tflaccel_status_message(status));
    const char *problem = test_model_consistency(model);
    ck_assert_msg(problem == NULL, "%s: %s", paths[i], problem);
    /* Folding leaves no DEQUANTIZE of a float16 constant and no DENSIFY of a
     * constant behind. */
    const tflaccel_graph_view *graph = model_prepared_graph(model);
    for (uint32_t p = 0; p < graph->op_count; ++p) {
      const tflaccel_op_desc *op = &graph->ops[p];
      if (op->code != TFLACCEL_OP_DEQUANTIZE && op->code != TFLACCEL_OP_DENSIFY) continue;
      const tflaccel_tensor_desc *input = &graph->tensors[op->inputs[0]];
      ck_assert_msg(!(input->flags & TFLACCEL_TENSOR_CONSTANT) ||
                        (op->code == TFLACCEL_OP_DEQUANTIZE && input->dtype != TFLACCEL_DTYPE_FLOAT16),
                    "%s: prepared op %u (%s) of a constant was not folded", paths[i], p,
                    tflaccel_op_code_name(op->code));
    }
    tflaccel_model_destroy(model);
  }
  test_free_paths(paths, count);
}
END_TEST

/* The three models in tests/data, from the shared models or tests/data;
 * expectations from flatc's JSON dumps of them. */
START_TEST(mediapipe_models_match_flatc) {
  const char *dir = test_model_dir();
  ck_assert_ptr_nonnull(dir);

  tflaccel_model *model = load_named(dir, "face_detection_short_range.tflite");
  check_summary(model, 250, 164, 1, 2);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DEQUANTIZE), 74);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_CONV_2D), 21);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_RELU), 17);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DEPTHWISE_CONV_2D), 16);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_ADD), 16);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_PAD), 11);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_MAX_POOL_2D), 3);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_RESHAPE), 4);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_CONCATENATION), 2);
  check_io(model, 1, 0, &(expected_io){"input", TFLACCEL_DTYPE_FLOAT32, 4, {1, 128, 128, 3}, 0, 0});
  check_io(model, 0, 0, &(expected_io){"regressors", TFLACCEL_DTYPE_FLOAT32, 3, {1, 896, 16}, 0, 0});
  check_io(model, 0, 1, &(expected_io){"classificators", TFLACCEL_DTYPE_FLOAT32, 3, {1, 896, 1}, 0, 0});
  /* All 74 DEQUANTIZE ops fold away. */
  ck_assert_uint_eq(model_prepared_graph(model)->op_count, 164 - 74);
  tflaccel_model_destroy(model);

  model = load_named(dir, "hand_recrop.tflite");
  check_summary(model, 152, 63, 1, 1);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_CONV_2D), 14);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_PRELU), 13);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DEPTHWISE_CONV_2D), 19);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_MAX_POOL_2D), 6);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_PAD), 3);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_ADD), 6);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_STRIDED_SLICE), 2);
  check_io(model, 1, 0, &(expected_io){"input_1", TFLACCEL_DTYPE_FLOAT32, 4, {1, 256, 256, 3}, 0, 0});
  check_io(model, 0, 0, &(expected_io){"output_crop", TFLACCEL_DTYPE_FLOAT32, 4, {1, 1, 1, 4}, 0, 0});
  tflaccel_model_destroy(model);

  model = load_named(dir, "selfie_segmentation.tflite");
  check_summary(model, 360, 246, 1, 1);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DEQUANTIZE), 110);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_HARD_SWISH), 11);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_RESIZE_BILINEAR), 3);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_CUSTOM), 1);
  check_io(model, 1, 0, &(expected_io){"input_1", TFLACCEL_DTYPE_FLOAT32, 4, {1, 256, 256, 3}, 0, 0});
  check_io(model, 0, 0, &(expected_io){"activation_10", TFLACCEL_DTYPE_FLOAT32, 4, {1, 256, 256, 1}, 0, 0});
  /* The custom op: its raw options {1 (SAME), 2, 2} become params. */
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  int found = 0;
  for (uint32_t p = 0; p < graph->op_count; ++p) {
    const tflaccel_op_desc *op = &graph->ops[p];
    if (op->code != TFLACCEL_OP_CUSTOM) continue;
    ck_assert_str_eq(op->custom_code, "Convolution2DTransposeBias");
    ck_assert_uint_eq(op->custom_options_size, 12);
    ck_assert_int_eq(op->params->transpose_conv_bias.padding, TFLACCEL_PADDING_SAME);
    ck_assert_int_eq(op->params->transpose_conv_bias.stride_w, 2);
    ck_assert_int_eq(op->params->transpose_conv_bias.stride_h, 2);
    found = 1;
  }
  ck_assert(found);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(shared_models_match_flatc) {
  const char *dir = test_shared_models("the models that are not in tests/data");
  if (dir == NULL) return;
  tflaccel_model *model = load_named(dir, "tflm__hello_world_int8.tflite");
  check_summary(model, 10, 3, 1, 1);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_FULLY_CONNECTED), 3);
  check_io(model, 1, 0, &(expected_io){"serving_default_dense_input:0", TFLACCEL_DTYPE_INT8, 2,
                                        {1, 1}, 0.0244801156f, -128});
  check_io(model, 0, 0, &(expected_io){"StatefulPartitionedCall:0", TFLACCEL_DTYPE_INT8, 2,
                                        {1, 1}, 0.00829095673f, 5});
  ck_assert_uint_eq(tflaccel_model_input_tensor(model, 0, &(uint32_t){0}) == NULL, 1);
  ck_assert_ptr_nonnull(tflaccel_model_signature_key(model, 0));
  tflaccel_model_destroy(model);

  model = load_named(dir, "coral__keras_lstm_mnist_ptq.tflite");
  check_summary(model, 29, 6, 1, 1);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_QUANTIZE), 2);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM), 1);
  check_io(model, 1, 0, &(expected_io){"serving_default_x:0", TFLACCEL_DTYPE_UINT8, 3,
                                        {1, 28, 28}, 0.00392156886f, 0});
  check_io(model, 0, 0, &(expected_io){"StatefulPartitionedCall:0", TFLACCEL_DTYPE_UINT8, 2,
                                        {1, 10}, 0.00390625f, 0});
  /* Its LSTM state tensors are variables without an initial value. */
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  uint32_t variables = 0;
  for (uint32_t t = 0; t < graph->tensor_count; ++t)
    if (graph->tensors[t].flags & TFLACCEL_TENSOR_VARIABLE) {
      ck_assert(!(graph->tensors[t].flags & TFLACCEL_TENSOR_CONSTANT));
      ck_assert_int_eq(model_tensor_producer(model, t), -1);
      ++variables;
    }
  ck_assert_uint_eq(variables, 2);
  tflaccel_model_destroy(model);

  /* A custom op whose outputs have no stored shape: loads, shapes stay []. */
  model = load_named(dir, "coral__posenet_mobilenet_v1_075_353_481_16_quant_decoder.tflite");
  check_summary(model, 105, 38, 1, 4);
  check_io(model, 0, 0, &(expected_io){"poses", TFLACCEL_DTYPE_FLOAT32, 0, {0}, 0, 0});
  check_io(model, 0, 3, &(expected_io){"poses:3", TFLACCEL_DTYPE_FLOAT32, 0, {0}, 0, 0});
  tflaccel_op_info op = {.struct_size = sizeof op};
  ck_assert_ptr_null(tflaccel_model_op_info(model, 37, &op));
  ck_assert_int_eq(op.code, TFLACCEL_OP_CUSTOM);
  ck_assert_str_eq(op.custom_code, "PosenetDecoderOp");
  tflaccel_model_destroy(model);

  /* Bias quantized on dimension 3 of a 1-D tensor: recorded as stored. */
  model = load_named(dir, "tflm__person_detect.tflite");
  check_summary(model, 89, 31, 1, 1);
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_model_tensor_info(model, 33, &info));
  ck_assert_str_eq(info.name, "MobilenetV1/MobilenetV1/Conv2d_0/Conv2D_bias");
  ck_assert_uint_eq(info.rank, 1);
  ck_assert_uint_eq(info.quantization.count, 8);
  ck_assert_int_eq(info.quantization.quantized_dimension, 3);
  tflaccel_model_destroy(model);

  model = load_named(dir, "face_detection_full_range_sparse.tflite");
  check_summary(model, 577, 388, 1, 2);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DENSIFY), 46);
  ck_assert_uint_eq(count_ops(model, TFLACCEL_OP_DEQUANTIZE), 182);
  ck_assert_uint_eq(model_prepared_graph(model)->op_count, 388 - 46 - 182);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(memory_and_file_agree) {
  const char *dir = test_model_dir();
  ck_assert_ptr_nonnull(dir);
  char *path = test_join(dir, "hand_recrop.tflite");
  size_t size;
  uint8_t *bytes = test_read_file(path, &size);
  ck_assert_ptr_nonnull(bytes);
  tflaccel_model *from_file = NULL, *from_memory = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(path, &from_file));
  ck_assert_ptr_null(tflaccel_model_load_memory(bytes, size, &from_memory));
  /* The copy is independent of the caller's bytes. */
  memset(bytes, 0xff, size);
  free(bytes);
  tflaccel_model_summary a = {.struct_size = sizeof a}, b = {.struct_size = sizeof b};
  ck_assert_ptr_null(tflaccel_model_get_summary(from_file, &a));
  ck_assert_ptr_null(tflaccel_model_get_summary(from_memory, &b));
  ck_assert_uint_eq(a.tensor_count, b.tensor_count);
  ck_assert_uint_eq(a.op_count, b.op_count);
  ck_assert_uint_eq(a.weight_bytes, b.weight_bytes);
  ck_assert_uint_eq(a.peak_activation_bytes, b.peak_activation_bytes);
  ck_assert_ptr_null(test_model_consistency(from_memory));
  tflaccel_model_destroy(from_file);
  tflaccel_model_destroy(from_memory);
  free(path);
}
END_TEST

START_TEST(api_arguments_are_checked) {
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file("/nonexistent/model.tflite", &model);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "/nonexistent/model.tflite"));
  ck_assert_ptr_null(model);
  tflaccel_status_free(status);

  status = tflaccel_model_load_file("/", &model);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "not a regular file"));
  tflaccel_status_free(status);

  status = tflaccel_model_load_memory("", 0, &model);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_MODEL);
  tflaccel_status_free(status);
  status = tflaccel_model_load_memory(NULL, 4, &model);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  tflaccel_model_destroy(NULL);

  const char *dir = test_model_dir();
  ck_assert_ptr_nonnull(dir);
  model = load_named(dir, "hand_recrop.tflite");
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  status = tflaccel_model_tensor_info(model, 152, &info);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "152"));
  tflaccel_status_free(status);
  tflaccel_op_info op = {.struct_size = sizeof op};
  status = tflaccel_model_op_info(model, 63, &op);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  uint32_t tensor;
  status = tflaccel_model_input_tensor(model, 1, &tensor);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  status = tflaccel_model_output_tensor(model, 0, NULL);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  ck_assert_ptr_null(tflaccel_model_subgraph_name(model, 1));
  ck_assert_ptr_null(tflaccel_model_metadata_name(model, 0));
  ck_assert_ptr_null(tflaccel_model_signature_key(model, 0));

  /* struct_size: 0 is refused; a smaller (older) struct gets only its part. */
  tflaccel_model_summary summary = {.struct_size = 0};
  status = tflaccel_model_get_summary(model, &summary);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  struct {
    tflaccel_model_summary part;
    uint32_t guard;
  } small;
  memset(&small, 0x5a, sizeof small);
  small.part.struct_size = (uint32_t)offsetof(tflaccel_model_summary, tensor_count);
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &small.part));
  ck_assert_uint_eq(small.part.subgraph_count, 1);
  ck_assert_uint_eq(small.part.tensor_count, 0x5a5a5a5a); /* untouched */
  ck_assert_uint_eq(small.part.struct_size, offsetof(tflaccel_model_summary, tensor_count));
  tflaccel_model_destroy(model);
}
END_TEST

/* What a built model says about its other subgraphs, metadata and signatures. */
START_TEST(subgraphs_metadata_and_signatures) {
  tb_model *builder = tb_create();
  tb_description(builder, "built by a test");
  tb_subgraph_name(builder, "main");
  tb_extra_subgraph(builder, "cond");
  tb_extra_subgraph(builder, NULL);
  int32_t shape[] = {2, 3};
  uint32_t x = tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  uint32_t y = tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  int32_t signature[] = {-1, 3};
  tb_tensor_signature(builder, x, 2, signature);
  uint32_t relu = tb_opcode(builder, TFLACCEL_OP_RELU, NULL);
  tb_op(builder, relu, 1, (int32_t[]){(int32_t)x}, 1, (int32_t[]){(int32_t)y});
  tb_inputs(builder, 1, (int32_t[]){(int32_t)x});
  tb_outputs(builder, 1, (int32_t[]){(int32_t)y});
  uint32_t meta = tb_buffer(builder, "1.5.0", 5);
  tb_metadata(builder, "min_runtime_version", meta);
  tb_signature(builder, "serving_default", "x_in", x);
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_ptr_nonnull(bytes);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  ck_assert_uint_eq(summary.subgraph_count, 3);
  ck_assert_uint_eq(summary.metadata_count, 1);
  ck_assert_uint_eq(summary.signature_count, 1);
  ck_assert_str_eq(summary.description, "built by a test");
  ck_assert_str_eq(tflaccel_model_subgraph_name(model, 0), "main");
  ck_assert_str_eq(tflaccel_model_subgraph_name(model, 1), "cond");
  ck_assert_str_eq(tflaccel_model_subgraph_name(model, 2), "");
  ck_assert_str_eq(tflaccel_model_metadata_name(model, 0), "min_runtime_version");
  ck_assert_str_eq(tflaccel_model_signature_key(model, 0), "serving_default");
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_model_tensor_info(model, x, &info));
  ck_assert_uint_eq(info.shape_signature_rank, 2);
  ck_assert_int_eq(info.shape_signature[0], -1);
  /* Only metadata buffers: no weights; x and y live [0, 0]. */
  ck_assert_uint_eq(summary.weight_bytes, 0);
  ck_assert_uint_eq(summary.peak_activation_bytes, 2 * 64);
  tflaccel_model_destroy(model);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

/* Operator codes from before builtin_code existed, and codes past the
 * schema's, load; the latter are named UNKNOWN. */
START_TEST(old_and_unknown_operator_codes) {
  tb_model *builder = tb_create();
  int32_t shape[] = {4};
  uint32_t x = tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  uint32_t y = tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  uint32_t z = tb_tensor(builder, "z", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  uint32_t old_logistic = tb_opcode_deprecated(builder, TFLACCEL_OP_LOGISTIC);
  uint32_t future = tb_opcode(builder, 4000, NULL);
  tb_op(builder, old_logistic, 1, (int32_t[]){(int32_t)x}, 1, (int32_t[]){(int32_t)y});
  tb_op(builder, future, 1, (int32_t[]){(int32_t)y}, 1, (int32_t[]){(int32_t)z});
  tb_inputs(builder, 1, (int32_t[]){(int32_t)x});
  tb_outputs(builder, 1, (int32_t[]){(int32_t)z});
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_op_info op = {.struct_size = sizeof op};
  ck_assert_ptr_null(tflaccel_model_op_info(model, 0, &op));
  ck_assert_int_eq(op.code, TFLACCEL_OP_LOGISTIC);
  ck_assert_str_eq(op.name, "LOGISTIC");
  ck_assert_ptr_null(tflaccel_model_op_info(model, 1, &op));
  ck_assert_int_eq(op.code, 4000);
  ck_assert_str_eq(op.name, "UNKNOWN");
  ck_assert_uint_eq(model_prepared_graph(model)->op_count, 2);
  tflaccel_model_destroy(model);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

/* Models over 2 GB keep buffers after the flatbuffer (offset and size). */
static tb_model *external_buffer_model(const float *weights, int64_t offset_shift) {
  tb_model *builder = tb_create();
  uint32_t buffer = tb_buffer_after_end(builder, weights, 4 * sizeof *weights, offset_shift);
  int32_t shape[] = {4};
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 1, shape, buffer);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  tb_op(builder, tb_opcode(builder, TFLACCEL_OP_ADD, NULL), 2, (int32_t[]){0, 1}, 1,
        (int32_t[]){2});
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){2});
  return builder;
}

START_TEST(buffers_after_the_flatbuffer_are_used_in_place) {
  const float weights[4] = {1.5f, -2.0f, 3.0f, 4.25f};
  tb_model *builder = external_buffer_model(weights, 0);
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_ptr_nonnull(bytes);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  const tflaccel_tensor_desc *w = &model_prepared_graph(model)->tensors[1];
  ck_assert(w->flags & TFLACCEL_TENSOR_CONSTANT);
  ck_assert_uint_eq(w->data_size, sizeof weights);
  ck_assert_mem_eq(w->data, weights, sizeof weights);
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  ck_assert_uint_eq(summary.weight_bytes, sizeof weights);
  tflaccel_model_destroy(model);
  free(bytes);
  tb_destroy(builder);

  builder = external_buffer_model(weights, 64);
  bytes = tb_serialize(builder, &size);
  status = tflaccel_model_load_memory(bytes, size, &model);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "buffer 1: offset"));
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "lie outside the file"));
  tflaccel_status_free(status);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("model_load");
  TCase *cases = tcase_create("load");
  tcase_add_test(cases, every_model_loads);
  tcase_add_test(cases, mediapipe_models_match_flatc);
  tcase_add_test(cases, shared_models_match_flatc);
  tcase_add_test(cases, memory_and_file_agree);
  tcase_add_test(cases, api_arguments_are_checked);
  tcase_add_test(cases, subgraphs_metadata_and_signatures);
  tcase_add_test(cases, old_and_unknown_operator_codes);
  tcase_add_test(cases, buffers_after_the_flatbuffer_are_used_in_place);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
