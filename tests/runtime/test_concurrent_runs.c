/* What tflaccel.h promises about threads: different compiled models, made
 * from one environment, run at the same time from different threads, on
 * every plugin, and give exactly the outputs of a single-threaded run.
 *
 * For each plugin (alone, with cpu_ref as the fallback), N threads each own
 * a compiled model of face_detection_short_range and a different input; the
 * compiled models are made either beforehand on the main thread or by the
 * threads themselves, all at once. Every output must equal, byte for byte,
 * the output of the same input run alone on the same environment.
 * TFLACCEL_THREADS_N (default 8) and TFLACCEL_THREADS_RUNS (default 2) make
 * the run longer by hand. A plugin that is not built or finds no driver is
 * reported and passed over; cpu_ref is always there. */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MAX_THREADS 64
#define MAX_TENSORS 8

static const char *const plugins[] = {"cpu_ref", "gpu_cl", "gpu_vk", "gpu_gl"};
#define PLUGIN_COUNT (sizeof plugins / sizeof plugins[0])

static int thread_count = 8;
static int runs_per_thread = 2;
static char model_path[4096];

/* One thread's input and the outputs a lone run gives for it. */
typedef struct thread_case {
  uint8_t *inputs[MAX_TENSORS];
  uint8_t *expected[MAX_TENSORS];
} thread_case;

typedef struct worker {
  tflaccel_environment *environment;
  const tflaccel_model *model;
  tflaccel_compiled_model *compiled; /* NULL: the thread makes its own */
  const thread_case *data;
  pthread_barrier_t *start;          /* all threads compile and run at once */
  int index;
  char error[512];
} worker;

static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

/* Deterministic input bytes per thread: floats in [-1, 1], other types raw. */
static void fill_input(tflaccel_tensor_buffer *buffer, uint32_t seed) {
  uint8_t *bytes = tflaccel_tensor_buffer_data(buffer);
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  uint32_t state = seed * 2654435761u + 1;
  if (tflaccel_tensor_buffer_dtype(buffer) == TFLACCEL_DTYPE_FLOAT32) {
    float *values = (float *)bytes;
    for (size_t i = 0; i < size / sizeof(float); ++i)
      values[i] = (float)(next_random(&state) >> 8) / (float)(1u << 23) - 1.0f;
  } else {
    for (size_t i = 0; i < size; ++i) bytes[i] = (uint8_t)(next_random(&state) >> 24);
  }
}

/* Runs `compiled` on data->inputs; on the first pass (compare == 0) stores
 * the outputs in data->expected, afterwards compares with them. Returns 0
 * and fills error on failure. */
static int run_and_check(tflaccel_compiled_model *compiled, thread_case *data, int compare,
                         int runs, char *error, size_t error_size) {
  uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
  tflaccel_tensor_buffer *inputs[MAX_TENSORS] = {0}, *outputs[MAX_TENSORS] = {0};
  int ok = input_count <= MAX_TENSORS && output_count <= MAX_TENSORS;
  if (!ok) snprintf(error, error_size, "more than %d inputs or outputs", MAX_TENSORS);
  tflaccel_status status = NULL;
  for (uint32_t i = 0; ok && i < input_count; ++i) {
    status = tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]);
    if (status == NULL)
      status = tflaccel_tensor_buffer_write(inputs[i], data->inputs[i],
                                            tflaccel_tensor_buffer_byte_size(inputs[i]));
    ok = status == NULL;
  }
  for (uint32_t i = 0; ok && i < output_count; ++i) {
    status = tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]);
    ok = status == NULL;
  }
  for (int run = 0; ok && run < runs; ++run) {
    status = tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
    ok = status == NULL;
    for (uint32_t i = 0; ok && i < output_count; ++i) {
      size_t size = tflaccel_tensor_buffer_byte_size(outputs[i]);
      const void *got = tflaccel_tensor_buffer_data(outputs[i]);
      if (!compare) {
        data->expected[i] = malloc(size ? size : 1);
        ok = data->expected[i] != NULL;
        if (ok) memcpy(data->expected[i], got, size);
        else snprintf(error, error_size, "out of memory");
      } else if (memcmp(got, data->expected[i], size) != 0) {
        snprintf(error, error_size, "run %d: output %u differs from the single-threaded run", run,
                 i);
        ok = 0;
      }
    }
    compare = 1; /* later runs of the first pass must repeat the first */
  }
  if (status != NULL) {
    snprintf(error, error_size, "%s", tflaccel_status_message(status));
    tflaccel_status_free(status);
  }
  for (uint32_t i = 0; i < input_count && i < MAX_TENSORS; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
  for (uint32_t i = 0; i < output_count && i < MAX_TENSORS; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
  return ok;
}

static void *worker_main(void *argument) {
  worker *w = argument;
  pthread_barrier_wait(w->start);
  tflaccel_compiled_model *compiled = w->compiled;
  if (compiled == NULL) {
    tflaccel_status status = tflaccel_compiled_model_create(w->environment, w->model, NULL, &compiled);
    if (status != NULL) {
      snprintf(w->error, sizeof w->error, "compile: %s", tflaccel_status_message(status));
      tflaccel_status_free(status);
      return NULL;
    }
  }
  run_and_check(compiled, (thread_case *)w->data, 1, runs_per_thread, w->error, sizeof w->error);
  if (w->compiled == NULL) tflaccel_compiled_model_destroy(compiled);
  return NULL;
}

/* The plugin's availability in this environment; prints why when not. */
static int plugin_available(tflaccel_environment *environment, const char *name) {
  for (uint32_t p = 0; p < tflaccel_environment_plugin_count(environment); ++p) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, p, &info));
    if (strcmp(info.name, name) != 0) continue;
    if (!info.available) printf("%s: unavailable, not tested: %s\n", name, info.reason ? info.reason : "");
    return info.available;
  }
  printf("%s: not configured, not tested\n", name);
  return 0;
}

