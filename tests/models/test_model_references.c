/* Every model that has a reference output from the real TFLite interpreter
 * runs on cpu_ref and must match it within the tolerance of expected.json;
 * a model without a reference either stops with a message naming the op or
 * tensor nobody can run, or runs to finite outputs. Uses ../shared/models when present, else the
 * small models copied into tests/data. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/json.h"
#include "tests/support/model_compare.h"
#include "tests/support/test_util.h"
#include "tools/tflaccel/input_generator.h"
#ifdef MODEL_REFERENCE_XNNPACK_LIMITS
#include "tests/models/xnnpack_limits.h"
#endif
#include "tflaccel/tflaccel.h"

/* The accelerators the models run on: cpu_ref alone by default; the
 * cpu_xnnpack build of this test runs "cpu_xnnpack,cpu_ref". */
#ifndef MODEL_REFERENCE_ACCELERATORS
#define MODEL_REFERENCE_ACCELERATORS "cpu_ref"
#endif

#define MAX_MODELS 64
#define MAX_TENSORS 16

typedef struct model_case {
  char name[128];
} model_case;

/* Check forks per test: the list is built in the parent, read in children. */
static model_case cases[MAX_MODELS];
static int case_count;
static const char *models_dir;

/* snprintf into a path buffer, failing the test if it does not fit. */
#define FORMAT_PATH(buffer, ...) \
  ck_assert_msg(snprintf((buffer), sizeof(buffer), __VA_ARGS__) < (int)sizeof(buffer), "path too long")

/* A model with no reference output that compiled: runs it once on the
 * xorshift32 inputs of ../shared/models/README.md (seed 1) and checks that
 * every float output is finite. */
static void run_without_reference(tflaccel_compiled_model *compiled, const char *name) {
  uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
  ck_assert_uint_le(input_count, MAX_TENSORS);
  ck_assert_uint_le(output_count, MAX_TENSORS);
  tflaccel_tensor_buffer *inputs[MAX_TENSORS] = {0}, *outputs[MAX_TENSORS] = {0};
  input_generator generator;
  input_generator_init(&generator, 1);
  for (uint32_t i = 0; i < input_count; ++i) {
    ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]));
    const int32_t dtype = tflaccel_tensor_buffer_dtype(inputs[i]);
    const size_t count = tflaccel_tensor_buffer_byte_size(inputs[i]) / tflaccel_dtype_size(dtype);
    ck_assert_msg(input_generator_fill(&generator, dtype, tflaccel_tensor_buffer_data(inputs[i]),
                                       count),
                  "%s: input %u has a dtype the generator does not fill", name, i);
  }
  for (uint32_t i = 0; i < output_count; ++i)
    ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]));
  tflaccel_status status =
      tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
  ck_assert_msg(status == NULL, "%s: %s", name, tflaccel_status_message(status));
  for (uint32_t i = 0; i < output_count; ++i) {
    if (tflaccel_tensor_buffer_dtype(outputs[i]) != TFLACCEL_DTYPE_FLOAT32) continue;
    const float *values = tflaccel_tensor_buffer_data(outputs[i]);
    const size_t count = tflaccel_tensor_buffer_byte_size(outputs[i]) / sizeof(float);
    for (size_t k = 0; k < count; ++k)
      ck_assert_msg(isfinite(values[k]), "%s output %u[%zu] is not finite", name, i, k);
  }
  printf("%s: no reference; runs, %u outputs finite\n", name, output_count);
  for (uint32_t i = 0; i < input_count; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
  for (uint32_t i = 0; i < output_count; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
}

START_TEST(model_matches_reference) {
  const char *name = cases[_i].name;
  char path[4096];
  FORMAT_PATH(path, "%s/expected.json", models_dir);
  json_value *expected = json_parse_file(path);
  ck_assert_ptr_nonnull(expected);
  const json_value *entry = json_get(expected, name);
  ck_assert_ptr_nonnull(entry);
  FORMAT_PATH(path, "%s/%s", models_dir, json_get(entry, "model")->string);
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file(path, &model);
  ck_assert_msg(status == NULL, "%s: %s", name, tflaccel_status_message(status));

  tflaccel_environment_options environment_options = {.struct_size = sizeof environment_options,
                                                       .accelerators = MODEL_REFERENCE_ACCELERATORS,
                                                       .log_level = "error"};
  tflaccel_environment *environment = NULL;
  status = tflaccel_environment_create(&environment_options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_compiled_model *compiled = NULL;
  status = tflaccel_compiled_model_create(environment, model, NULL, &compiled);

  const json_value *runtime = json_get(entry, "reference_runtime");
  if ((runtime == NULL || runtime->kind == JSON_NULL) && status != NULL) {
    /* No reference and no kernel: it must stop, naming what cannot run. */
    const char *message = tflaccel_status_message(status);
    ck_assert_msg(strstr(message, "op ") != NULL || strstr(message, "tensor ") != NULL,
                  "%s: refusal names no op or tensor: %s", name, message);
    printf("%s: stops as expected: %s\n", name, message);
    tflaccel_status_free(status);
  } else if (runtime == NULL || runtime->kind == JSON_NULL) {
    /* No reference, but it compiles: it must run on the README's inputs
     * (xorshift32, seed 1) and give finite outputs. */
    run_without_reference(compiled, name);
  } else {
    ck_assert_msg(status == NULL, "%s: %s", name, tflaccel_status_message(status));
    char ref_dir[4096];
    FORMAT_PATH(ref_dir, "%s/ref/%s", models_dir, name);
    FORMAT_PATH(path, "%s/manifest.json", ref_dir);
    json_value *manifest = json_parse_file(path);
    ck_assert_ptr_nonnull(manifest);
    const json_value *options = json_get(manifest, "options");
    const json_value *repeat = options ? json_get(options, "repeat") : NULL;
    int runs = repeat && repeat->kind == JSON_NUMBER ? (int)repeat->number : 1;

    uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
    uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
    ck_assert_uint_le(input_count, MAX_TENSORS);
    ck_assert_uint_le(output_count, MAX_TENSORS);
    tflaccel_tensor_buffer *inputs[MAX_TENSORS] = {0}, *outputs[MAX_TENSORS] = {0};
    model_compare_fill_inputs(compiled, models_dir, name, inputs, input_count);
    for (uint32_t i = 0; i < output_count; ++i)
      ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]));
    /* Models whose state changes their outputs from run to run (LSTM, SVDF
     * state) are checked a second time after tflaccel_compiled_model_reset_state:
     * without a real reset, that second pass would carry four runs of state. */
    const json_value *deterministic = json_get(manifest, "deterministic_across_repeats");
    int rounds = deterministic && deterministic->kind == JSON_BOOL && deterministic->number == 0 ? 2 : 1;
    for (int round = 0; round < rounds; ++round) {
    if (round > 0) {
      status = tflaccel_compiled_model_reset_state(compiled);
      ck_assert_msg(status == NULL, "%s: reset_state: %s", name, tflaccel_status_message(status));
    }
    /* The references were taken on the last of `repeat` runs, with state
     * (LSTM, SVDF) carried from one run to the next. */
    for (int run = 0; run < runs; ++run) {
      status = tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
      ck_assert_msg(status == NULL, "%s: %s", name, tflaccel_status_message(status));
    }
    const json_value *expected_outputs = json_get(entry, "outputs");
    ck_assert_uint_eq(expected_outputs->count, output_count);
    for (uint32_t i = 0; i < output_count; ++i) {
      const json_value *output = &expected_outputs->items[i];
      FORMAT_PATH(path, "%s/%s", ref_dir, json_get(output, "file")->string);
      size_t size = 0;
      void *reference = model_compare_read_file(path, &size);
      ck_assert_msg(reference != NULL, "cannot read %s", path);
      int32_t dtype = tflaccel_tensor_buffer_dtype(outputs[i]);
      ck_assert_uint_eq(size, tflaccel_tensor_buffer_byte_size(outputs[i]));
      char why[256];
      const char *failure = model_compare_output(
          json_get(output, "tolerance"), "rtol_fp32", dtype,
          tflaccel_tensor_buffer_data(outputs[i]), reference, size / tflaccel_dtype_size(dtype),
          why, sizeof why);
#ifdef MODEL_REFERENCE_XNNPACK_LIMITS
      if (failure != NULL && xnnpack_limit_applies(name, i)) {
        printf("%s output %u: %s; checking the measured XNNPACK limit\n", name, i, failure);
        failure = xnnpack_limit_check(name, i, dtype, tflaccel_tensor_buffer_data(outputs[i]),
                                      reference, size / tflaccel_dtype_size(dtype), why,
                                      sizeof why);
      }
#endif
      ck_assert_msg(failure == NULL, "%s output %u (%s): %s", name, i,
                    json_get(output, "name")->string, failure);
      free(reference);
    }
    printf("%s: %u outputs within tolerance (%d runs%s)\n", name, output_count, runs,
           round > 0 ? ", after reset_state" : "");
    /* Where the ops ran: what the first accelerator of the list took. */
    uint32_t partitions = tflaccel_compiled_model_partition_count(compiled), first = 0;
    for (uint32_t p = 0; p < partitions; ++p) {
      tflaccel_partition_info info = {.struct_size = sizeof info};
      ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &info));
      if (strncmp(MODEL_REFERENCE_ACCELERATORS, info.accelerator, strlen(info.accelerator)) == 0)
        first += info.op_count;
    }
    printf("%s: %u ops ran on the first of %s\n", name, first, MODEL_REFERENCE_ACCELERATORS);
