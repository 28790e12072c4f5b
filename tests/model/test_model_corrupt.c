/* Damaged files: truncated and byte-flipped real models must load or fail
 * with a one-line message, never crash or read outside the bytes (run it
 * under ASan to see the latter); handcrafted defects get specific messages. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/model/test_support.h"
#include "tests/model/tflite_builder.h"
#include "tflaccel/tflaccel.h"

#define TRUNCATIONS 64
#define FLIPS 200

static uint32_t xorshift32(uint32_t *state) {
  uint32_t s = *state;
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return *state = s;
}

/* Loads bytes; a failure must say something on one line, a success must
 * leave a consistent model. Returns 1 when it loaded. */
static int load_damaged(const uint8_t *bytes, size_t size, const char *what) {
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  if (status) {
    const char *message = tflaccel_status_message(status);
    ck_assert_msg(message[0] != '\0', "%s: empty message", what);
    ck_assert_msg(strchr(message, '\n') == NULL, "%s: message on several lines: %s", what, message);
    ck_assert_ptr_null(model);
    tflaccel_status_free(status);
    return 0;
  }
  const char *problem = test_model_consistency(model);
  ck_assert_msg(problem == NULL, "%s: loaded but inconsistent: %s", what, problem);
  tflaccel_model_destroy(model);
  return 1;
}

START_TEST(truncated_models_fail_cleanly) {
  size_t count;
  char **paths = test_list_models(test_model_dir(), &count);
  ck_assert_uint_gt(count, 0);
  for (size_t m = 0; m < count; ++m) {
    size_t size;
    uint8_t *bytes = test_read_file(paths[m], &size);
    ck_assert_ptr_nonnull(bytes);
    uint32_t failures = 0;
    for (uint32_t i = 0; i < TRUNCATIONS; ++i) {
      /* The first offsets cut the header, the rest spread over the file. */
      size_t length = i < 16 ? i : (size_t)((double)size * (i - 15) / (TRUNCATIONS - 15));
      if (length >= size) length = size - 1;
      /* A copy of exactly `length` bytes, so ASan sees any read past it. */
      uint8_t *cut = malloc(length ? length : 1);
      ck_assert_ptr_nonnull(cut);
      memcpy(cut, bytes, length);
      char what[600];
      snprintf(what, sizeof what, "%s truncated to %zu bytes", paths[m], length);
      failures += !load_damaged(cut, length, what);
      free(cut);
    }
    /* Cutting the header or the middle of a model is always detected. */
    ck_assert_uint_ge(failures, TRUNCATIONS / 2);
    free(bytes);
  }
  test_free_paths(paths, count);
}
END_TEST

START_TEST(flipped_bytes_fail_cleanly) {
  size_t count;
  char **paths = test_list_models(test_model_dir(), &count);
  ck_assert_uint_gt(count, 0);
  for (size_t m = 0; m < count; ++m) {
    size_t size;
    uint8_t *bytes = test_read_file(paths[m], &size);
    ck_assert_ptr_nonnull(bytes);
    uint8_t *damaged = malloc(size);
    ck_assert_ptr_nonnull(damaged);
    uint32_t state = 0x9e3779b9u ^ (uint32_t)(m + 1);
    for (uint32_t i = 0; i < FLIPS; ++i) {
      memcpy(damaged, bytes, size);
      /* Half the flips land in the first 4 KiB, where the tables and
       * vtables of the small arrays are; the rest anywhere. */
      size_t position = (i % 2 == 0 && size > 4096) ? xorshift32(&state) % 4096
                                                    : xorshift32(&state) % size;
      uint8_t mask = (uint8_t)(xorshift32(&state) | 1);
      damaged[position] ^= mask;
      char what[600];
      snprintf(what, sizeof what, "%s with byte %zu xor 0x%02x", paths[m], position, mask);
      load_damaged(damaged, size, what);
    }
    free(damaged);
    free(bytes);
  }
  test_free_paths(paths, count);
}
END_TEST

/* ---- Handcrafted defects ---------------------------------------------------- */

/* A valid model: x [1,4] -> RELU -> y, plus a constant c [4]. */
static tb_model *small_model(void) {
  tb_model *model = tb_create();
  int32_t shape[] = {1, 4};
  float values[4] = {1, 2, 3, 4};
  uint32_t buffer = tb_buffer(model, values, sizeof values);
  tb_tensor(model, "x", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_tensor(model, "y", TFLACCEL_DTYPE_FLOAT32, 2, shape, 0);
  tb_tensor(model, "c", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){4}, buffer);
  uint32_t relu = tb_opcode(model, TFLACCEL_OP_RELU, NULL);
  tb_op(model, relu, 1, (int32_t[]){0}, 1, (int32_t[]){1});
  tb_inputs(model, 1, (int32_t[]){0});
  tb_outputs(model, 1, (int32_t[]){1});
  return model;
}