/* _i: plugin * 2 + (1 when the threads compile their own models). */
START_TEST(threads_match_single_threaded) {
  const char *plugin = plugins[_i / 2];
  int compile_in_threads = _i % 2;
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .accelerators = plugin,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  if (!plugin_available(environment, plugin)) {
    tflaccel_environment_destroy(environment);
    return;
  }
  tflaccel_model *model = NULL;
  status = tflaccel_model_load_file(model_path, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));

  /* The single-threaded outputs of every thread's input, from one compiled
   * model on the same environment (and so the same devices). */
  tflaccel_compiled_model *reference = NULL;
  status = tflaccel_compiled_model_create(environment, model, NULL, &reference);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  const char *first = NULL;
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(reference); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(reference, p, &info));
    if (strcmp(info.accelerator, plugin) == 0) first = info.accelerator;
  }
  ck_assert_msg(first != NULL, "%s runs no partition of the model", plugin);
  static thread_case cases[MAX_THREADS];
  memset(cases, 0, sizeof cases);
  uint32_t input_count = tflaccel_compiled_model_input_count(reference);
  ck_assert_uint_le(input_count, MAX_TENSORS);
  for (int t = 0; t < thread_count; ++t) {
    for (uint32_t i = 0; i < input_count; ++i) {
      tflaccel_tensor_buffer *buffer = NULL;
      ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(reference, i, &buffer));
      fill_input(buffer, (uint32_t)(t * MAX_TENSORS + i));
      size_t size = tflaccel_tensor_buffer_byte_size(buffer);
      cases[t].inputs[i] = malloc(size ? size : 1);
      ck_assert_ptr_nonnull(cases[t].inputs[i]);
      memcpy(cases[t].inputs[i], tflaccel_tensor_buffer_data(buffer), size);
      tflaccel_tensor_buffer_destroy(buffer);
    }
    char error[512] = "";
    ck_assert_msg(run_and_check(reference, &cases[t], 0, 2, error, sizeof error),
                  "%s single-threaded, input %d: %s", plugin, t, error);
  }
  uint32_t output_count = tflaccel_compiled_model_output_count(reference);
  tflaccel_compiled_model_destroy(reference);

  static worker workers[MAX_THREADS];
  pthread_t threads[MAX_THREADS];
  pthread_barrier_t start;
  ck_assert_int_eq(pthread_barrier_init(&start, NULL, (unsigned)thread_count), 0);
  for (int t = 0; t < thread_count; ++t) {
    workers[t] = (worker){.environment = environment, .model = model, .data = &cases[t],
                          .start = &start, .index = t};
    if (!compile_in_threads) {
      status = tflaccel_compiled_model_create(environment, model, NULL, &workers[t].compiled);
      ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
    }
  }
  for (int t = 0; t < thread_count; ++t)
    ck_assert_int_eq(pthread_create(&threads[t], NULL, worker_main, &workers[t]), 0);
  for (int t = 0; t < thread_count; ++t) ck_assert_int_eq(pthread_join(threads[t], NULL), 0);
  pthread_barrier_destroy(&start);
  int failures = 0;
  for (int t = 0; t < thread_count; ++t) {
    if (workers[t].error[0] != '\0') {
      printf("%s thread %d: %s\n", plugin, t, workers[t].error);
      ++failures;
    }
    tflaccel_compiled_model_destroy(workers[t].compiled);
    for (uint32_t i = 0; i < MAX_TENSORS; ++i) {
      free(cases[t].inputs[i]);
      free(cases[t].expected[i]);
    }
  }
  ck_assert_msg(failures == 0, "%s: %d of %d threads failed (models compiled %s)", plugin, failures,
                thread_count, compile_in_threads ? "in the threads" : "beforehand");
  printf("%s: %d threads x %d runs, models compiled %s: %u outputs equal to the single-threaded "
         "run\n",
         plugin, thread_count, runs_per_thread, compile_in_threads ? "in the threads" : "beforehand",
         output_count);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
}
END_TEST

