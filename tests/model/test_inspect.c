/* `tflaccel inspect`: its JSON and text for the models in tests/data, and
 * its exit statuses. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/model/inspect_runner.h"
#include "tests/model/test_support.h"
#include "tests/support/json.h"

static json_value *inspect_json(const char *path) {
  char *out, *err;
  char *argv[] = {"inspect", "--json", (char *)path, NULL};
  int status = test_run_inspect(3, argv, &out, &err);
  ck_assert_msg(status == 0, "inspect %s: exit %d: %s", path, status, err ? err : "");
  ck_assert_ptr_nonnull(out);
  ck_assert_str_eq(err, "");
  json_value *root = json_parse(out, strlen(out), NULL);
  ck_assert_msg(root != NULL, "inspect --json printed invalid JSON: %s", out);
  free(out);
  free(err);
  return root;
}

static double number(const json_value *value) {
  ck_assert_ptr_nonnull(value);
  ck_assert_int_eq(value->kind, JSON_NUMBER);
  return value->number;
}

static void check_shape(const json_value *shape, const int *expected, size_t rank) {
  ck_assert_ptr_nonnull(shape);
  ck_assert_int_eq(shape->kind, JSON_ARRAY);
  ck_assert_uint_eq(shape->count, rank);
  for (size_t i = 0; i < rank; ++i) ck_assert_int_eq((int)number(json_at(shape, i)), expected[i]);
}

static void check_tensor(const json_value *tensor, const char *name, const char *dtype,
                         const int *shape, size_t rank) {
  ck_assert_ptr_nonnull(tensor);
  ck_assert_str_eq(json_get(tensor, "name")->string, name);
  ck_assert_str_eq(json_get(tensor, "dtype")->string, dtype);
  check_shape(json_get(tensor, "shape"), shape, rank);
}

START_TEST(json_describes_the_models) {
  const char *dir = test_model_dir();
  ck_assert_ptr_nonnull(dir);
  char *path = test_join(dir, "face_detection_short_range.tflite");
  json_value *root = inspect_json(path);
  ck_assert_int_eq((int)number(json_get(root, "subgraphs")), 1);
  ck_assert_int_eq((int)number(json_get(root, "tensors")), 250);
  ck_assert_int_eq((int)number(json_get(root, "schema_version")), 3);
  const json_value *inputs = json_get(root, "inputs"), *outputs = json_get(root, "outputs");
  ck_assert_uint_eq(inputs->count, 1);
  check_tensor(json_at(inputs, 0), "input", "float32", (int[]){1, 128, 128, 3}, 4);
  ck_assert_uint_eq(outputs->count, 2);
  check_tensor(json_at(outputs, 0), "regressors", "float32", (int[]){1, 896, 16}, 3);
  check_tensor(json_at(outputs, 1), "classificators", "float32", (int[]){1, 896, 1}, 3);
  const json_value *ops = json_get(root, "ops");
  static const struct { const char *name; int count; } expected_ops[] = {
    {"DEQUANTIZE", 74}, {"CONV_2D", 21}, {"RELU", 17}, {"DEPTHWISE_CONV_2D", 16}, {"ADD", 16},
    {"PAD", 11}, {"MAX_POOL_2D", 3}, {"RESHAPE", 4}, {"CONCATENATION", 2},
  };
  ck_assert_uint_eq(ops->count, 9);
  for (size_t i = 0; i < 9; ++i)
    ck_assert_int_eq((int)number(json_get(ops, expected_ops[i].name)), expected_ops[i].count);
  ck_assert_int_eq((int)number(json_get(root, "op_count")), 164);
  ck_assert_uint_eq(json_get(root, "custom_ops")->count, 0);
  ck_assert(number(json_get(root, "weight_bytes")) > 0);
  ck_assert(number(json_get(root, "peak_activation_bytes")) > 0);
  json_destroy(root);
  free(path);

  path = test_join(dir, "selfie_segmentation.tflite");
  root = inspect_json(path);
  ops = json_get(root, "ops");
  ck_assert_int_eq((int)number(json_get(ops, "CUSTOM:Convolution2DTransposeBias")), 1);
  ck_assert_int_eq((int)number(json_get(ops, "DEQUANTIZE")), 110);
  const json_value *custom = json_get(root, "custom_ops");
  ck_assert_uint_eq(custom->count, 1);
  ck_assert_str_eq(json_at(custom, 0)->string, "Convolution2DTransposeBias");
  check_tensor(json_at(json_get(root, "outputs"), 0), "activation_10", "float32",
               (int[]){1, 256, 256, 1}, 4);
  json_destroy(root);
  free(path);
}
END_TEST

START_TEST(text_lists_the_essentials) {
  const char *dir = test_model_dir();
  ck_assert_ptr_nonnull(dir);
  char *path = test_join(dir, "hand_recrop.tflite");
  char *out, *err;
  char *argv[] = {"inspect", path, NULL};
  ck_assert_int_eq(test_run_inspect(2, argv, &out, &err), 0);
  ck_assert_ptr_nonnull(strstr(out, "tensors: 152"));
  ck_assert_ptr_nonnull(strstr(out, "'input_1' (tensor 0) float32 [1,256,256,3]"));
  ck_assert_ptr_nonnull(strstr(out, "'output_crop' (tensor 151) float32 [1,1,1,4]"));
  ck_assert_ptr_nonnull(strstr(out, "ops: 63"));
  ck_assert_ptr_nonnull(strstr(out, "STRIDED_SLICE"));
  ck_assert_ptr_nonnull(strstr(out, "custom ops: none"));
  ck_assert_ptr_nonnull(strstr(out, "peak activations (estimate): "));
  free(out);
  free(err);
  free(path);
}
END_TEST

START_TEST(errors_and_usage) {
  char *out, *err;
  char *missing[] = {"inspect", "/nonexistent.tflite", NULL};
  ck_assert_int_eq(test_run_inspect(2, missing, &out, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "tflaccel inspect: /nonexistent.tflite: cannot open"));
  size_t length = strlen(err); /* one line */
  ck_assert(length > 0 && strchr(err, '\n') == err + length - 1);
  ck_assert_str_eq(out, "");
  free(out);
  free(err);
  char *none[] = {"inspect", NULL};
  ck_assert_int_eq(test_run_inspect(1, none, &out, &err), 2);
  ck_assert_ptr_nonnull(strstr(err, "no model given"));
  free(out);
  free(err);
  char *unknown[] = {"inspect", "--frobnicate", "x.tflite", NULL};
  ck_assert_int_eq(test_run_inspect(3, unknown, &out, &err), 2);
  ck_assert_ptr_nonnull(strstr(err, "unknown option '--frobnicate'"));
  free(out);
  free(err);
  char *help[] = {"inspect", "--help", NULL};
  ck_assert_int_eq(test_run_inspect(2, help, &out, &err), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: tflaccel inspect"));
  free(out);
  free(err);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("inspect");
  TCase *cases = tcase_create("inspect");
  tcase_add_test(cases, json_describes_the_models);
  tcase_add_test(cases, text_lists_the_essentials);
  tcase_add_test(cases, errors_and_usage);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