/* Loads what the builder made (after `patch`, when given) and checks the
 * failure's code and that its message contains each of the expected parts. */
static void expect_failure(tb_model *builder, void (*patch)(tb_model *, uint8_t *, size_t),
                           tflaccel_status_code code, const char *part1, const char *part2) {
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_ptr_nonnull(bytes);
  if (patch) patch(builder, bytes, size);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  ck_assert_msg(status != NULL, "a defective model loaded (expected \"%s\")", part1);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, part1) != NULL, "\"%s\" lacks \"%s\"", message, part1);
  ck_assert_msg(part2 == NULL || strstr(message, part2) != NULL, "\"%s\" lacks \"%s\"", message,
                part2);
  ck_assert_msg(tflaccel_status_code_of(status) == code, "\"%s\": code %d, expected %d", message,
                tflaccel_status_code_of(status), code);
  ck_assert(strchr(message, '\n') == NULL);
  tflaccel_status_free(status);
  free(bytes);
  tb_destroy(builder);
}

START_TEST(the_small_model_is_valid) {
  tb_model *builder = small_model();
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_int_eq(load_damaged(bytes, size, "the small model"), 1);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

static void wrong_identifier(tb_model *builder, uint8_t *bytes, size_t size) {
  (void)builder;
  (void)size;
  memcpy(bytes + 4, "ONNX", 4);
}

START_TEST(wrong_identifier_is_named) {
  expect_failure(small_model(), wrong_identifier, TFLACCEL_INVALID_MODEL,
                 "file identifier is \"ONNX\"", "TFL3");
}
END_TEST

static void huge_vector(tb_model *builder, uint8_t *bytes, size_t size) {
  size_t position = tb_tensors_vector_position(builder);
  ck_assert_uint_lt(position + 4, size);
  bytes[position] = 0;
  bytes[position + 1] = 0;
  bytes[position + 2] = 0;
  bytes[position + 3] = 0x80; /* 2^31 tensors */
}

START_TEST(vector_length_of_two_to_the_31_is_caught) {
  expect_failure(small_model(), huge_vector, TFLACCEL_INVALID_MODEL, "2147483648 elements",
                 "past the end of the file");
}
END_TEST

START_TEST(out_of_range_tensor_index_is_caught) {
  tb_model *builder = small_model();
  uint32_t relu = tb_opcode(builder, TFLACCEL_OP_RELU, NULL);
  tb_op(builder, relu, 1, (int32_t[]){7}, 1, (int32_t[]){2});
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "op 1 (RELU): input 0 is tensor 7",
                 "out of range (the subgraph has 3 tensors)");
}
END_TEST

START_TEST(a_cycle_is_caught) {
  tb_model *builder = tb_create();
  int32_t shape[] = {4};
  for (int i = 0; i < 3; ++i) tb_tensor(builder, "t", TFLACCEL_DTYPE_FLOAT32, 1, shape, 0);
  uint32_t add = tb_opcode(builder, TFLACCEL_OP_ADD, NULL);
  /* op 0 reads tensor 2, which op 1 writes from op 0's output. */
  tb_op(builder, add, 2, (int32_t[]){0, 2}, 1, (int32_t[]){1});
  tb_op(builder, add, 2, (int32_t[]){1, 0}, 1, (int32_t[]){2});
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){2});
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "op 0 (ADD): input 1 (tensor 2",
                 "produced by op 1, which does not run before it");
}
END_TEST

START_TEST(missing_buffer_is_caught) {
  tb_model *builder = small_model();
  tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){4}, 99);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('w')",
                 "buffer index 99 is out of range (the model has 2 buffers)");
}
END_TEST

START_TEST(an_unproduced_input_is_caught) {
  tb_model *builder = small_model();
  uint32_t relu = tb_opcode(builder, TFLACCEL_OP_RELU, NULL);
  uint32_t z = tb_tensor(builder, "z", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){4}, 0);
  uint32_t w = tb_tensor(builder, "w", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){4}, 0);
  tb_op(builder, relu, 1, (int32_t[]){(int32_t)z}, 1, (int32_t[]){(int32_t)w});
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "op 1 (RELU): input 0 (tensor 3 'z')",
                 "no op produces it");
}
END_TEST

START_TEST(schema_version_is_checked) {
  tb_model *builder = small_model();
  tb_version(builder, 2);
  expect_failure(builder, NULL, TFLACCEL_UNSUPPORTED, "schema version 2", "version 3");
}
END_TEST

