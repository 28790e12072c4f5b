/* The public API pieces the Python binding is built on: signature defs,
 * tensor buffers over the caller's memory, plan ops back to stored ops, and
 * the cache_dir option. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

static char *data_path(const char *variable, const char *name) {
  const char *dir = getenv(variable);
  if (dir == NULL) return NULL;
  size_t size = strlen(dir) + strlen(name) + 2;
  char *path = malloc(size);
  ck_assert_ptr_nonnull(path);
  snprintf(path, size, "%s/%s", dir, name);
  return path;
}

static tflaccel_model *load(const char *variable, const char *name) {
  char *path = data_path(variable, name);
  if (path == NULL) return NULL;
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file(path, &model);
  if (status != NULL && tflaccel_status_code_of(status) == TFLACCEL_NOT_FOUND) {
    tflaccel_status_free(status);
    free(path);
    return NULL;
  }
  ck_assert_msg(status == NULL, "%s: %s", path, tflaccel_status_message(status));
  free(path);
  return model;
}

START_TEST(model_without_signatures) {
  tflaccel_model *model = load("TFLACCEL_TEST_DATA", "hand_recrop.tflite");
  ck_assert_ptr_nonnull(model);
  tflaccel_signature_info info = {.struct_size = sizeof info};
  tflaccel_status status = tflaccel_model_signature_info(model, 0, &info);
  ck_assert_ptr_nonnull(status);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "does not exist"));
  tflaccel_status_free(status);
  const char *name = NULL;
  uint32_t tensor = 0;
  status = tflaccel_model_signature_tensor(model, 0, 0, 0, &name, &tensor);
  ck_assert_ptr_nonnull(status);
  tflaccel_status_free(status);
  tflaccel_model_destroy(model);
}
END_TEST

/* tflm__hello_world_float: one signature, serving_default, one input and one
 * output, which are subgraph 0's input and output. */
START_TEST(signature_maps_names_to_tensors) {
  tflaccel_model *model = load("TFLACCEL_SHARED_MODELS", "tflm__hello_world_float.tflite");
  if (model == NULL) {
    printf("SKIP: ../shared/models/tflm__hello_world_float.tflite is absent\n");
    return;
  }
  tflaccel_signature_info info = {.struct_size = sizeof info};
  tflaccel_status info_status = tflaccel_model_signature_info(model, 0, &info);
  ck_assert_msg(info_status == NULL, "%s", tflaccel_status_message(info_status));
  ck_assert_str_eq(info.key, "serving_default");
  ck_assert_uint_eq(info.subgraph_index, 0);
  ck_assert_uint_eq(info.input_count, 1);
  ck_assert_uint_eq(info.output_count, 1);
  for (int32_t is_output = 0; is_output <= 1; ++is_output) {
    const char *name = NULL;
    uint32_t tensor = 0, expected = 0;
    ck_assert_ptr_null(tflaccel_model_signature_tensor(model, 0, is_output, 0, &name, &tensor));
    ck_assert_ptr_null(is_output ? tflaccel_model_output_tensor(model, 0, &expected)
                                 : tflaccel_model_input_tensor(model, 0, &expected));
    ck_assert_uint_eq(tensor, expected);
    ck_assert_ptr_nonnull(name);
    ck_assert_int_gt((int)strlen(name), 0);
    tflaccel_status status = tflaccel_model_signature_tensor(model, 0, is_output, 1, &name, &tensor);
    ck_assert_ptr_nonnull(status);
    tflaccel_status_free(status);
  }
  info.struct_size = 4;
  tflaccel_status status = tflaccel_model_signature_info(model, 0, &info);
  ck_assert_ptr_nonnull(status);
  tflaccel_status_free(status);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(wrapped_host_buffer_runs_without_copies) {
  tflaccel_model *model = load("TFLACCEL_TEST_DATA", "hand_recrop.tflite");
  ck_assert_ptr_nonnull(model);
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .accelerators = "cpu_ref"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  tflaccel_compiled_model *compiled = NULL;
  ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, NULL, &compiled));

  /* The same input through an owned buffer and through wrapped memory. */
  tflaccel_tensor_buffer *owned_in = NULL, *owned_out = NULL;
  ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, 0, &owned_in));
  ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, 0, &owned_out));
  size_t in_size = tflaccel_tensor_buffer_byte_size(owned_in);
  size_t out_size = tflaccel_tensor_buffer_byte_size(owned_out);
  float *in = malloc(in_size), *out = calloc(1, out_size);
  ck_assert(in != NULL && out != NULL);
  for (size_t i = 0; i < in_size / sizeof *in; ++i) in[i] = (float)(i % 17) / 17.0f - 0.5f;
  ck_assert_ptr_null(tflaccel_tensor_buffer_write(owned_in, in, in_size));

  tflaccel_tensor_buffer *wrapped_in = NULL, *wrapped_out = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_wrap_host(
      tflaccel_tensor_buffer_dtype(owned_in), tflaccel_tensor_buffer_rank(owned_in),
      tflaccel_tensor_buffer_shape(owned_in), in, in_size, &wrapped_in));
  ck_assert_ptr_eq(tflaccel_tensor_buffer_data(wrapped_in), in);
  ck_assert_ptr_null(tflaccel_tensor_buffer_wrap_host(
      tflaccel_tensor_buffer_dtype(owned_out), tflaccel_tensor_buffer_rank(owned_out),
      tflaccel_tensor_buffer_shape(owned_out), out, out_size, &wrapped_out));

  ck_assert_ptr_null(tflaccel_compiled_model_run(compiled, &owned_in, 1, &owned_out, 1));
  ck_assert_ptr_null(tflaccel_compiled_model_run(compiled, &wrapped_in, 1, &wrapped_out, 1));
  ck_assert_int_eq(memcmp(out, tflaccel_tensor_buffer_data(owned_out), out_size), 0);

  /* A size that does not fit the shape is refused. */
  tflaccel_tensor_buffer *bad = NULL;
  tflaccel_status status = tflaccel_tensor_buffer_wrap_host(
      TFLACCEL_DTYPE_FLOAT32, tflaccel_tensor_buffer_rank(owned_in),
      tflaccel_tensor_buffer_shape(owned_in), in, in_size - 4, &bad);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_null(bad);
  tflaccel_status_free(status);

  tflaccel_tensor_buffer_destroy(wrapped_in); /* frees nothing of `in` */
  tflaccel_tensor_buffer_destroy(wrapped_out);
  in[0] = 1.0f;
  free(in);
  free(out);
  tflaccel_tensor_buffer_destroy(owned_in);
  tflaccel_tensor_buffer_destroy(owned_out);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
}
END_TEST

