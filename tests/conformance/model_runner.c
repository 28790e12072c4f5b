/* The GPU model tests' shared loop (model_runner.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/conformance/model_runner.h"
#include "tests/support/json.h"
#include "tests/support/model_compare.h"

#define MAX_TENSORS 16
#define SKIP_EXIT_STATUS 77

#define FORMAT_PATH(buffer, ...)                                                       \
  ck_assert_msg(snprintf((buffer), sizeof(buffer), __VA_ARGS__) < (int)sizeof(buffer), \
                "path too long")

void model_runner_open(model_runner_model *opened, const char *path, const char *accelerators,
                       const char *expected, int32_t precision, const char *label) {
  memset(opened, 0, sizeof *opened);
  tflaccel_status status = tflaccel_model_load_file(path, &opened->model);
  ck_assert_msg(status == NULL, "%s: %s", label, tflaccel_status_message(status));
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .accelerators = accelerators,
      .log_level = "error"};
  status = tflaccel_environment_create(&environment_options, &opened->environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.precision = precision;
  status = tflaccel_compiled_model_create(opened->environment, opened->model, &options,
                                          &opened->compiled);
  ck_assert_msg(status == NULL, "%s: %s", label, tflaccel_status_message(status));
  /* Fully delegated: no op left for the fallback. */
  uint32_t partitions = tflaccel_compiled_model_partition_count(opened->compiled);
  uint32_t other_precision_ops = 0;
  for (uint32_t p = 0; p < partitions; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(opened->compiled, p, &info));
    ck_assert_msg(!strcmp(info.accelerator, expected), "%s: partition %u (%u ops) runs on %s",
                  label, p, info.op_count, info.accelerator);
    if (info.precision != precision) other_precision_ops += info.op_count;
  }
  /* Partitions at another precision (int32 values past fp16's exact
   * integers compile at fp32) still run on the plugin: said, not failed. */
  if (other_precision_ops > 0)
    printf("%s: %u partitions, %u ops compiled at %s\n", label, partitions, other_precision_ops,
           precision == TFLACCEL_PRECISION_FP16 ? "fp32" : "fp16");
}

void model_runner_close(model_runner_model *opened) {
  tflaccel_compiled_model_destroy(opened->compiled);
  tflaccel_environment_destroy(opened->environment);
  tflaccel_model_destroy(opened->model);
  memset(opened, 0, sizeof *opened);
}

void model_runner_check(const model_runner_case *run_case, int32_t precision) {
  const char *name = run_case->name;
  const char *precision_name = precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32";
  char path[4096], label[256], accelerators[128];
  FORMAT_PATH(path, "%s/%s", run_case->models_dir, run_case->model_file);
  FORMAT_PATH(label, "%s (%s)", name, precision_name);
  FORMAT_PATH(accelerators, "%s,cpu_ref", run_case->accelerator);
  model_runner_model opened;
  model_runner_open(&opened, path, accelerators, run_case->accelerator, precision, label);
  uint32_t input_count = tflaccel_compiled_model_input_count(opened.compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(opened.compiled);
  ck_assert_uint_le(input_count, MAX_TENSORS);
  ck_assert_uint_le(output_count, MAX_TENSORS);
  tflaccel_tensor_buffer *inputs[MAX_TENSORS] = {0}, *outputs[MAX_TENSORS] = {0};
  model_compare_fill_inputs(opened.compiled, run_case->models_dir, name, inputs, input_count);
  for (uint32_t i = 0; i < output_count; ++i)
    ck_assert_ptr_null(
        tflaccel_compiled_model_create_output_buffer(opened.compiled, i, &outputs[i]));
  /* The references were taken on the last of the manifest's `repeat`
   * runs, with state (the LSTMs) carried from one run to the next: a model
   * whose outputs change from run to run runs as often (and, where the
   * test asks, so again after reset_state, which must bring back the same
   * outputs); the others once (every run gives their reference). */
  FORMAT_PATH(path, "%s/ref/%s/manifest.json", run_case->models_dir, name);
  json_value *manifest = json_parse_file(path);
  ck_assert_ptr_nonnull(manifest);
  const json_value *run_options = json_get(manifest, "options");
  const json_value *repeat = run_options ? json_get(run_options, "repeat") : NULL;
  const json_value *deterministic = json_get(manifest, "deterministic_across_repeats");
  int stateful = deterministic && deterministic->kind == JSON_BOOL && deterministic->number == 0;
  int runs = stateful && repeat && repeat->kind == JSON_NUMBER ? (int)repeat->number : 1;
  int rounds = stateful && run_case->check_reset ? 2 : 1;
  json_destroy(manifest);
  for (int round = 0; round < rounds; ++round) {
    if (round > 0) {
      tflaccel_status status = tflaccel_compiled_model_reset_state(opened.compiled);
      ck_assert_msg(status == NULL, "%s: reset_state: %s", label,
                    tflaccel_status_message(status));
    }
    for (int run = 0; run < runs; ++run) {
      tflaccel_status status = tflaccel_compiled_model_run(opened.compiled, inputs, input_count,
                                                           outputs, output_count);
      ck_assert_msg(status == NULL, "%s: %s", label, tflaccel_status_message(status));
    }
    run_case->compare(name, precision_name, precision, outputs, output_count, run_case->context);
  }
  printf("%s: %u outputs checked, fully on %s\n", label, output_count, run_case->accelerator);
  for (uint32_t i = 0; i < input_count; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
  for (uint32_t i = 0; i < output_count; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
  model_runner_close(&opened);
}

int model_runner_accelerator_absent(const char *accelerator) {
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) _exit(model_compare_accelerator_available(accelerator) ? 0 : SKIP_EXIT_STATUS);
  int wait_status = 0;
  return child > 0 && waitpid(child, &wait_status, 0) == child && WIFEXITED(wait_status) &&
         WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS;
}