START_TEST(unknown_types_are_named) {
  tb_model *builder = small_model();
  tb_tensor(builder, "q", 30, 1, (int32_t[]){4}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q')", "unknown type 30");
  builder = small_model();
  tb_tensor(builder, "q", 19, 1, (int32_t[]){4}, 0);
  expect_failure(builder, NULL, TFLACCEL_UNSUPPORTED, "type 19 (INT2)", "not supported");
}
END_TEST

START_TEST(opcode_index_is_checked) {
  tb_model *builder = small_model();
  tb_op(builder, 5, 1, (int32_t[]){1}, 1, (int32_t[]){2});
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "op 1:",
                 "opcode index 5 is out of range (the model has 1 operator codes)");
}
END_TEST

START_TEST(zero_point_range_is_checked) {
  tb_model *builder = small_model();
  uint32_t q = tb_tensor(builder, "q", TFLACCEL_DTYPE_INT8, 1, (int32_t[]){4}, 0);
  tb_tensor_quantization(builder, q, 1, (float[]){0.5f}, (int64_t[]){INT64_C(1) << 40}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q'): quantization",
                 "outside the int32 range");
}
END_TEST

/* Scales and zero points that fixed-point kernels cannot take are refused
 * at load, naming the tensor (no kernel ever sees them). */
START_TEST(absurd_quantization_is_refused) {
  static const float bad_scales[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.5f, 1e38f, 1e-45f};
  for (size_t i = 0; i < sizeof bad_scales / sizeof bad_scales[0]; ++i) {
    tb_model *builder = small_model();
    uint32_t q = tb_tensor(builder, "q", TFLACCEL_DTYPE_INT8, 1, (int32_t[]){4}, 0);
    tb_tensor_quantization(builder, q, 1, &bad_scales[i], (int64_t[]){0}, 0);
    expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q'): quantization scale 0",
                   "is not a finite number in [");
  }
  static const struct { int8_t dtype; int64_t zero_point; } bad_zero_points[] = {
      {TFLACCEL_DTYPE_INT8, 128},     {TFLACCEL_DTYPE_INT8, -129},
      {TFLACCEL_DTYPE_UINT8, -1},     {TFLACCEL_DTYPE_UINT8, 256},
      {TFLACCEL_DTYPE_INT16, 1 << 20}, {TFLACCEL_DTYPE_INT8, INT32_MIN}};
  for (size_t i = 0; i < sizeof bad_zero_points / sizeof bad_zero_points[0]; ++i) {
    tb_model *builder = small_model();
    uint32_t q = tb_tensor(builder, "q", bad_zero_points[i].dtype, 1, (int32_t[]){4}, 0);
    tb_tensor_quantization(builder, q, 1, (float[]){0.5f}, &bad_zero_points[i].zero_point, 0);
    expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q'): quantization zero point 0",
                   "range");
  }
  tb_model *builder = small_model();
  uint32_t q = tb_tensor(builder, "q", TFLACCEL_DTYPE_INT8, 2, (int32_t[]){3, 4}, 0);
  tb_tensor_quantization(builder, q, 2, (float[]){0.5f, 0.25f}, (int64_t[]){0, 0}, 1);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q')",
                 "per-axis quantization has 2 scales, but dimension 1 has 4 elements");
  builder = small_model();
  q = tb_tensor(builder, "q", TFLACCEL_DTYPE_INT8, 2, (int32_t[]){2, 4}, 0);
  tb_tensor_quantization(builder, q, 2, (float[]){0.5f, 0.25f}, (int64_t[]){0, 0}, 5);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('q')",
                 "per-axis quantization on dimension 5 of a rank-2 tensor");
  /* A per-channel bias keeps the filter's axis: its one axis counts. */
  builder = small_model();
  q = tb_tensor(builder, "bias", TFLACCEL_DTYPE_INT32, 1, (int32_t[]){2}, 0);
  tb_tensor_quantization(builder, q, 2, (float[]){0.5f, 0.25f}, (int64_t[]){0, 0}, 3);
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  ck_assert_int_eq(load_damaged(bytes, size, "per-channel bias"), 1);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

/* Declared shapes that would need absurd memory are refused at load with
 * the documented limit (8 GiB by default, TFLACCEL_MEMORY_LIMIT_MB). */