/* Every op of the plan maps back to a stored op with a name. */
START_TEST(plan_ops_map_to_stored_ops) {
  tflaccel_model *model = load("TFLACCEL_TEST_DATA", "hand_recrop.tflite");
  ck_assert_ptr_nonnull(model);
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .accelerators = "cpu_ref"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  tflaccel_compiled_model *compiled = NULL;
  ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, NULL, &compiled));
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  uint32_t planned = 0;
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(compiled); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &info));
    for (uint32_t i = 0; i < info.op_count; ++i, ++planned) {
      uint32_t stored = UINT32_MAX;
      ck_assert_ptr_null(tflaccel_model_prepared_op_source(model, info.ops[i], &stored));
      ck_assert_uint_lt(stored, summary.op_count);
      tflaccel_op_info op = {.struct_size = sizeof op};
      ck_assert_ptr_null(tflaccel_model_op_info(model, stored, &op));
      ck_assert_ptr_nonnull(op.name);
    }
  }
  ck_assert_uint_gt(planned, 0);
  uint32_t stored = 0;
  tflaccel_status status = tflaccel_model_prepared_op_source(model, 100000, &stored);
  ck_assert_ptr_nonnull(status);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
}
END_TEST

START_TEST(cache_dir_option_is_checked) {
  /* A directory that cannot be used (its parent is missing) turns the
   * cache off with a warning; the environment is made all the same, and
   * nothing of the path is created. */
  char *dir = test_make_temp_dir();
  char missing[4096], parent[4096];
  snprintf(parent, sizeof parent, "%s/missing", dir);
  snprintf(missing, sizeof missing, "%s/missing/tflaccel-cache", dir);
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .accelerators = "cpu_ref",
                                          .log_level = "error",
                                          .cache_dir = missing};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_ptr_null(tflaccel_environment_cache_dir(environment));
  ck_assert_int_ne(access(parent, F_OK), 0);
  tflaccel_environment_destroy(environment);

  options.cache_dir = dir;
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  ck_assert_str_eq(tflaccel_environment_cache_dir(environment), dir);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("binding_api");
  TCase *tc = tcase_create("binding_api");
  tcase_add_test(tc, model_without_signatures);
  tcase_add_test(tc, signature_maps_names_to_tensors);
  tcase_add_test(tc, wrapped_host_buffer_runs_without_copies);
  tcase_add_test(tc, plan_ops_map_to_stored_ops);
  tcase_add_test(tc, cache_dir_option_is_checked);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