#ifdef MODEL_REFERENCE_XNNPACK_LIMITS
    ck_assert_msg(first > 0 || xnnpack_runs_none_of(name),
                  "%s: no op ran on cpu_xnnpack, so the check above tested cpu_ref", name);
#endif
    }
    for (uint32_t i = 0; i < input_count; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
    for (uint32_t i = 0; i < output_count; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
    json_destroy(manifest);
  }
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  json_destroy(expected);
}
END_TEST

int main(void) {
  const char *shared = getenv("TFLACCEL_SHARED_MODELS");
  char probe[4096];
  snprintf(probe, sizeof probe, "%s/expected.json", shared ? shared : "");
  if (shared != NULL && access(probe, R_OK) == 0) {
    models_dir = shared;
  } else {
    models_dir = getenv("TFLACCEL_TEST_DATA");
    printf("note: ../shared/models is absent (%s); testing the models in tests/data only\n",
           shared ? shared : "TFLACCEL_SHARED_MODELS unset");
  }
  if (models_dir == NULL) {
    fprintf(stderr, "TFLACCEL_TEST_DATA is not set\n");
    return 1;
  }
  snprintf(probe, sizeof probe, "%s/expected.json", models_dir);
  json_value *expected = json_parse_file(probe);
  if (expected == NULL || expected->kind != JSON_OBJECT) return 1;
  for (size_t i = 0; i < expected->count && case_count < MAX_MODELS; ++i)
    snprintf(cases[case_count++].name, sizeof cases[0].name, "%s", expected->keys[i]);
  json_destroy(expected);

  Suite *suite = suite_create("model references");
  TCase *tcase = tcase_create(MODEL_REFERENCE_ACCELERATORS);
  tcase_set_timeout(tcase, 900);
  tcase_add_loop_test(tcase, model_matches_reference, 0, case_count);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