START_TEST(the_memory_limit_is_enforced) {
  unsetenv("TFLACCEL_MEMORY_LIMIT_MB");
  tb_model *builder = small_model();
  tb_tensor(builder, "big", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1 << 16, 1 << 16}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "subgraph 0: tensor 3 ('big')",
                 "needs 17179869184 bytes, more than the limit of 8589934592 bytes (the default");
  builder = small_model();
  for (int i = 0; i < 3; ++i)
    tb_tensor(builder, "part", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1 << 15, 1 << 15}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "subgraph 0: its tensors need at least",
                 "more than the limit");
  setenv("TFLACCEL_MEMORY_LIMIT_MB", "1", 1);
  builder = small_model();
  tb_tensor(builder, "two_mib", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){512, 1024}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('two_mib')",
                 "limit of 1048576 bytes (TFLACCEL_MEMORY_LIMIT_MB)");
  setenv("TFLACCEL_MEMORY_LIMIT_MB", "lots", 1);
  expect_failure(small_model(), NULL, TFLACCEL_INVALID_CONFIG, "TFLACCEL_MEMORY_LIMIT_MB=lots",
                 "positive number of MiB");
  unsetenv("TFLACCEL_MEMORY_LIMIT_MB");
}
END_TEST

START_TEST(constant_size_is_checked) {
  tb_model *builder = small_model();
  uint32_t buffer = tb_buffer(builder, "abc", 3);
  tb_tensor(builder, "short", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){2}, buffer);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('short')",
                 "holds 3 bytes, but shape [2] of float32 needs 8");
}
END_TEST

START_TEST(absurd_shapes_are_caught) {
  tb_model *builder = small_model();
  tb_tensor(builder, "big", TFLACCEL_DTYPE_FLOAT32, 4,
            (int32_t[]){INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('big')", "too many elements");
  builder = small_model();
  tb_tensor(builder, "huge", TFLACCEL_DTYPE_FLOAT32, 3, (int32_t[]){1 << 20, 1 << 20, 1 << 10}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL,
                 "tensor 3 ('huge'): shape [1048576,1048576,1024] needs more than", NULL);
  builder = small_model();
  tb_tensor(builder, "negative", TFLACCEL_DTYPE_FLOAT32, 1, (int32_t[]){-5}, 0);
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "tensor 3 ('negative')",
                 "dimension 0 of the shape is -5");
}
END_TEST

START_TEST(a_constant_output_is_caught) {
  tb_model *builder = small_model();
  uint32_t relu = tb_opcode(builder, TFLACCEL_OP_RELU, NULL);
  tb_op(builder, relu, 1, (int32_t[]){1}, 1, (int32_t[]){2});
  expect_failure(builder, NULL, TFLACCEL_INVALID_MODEL, "op 1 (RELU): output 0 is tensor 2 ('c')",
                 "constant");
}
END_TEST

START_TEST(a_truncated_builder_file_is_caught) {
  tb_model *builder = small_model();
  size_t size;
  uint8_t *bytes = tb_serialize(builder, &size);
  uint8_t *half = malloc(size / 2);
  memcpy(half, bytes, size / 2);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(half, size / 2, &model);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "past the end of the file"));
  tflaccel_status_free(status);
  free(half);
  free(bytes);
  tb_destroy(builder);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("model_corrupt");
  TCase *damaged = tcase_create("damaged real models");
  tcase_set_timeout(damaged, 600);
  tcase_add_test(damaged, truncated_models_fail_cleanly);
  tcase_add_test(damaged, flipped_bytes_fail_cleanly);
  suite_add_tcase(suite, damaged);
  TCase *handmade = tcase_create("handcrafted defects");
  tcase_add_test(handmade, the_small_model_is_valid);
  tcase_add_test(handmade, wrong_identifier_is_named);
  tcase_add_test(handmade, vector_length_of_two_to_the_31_is_caught);
  tcase_add_test(handmade, out_of_range_tensor_index_is_caught);
  tcase_add_test(handmade, a_cycle_is_caught);
  tcase_add_test(handmade, missing_buffer_is_caught);
  tcase_add_test(handmade, an_unproduced_input_is_caught);
  tcase_add_test(handmade, schema_version_is_checked);
  tcase_add_test(handmade, unknown_types_are_named);
  tcase_add_test(handmade, opcode_index_is_checked);
  tcase_add_test(handmade, zero_point_range_is_checked);
  tcase_add_test(handmade, constant_size_is_checked);
  tcase_add_test(handmade, absurd_shapes_are_caught);
  tcase_add_test(handmade, absurd_quantization_is_refused);
  tcase_add_test(handmade, the_memory_limit_is_enforced);
  tcase_add_test(handmade, a_constant_output_is_caught);
  tcase_add_test(handmade, a_truncated_builder_file_is_caught);
  suite_add_tcase(suite, handmade);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