/* _i: plugin. Two environments of one process share the driver's displays
 * and devices: destroying one must leave the other's compiled model and
 * new compilations working, with the same outputs (gpu_gl: EGL displays
 * are per process and eglTerminate does not count its callers). */
START_TEST(environment_destroyed_beside_another) {
  const char *plugin = plugins[_i];
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .accelerators = plugin,
                                          .log_level = "error"};
  tflaccel_environment *first = NULL, *second = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &first);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  if (!plugin_available(first, plugin)) {
    tflaccel_environment_destroy(first);
    return;
  }
  status = tflaccel_environment_create(&options, &second);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  tflaccel_model *model = NULL;
  status = tflaccel_model_load_file(model_path, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_compiled_model *in_first = NULL, *before = NULL, *after = NULL;
  status = tflaccel_compiled_model_create(first, model, NULL, &in_first);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  status = tflaccel_compiled_model_create(second, model, NULL, &before);
  ck_assert_msg(status == NULL, "%s: %s", plugin, tflaccel_status_message(status));
  thread_case data;
  memset(&data, 0, sizeof data);
  uint32_t input_count = tflaccel_compiled_model_input_count(before);
  ck_assert_uint_le(input_count, MAX_TENSORS);
  for (uint32_t i = 0; i < input_count; ++i) {
    tflaccel_tensor_buffer *buffer = NULL;
    ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(before, i, &buffer));
    fill_input(buffer, i + 1);
    size_t size = tflaccel_tensor_buffer_byte_size(buffer);
    data.inputs[i] = malloc(size ? size : 1);
    ck_assert_ptr_nonnull(data.inputs[i]);
    memcpy(data.inputs[i], tflaccel_tensor_buffer_data(buffer), size);
    tflaccel_tensor_buffer_destroy(buffer);
  }
  char error[512] = "";
  ck_assert_msg(run_and_check(before, &data, 0, 1, error, sizeof error), "%s: %s", plugin, error);
  ck_assert_msg(run_and_check(in_first, &data, 1, 1, error, sizeof error),
                "%s, the first environment: %s", plugin, error);
  tflaccel_compiled_model_destroy(in_first);
  tflaccel_environment_destroy(first);
  ck_assert_msg(run_and_check(before, &data, 1, 2, error, sizeof error),
                "%s, compiled before the other environment went: %s", plugin, error);
  status = tflaccel_compiled_model_create(second, model, NULL, &after);
  ck_assert_msg(status == NULL, "%s, compiling after the other environment went: %s", plugin,
                tflaccel_status_message(status));
  ck_assert_msg(run_and_check(after, &data, 1, 2, error, sizeof error),
                "%s, compiled after the other environment went: %s", plugin, error);
  printf("%s: a compiled model outlives another environment of the process, outputs equal\n",
         plugin);
  tflaccel_compiled_model_destroy(after);
  tflaccel_compiled_model_destroy(before);
  for (uint32_t i = 0; i < MAX_TENSORS; ++i) {
    free(data.inputs[i]);
    free(data.expected[i]);
  }
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(second);
}
END_TEST

static int read_count(const char *name, int fallback, int maximum) {
  const char *text = getenv(name);
  if (text == NULL || *text == '\0') return fallback;
  int value = atoi(text);
  return value >= 1 && value <= maximum ? value : fallback;
}

int main(void) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  if (data == NULL) {
    fprintf(stderr, "TFLACCEL_TEST_DATA is not set\n");
    return 1;
  }
  if (snprintf(model_path, sizeof model_path, "%s/face_detection_short_range.tflite", data) >=
      (int)sizeof model_path)
    return 1;
  thread_count = read_count("TFLACCEL_THREADS_N", thread_count, MAX_THREADS);
  runs_per_thread = read_count("TFLACCEL_THREADS_RUNS", runs_per_thread, 1000);
  Suite *suite = suite_create("concurrent runs");
  TCase *tcase = tcase_create("threads");
  tcase_set_timeout(tcase, 1200);
  tcase_add_loop_test(tcase, threads_match_single_threaded, 0, (int)(2 * PLUGIN_COUNT));
  tcase_add_loop_test(tcase, environment_destroyed_beside_another, 0, (int)PLUGIN_COUNT);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
