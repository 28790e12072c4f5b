/* The plugin option profile = 1 of PROFILE_TEST_ACCELERATOR (gpu_cl,
 * gpu_vk or gpu_gl): a real model (tests/data's face_detection_short_range)
 * compiled with it runs twice (gpu_vk's second run replays the recorded
 * command buffer and its timestamps; gpu_gl's reuses its timer queries),
 * its outputs are those of the same model without profiling (profile = 0),
 * bit for bit, and within the TFLite references' tolerance, and destroying
 * it logs the table: per partition a heading, one line per dispatch
 * numbered in queue order (as many as the compile's "N ops -> D
 * dispatches" line says), the kernel lines and the summary. Without
 * profiling no table appears. profile = yes makes the
 * plugin unavailable with a message naming the option. Where the plugin
 * needs an extension to time dispatches (PROFILE_TEST_TIMER_EXTENSION:
 * gpu_gl's GL_EXT_disjoint_timer_query), a driver without it makes
 * compiling fail, naming the option and the extension. Skips (77) when the
 * plugin has no device here. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/json.h"
#include "tests/support/model_compare.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#ifndef PROFILE_TEST_ACCELERATOR
#error "PROFILE_TEST_ACCELERATOR must name the GPU plugin"
#endif

#define SKIP_EXIT_STATUS 77
#define MODEL_NAME "face_detection_short_range"
#define MAX_TENSORS MODEL_COMPARE_MAX_TENSORS
#define PROFILED_RUNS 2
/* How the plugin's log lines start. */
#define LOG_PREFIX "INFO: " PROFILE_TEST_ACCELERATOR ": "

#define FORMAT_PATH(buffer, ...)                                                       \
  ck_assert_msg(snprintf((buffer), sizeof(buffer), __VA_ARGS__) < (int)sizeof(buffer), \
                "path too long")

typedef struct model_outputs {
  uint32_t count;
  void *data[MAX_TENSORS];
  size_t size[MAX_TENSORS];
} model_outputs;

static void model_outputs_free(model_outputs *outputs) {
  for (uint32_t i = 0; i < outputs->count; ++i) free(outputs->data[i]);
  outputs->count = 0;
}

/* A tflaccel.ini for the accelerator then cpu_ref; profile_value NULL
 * leaves the option out. The caller frees the path. */
static char *write_config(const char *dir, const char *profile_value) {
  char text[512];
  int length = snprintf(text, sizeof text,
                        "[tflaccel]\n"
                        "accelerators = " PROFILE_TEST_ACCELERATOR ", cpu_ref\n"
                        "[plugin.cpu_ref]\n"
                        "[plugin." PROFILE_TEST_ACCELERATOR "]\n");
  ck_assert_int_lt(length, (int)sizeof text);
  if (profile_value != NULL)
    ck_assert_int_lt(snprintf(text + length, sizeof text - (size_t)length, "profile = %s\n",
                              profile_value),
                     (int)(sizeof text - (size_t)length));
  return test_write_file(dir, "tflaccel.ini", text);
}

/* Sends stderr (where the host logs) to a file until capture_end. */
typedef struct stderr_capture {
  int saved;
  char path[4096];
} stderr_capture;

static void capture_begin(stderr_capture *capture, const char *dir) {
  FORMAT_PATH(capture->path, "%s/stderr.txt", dir);
  fflush(stderr);
  capture->saved = dup(2);
  ck_assert_int_ge(capture->saved, 0);
  int file = open(capture->path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ck_assert_int_ge(file, 0);
  ck_assert_int_ge(dup2(file, 2), 0);
  close(file);
}

/* Restores stderr and returns what was captured (the caller frees it). It
 * is echoed, so that a failing test shows the log. */
static char *capture_end(stderr_capture *capture) {
  fflush(stderr);
  ck_assert_int_ge(dup2(capture->saved, 2), 0);
  close(capture->saved);
  size_t size = 0;
  char *bytes = model_compare_read_file(capture->path, &size);
  ck_assert_msg(bytes != NULL, "cannot read %s", capture->path);
  char *text = malloc(size + 1);
  ck_assert_ptr_nonnull(text);
  memcpy(text, bytes, size);
  text[size] = '\0';
  free(bytes);
  fputs(text, stdout);
  return text;
}

/* Compiles the model with the config, runs it `runs` times on its
 * reference input and keeps the outputs. Returns everything logged from
 * creating the environment to destroying it (the caller frees it). */
static char *run_model(const char *dir, const char *config, int runs, model_outputs *outputs) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set (run through make check)");
  stderr_capture capture;
  capture_begin(&capture, dir);
  model_compare_session session;
  model_compare_session_open(&session, config, PROFILE_TEST_ACCELERATOR, "info", data, MODEL_NAME,
                             -1, "profile");
  model_compare_session_run(&session, runs, "profile");
  outputs->count = session.output_count;
  for (uint32_t i = 0; i < session.output_count; ++i) {
    size_t size = tflaccel_tensor_buffer_byte_size(session.outputs[i]);
    outputs->data[i] = malloc(size ? size : 1);
    ck_assert_ptr_nonnull(outputs->data[i]);
    memcpy(outputs->data[i], tflaccel_tensor_buffer_data(session.outputs[i]), size);
    outputs->size[i] = size;
  }
  model_compare_session_close(&session); /* the profile table is logged here */
  return capture_end(&capture);
}

/* The outputs against the TFLite references, within rtol_fp32. */
static void check_against_references(const model_outputs *outputs) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  char path[4096];
  FORMAT_PATH(path, "%s/expected.json", data);
  json_value *expected = json_parse_file(path);
  ck_assert_ptr_nonnull(expected);
  const json_value *expected_outputs = json_get(json_get(expected, MODEL_NAME), "outputs");
  ck_assert_ptr_nonnull(expected_outputs);
  ck_assert_uint_eq(expected_outputs->count, outputs->count);
  for (uint32_t i = 0; i < outputs->count; ++i) {
    const json_value *output = &expected_outputs->items[i];
    FORMAT_PATH(path, "%s/ref/%s/%s", data, MODEL_NAME, json_get(output, "file")->string);
    size_t size = 0;
    void *reference = model_compare_read_file(path, &size);
    ck_assert_msg(reference != NULL, "cannot read %s", path);
    ck_assert_uint_eq(size, outputs->size[i]);
    char why[512];
    const char *failure = model_compare_output(json_get(output, "tolerance"), "rtol_fp32",
                                               TFLACCEL_DTYPE_FLOAT32, outputs->data[i], reference,
                                               size / sizeof(float), why, sizeof why);
    ck_assert_msg(failure == NULL, "profiled output %u: %s", i, failure);
    free(reference);
  }
  json_destroy(expected);
}

/* What check_profile_log found. */
typedef struct profile_log_counts {
  uint32_t partitions;      /* "N ops -> D dispatches" lines of the compile */
  uint32_t dispatches;      /* the sum of their D */
  uint32_t tables;          /* profile headings */
  uint32_t dispatch_lines;  /* "profile: #i ..." */
  uint32_t kernel_lines;    /* "profile: <kernel>: n dispatches, total ..." */
  uint32_t kernel_dispatch_sum;
  uint32_t summary_lines;   /* "profile: dispatches ... (sum of the means) ..." */
} profile_log_counts;

/* Reads the plugin's lines of the log, checking each profile line's form
 * and numbering as it goes. */
static profile_log_counts check_profile_log(const char *log) {
  profile_log_counts counts = {0};
  uint32_t table_dispatches = 0, next_index = 0;
  for (const char *line = log; *line != '\0';) {
    const char *end = strchr(line, '\n');
    size_t length = end != NULL ? (size_t)(end - line) : strlen(line);
    char text[2048];
    ck_assert_uint_lt(length, sizeof text);
    memcpy(text, line, length);
    text[length] = '\0';
    line += length + (end != NULL);
    if (strncmp(text, LOG_PREFIX, strlen(LOG_PREFIX)) != 0) continue;
    const char *message = text + strlen(LOG_PREFIX);
    unsigned ops = 0, dispatches = 0, runs = 0, index = 0, global[3] = {0, 0, 0};
    double mean_us = -1.0, min_us = -1.0, share = -1.0;
    char kernel[64];
    if (sscanf(message, "%u ops -> %u dispatches", &ops, &dispatches) == 2) {
      counts.partitions++;
      counts.dispatches += dispatches;
    } else if (strncmp(message, "profile: ", 9) != 0) {
      continue;
    } else if (sscanf(message, "profile: %u ops in %u dispatches, %u runs", &ops, &dispatches,
                      &runs) == 3) {
      ck_assert_uint_eq(next_index, table_dispatches); /* the last table was complete */
      ck_assert_uint_eq(runs, PROFILED_RUNS);
      counts.tables++;
      table_dispatches = dispatches;
      next_index = 0;
    } else if (sscanf(message, "profile: #%u %63s %ux%ux%u: mean %lf us, min %lf us, %lf%%",
                      &index, kernel, &global[0], &global[1], &global[2], &mean_us, &min_us,
                      &share) == 8) {
      ck_assert_msg(index == next_index, "dispatch line #%u where #%u was due: %s", index,
                    next_index, message);
      next_index++;
      ck_assert_msg(!strncmp(kernel, "gpu_", 4), "not a kernel name: %s", message);
      ck_assert_msg(global[0] > 0 && global[1] > 0 && global[2] > 0, "global size: %s", message);
      ck_assert_msg(min_us >= 0.0 && min_us <= mean_us * (1.0 + 1e-9) + 0.05,
                    "min and mean: %s", message);
      ck_assert_msg(share >= 0.0 && share <= 100.05, "share: %s", message);
      counts.dispatch_lines++;
    } else if (strstr(message, "(sum of the means)") != NULL) {
      ck_assert_uint_eq(next_index, table_dispatches);
      counts.summary_lines++;
    } else if (sscanf(message, "profile: %63[^:]: %u dispatch", kernel, &dispatches) == 2 &&
               strstr(message, ", total ") != NULL) {
      counts.kernel_lines++;
      counts.kernel_dispatch_sum += dispatches;
    } else {
      ck_abort_msg("unexpected profile line: %s", message);
    }
  }
  ck_assert_uint_eq(next_index, table_dispatches);
  return counts;
}

START_TEST(profiled_runs_log_a_line_per_dispatch) {
  char *dir = test_make_temp_dir();

  /* profile = 0: as without the option, and no table. */
  char *config = write_config(dir, "0");
  model_outputs plain = {0};
  char *log = run_model(dir, config, 1, &plain);
  ck_assert_msg(strstr(log, LOG_PREFIX "profile:") == NULL, "a profile without profile = 1");
  profile_log_counts counts = check_profile_log(log);
  ck_assert_uint_ge(counts.partitions, 1);
  ck_assert_uint_eq(counts.tables, 0);
  free(log);
  free(config);

  config = write_config(dir, "1");
  model_outputs profiled = {0};
  log = run_model(dir, config, PROFILED_RUNS, &profiled);
  counts = check_profile_log(log);
  ck_assert_uint_ge(counts.partitions, 1);
  ck_assert_uint_gt(counts.dispatches, 0);
  ck_assert_uint_eq(counts.tables, counts.partitions);
  ck_assert_uint_eq(counts.dispatch_lines, counts.dispatches);
  ck_assert_uint_ge(counts.kernel_lines, counts.tables);
  ck_assert_uint_eq(counts.kernel_dispatch_sum, counts.dispatches);
  ck_assert_uint_eq(counts.summary_lines, counts.tables);
  printf("%s: %u partition(s), %u dispatch lines in the profile\n", PROFILE_TEST_ACCELERATOR,
         counts.partitions, counts.dispatch_lines);
  free(log);
  free(config);

  /* Timing must not change what is computed. */
  ck_assert_uint_eq(profiled.count, plain.count);
  for (uint32_t i = 0; i < plain.count; ++i) {
    ck_assert_uint_eq(profiled.size[i], plain.size[i]);
    ck_assert_msg(memcmp(profiled.data[i], plain.data[i], plain.size[i]) == 0,
                  "output %u differs with profile = 1", i);
  }
  check_against_references(&profiled);
  model_outputs_free(&plain);
  model_outputs_free(&profiled);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

/* The environment option profile_kernels turns the timers on though the
 * config says profile = 0, and the times reach the API
 * (tflaccel_compiled_model_read_kernel_profile, from the ABI's
 * executable_profile): every GPU partition reports its launches, each timed
 * over the runs, each naming an op of its partition (or none: a layout
 * conversion), the ops they stand for no more than the partition's; read
 * that way, the plugin logs no table at destroy. */
START_TEST(kernel_times_reach_the_api) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set (run through make check)");
  char *dir = test_make_temp_dir();
  char *config = write_config(dir, "0");
  stderr_capture capture;
  capture_begin(&capture, dir);
  tflaccel_environment_options environment_options = {.struct_size = sizeof environment_options,
                                                       .config_path = config,
                                                       .accelerators =
                                                           PROFILE_TEST_ACCELERATOR ",cpu_ref",
                                                       .log_level = "info",
                                                       .profile_kernels = 1};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&environment_options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  char path[4096];
  FORMAT_PATH(path, "%s/%s.tflite", data, MODEL_NAME);
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(path, &model));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  tflaccel_compiled_model *compiled = NULL;
  status = tflaccel_compiled_model_create(environment, model, &options, &compiled);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  uint32_t inputs = tflaccel_compiled_model_input_count(compiled);
  uint32_t outputs = tflaccel_compiled_model_output_count(compiled);
  tflaccel_tensor_buffer *in[MAX_TENSORS] = {0}, *out[MAX_TENSORS] = {0};
  ck_assert_uint_le(inputs, MAX_TENSORS);
  ck_assert_uint_le(outputs, MAX_TENSORS);
  for (uint32_t i = 0; i < inputs; ++i)
    ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, i, &in[i]));
  for (uint32_t i = 0; i < outputs; ++i)
    ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, i, &out[i]));
  for (int run = 0; run < PROFILED_RUNS; ++run)
    ck_assert_ptr_null(tflaccel_compiled_model_run(compiled, in, inputs, out, outputs));
  uint32_t gpu_partitions = 0, launches = 0;
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(compiled); ++p) {
    tflaccel_partition_info partition = {.struct_size = sizeof partition};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &partition));
    uint32_t count = 0;
    ck_assert_ptr_null(tflaccel_compiled_model_read_kernel_profile(compiled, p, &count));
    if (strcmp(partition.accelerator, PROFILE_TEST_ACCELERATOR) != 0) {
      ck_assert_uint_eq(count, 0); /* cpu_ref keeps no kernel times */
      continue;
    }
    ++gpu_partitions;
    ck_assert_uint_gt(count, 0);
    uint32_t covered = 0;
    for (uint32_t k = 0; k < count; ++k) {
      tflaccel_kernel_profile kernel = {.struct_size = sizeof kernel};
      ck_assert_ptr_null(tflaccel_compiled_model_kernel_profile(compiled, p, k, &kernel));
      ck_assert_msg(strncmp(kernel.kernel, "gpu_", 4) == 0, "kernel %s", kernel.kernel);
      /* gpu_gl leaves out a run with a disjoint event. */
      ck_assert_uint_le(kernel.runs, PROFILED_RUNS);
      ck_assert_uint_gt(kernel.runs, 0);
      ck_assert_msg(kernel.total_ns > 0, "%s timed 0 ns", kernel.kernel);
      if (kernel.first_op == UINT32_MAX) {
        ck_assert_uint_eq(kernel.op_count, 0);
        continue;
      }
      int found = 0;
      for (uint32_t i = 0; i < partition.op_count; ++i) found |= partition.ops[i] == kernel.first_op;
      ck_assert_msg(found, "kernel %u names op %u, not one of its partition", k, kernel.first_op);
      ck_assert_uint_ge(kernel.op_count, 1);
      covered += kernel.op_count;
    }
    ck_assert_uint_le(covered, partition.op_count);
    launches += count;
  }
  ck_assert_uint_gt(gpu_partitions, 0);
  printf("%s: %u partition(s), %u kernel launches read through the API\n",
         PROFILE_TEST_ACCELERATOR, gpu_partitions, launches);
  for (uint32_t i = 0; i < inputs; ++i) tflaccel_tensor_buffer_destroy(in[i]);
  for (uint32_t i = 0; i < outputs; ++i) tflaccel_tensor_buffer_destroy(out[i]);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  char *log = capture_end(&capture);
  ck_assert_msg(strstr(log, LOG_PREFIX "profile: #") == NULL,
                "the plugin logged a table of times read through the API");
  free(log);
  test_remove_tree(dir);
  free(config);
  free(dir);
}
END_TEST

START_TEST(bad_profile_value_names_the_option) {
  char *dir = test_make_temp_dir();
  char *config = write_config(dir, "yes");
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .config_path = config,
                                          .accelerators = PROFILE_TEST_ACCELERATOR ",cpu_ref",
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  int found = 0;
  for (uint32_t i = 0; i < tflaccel_environment_plugin_count(environment); ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, i, &info));
    if (strcmp(info.name, PROFILE_TEST_ACCELERATOR) != 0) continue;
    found = 1;
    ck_assert_msg(!info.available, "available with profile = yes");
    ck_assert_ptr_nonnull(info.reason);
    ck_assert_msg(strstr(info.reason, PROFILE_TEST_ACCELERATOR " option profile=yes") != NULL,
                  "the reason does not name the option: %s", info.reason);
    printf("profile = yes: %s\n", info.reason);
  }
  ck_assert(found);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config);
  free(dir);
}
END_TEST

#ifdef PROFILE_TEST_TIMER_EXTENSION
/* Mesa leaves out the extensions that MESA_EXTENSION_OVERRIDE names with a
 * '-'. It reads the variable once per process, at its first context: Check
 * runs each test in a fork of its own and main loads no driver, so setting
 * it here takes effect. Another driver ignores it and keeps the extension:
 * then there is nothing to check, and the test says so. */
START_TEST(missing_timer_extension_fails_naming_it) {
  ck_assert_int_eq(setenv("MESA_EXTENSION_OVERRIDE", "-" PROFILE_TEST_TIMER_EXTENSION, 1), 0);
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set (run through make check)");
  char *dir = test_make_temp_dir();
  char *config = write_config(dir, "1");
  tflaccel_environment_options environment_options = {.struct_size = sizeof environment_options,
                                                       .config_path = config,
                                                       .accelerators =
                                                           PROFILE_TEST_ACCELERATOR ",cpu_ref",
                                                       .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&environment_options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  char path[4096];
  FORMAT_PATH(path, "%s/%s.tflite", data, MODEL_NAME);
  tflaccel_model *model = NULL;
  status = tflaccel_model_load_file(path, &model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  tflaccel_compiled_model *compiled = NULL;
  status = tflaccel_compiled_model_create(environment, model, &options, &compiled);
  if (status == NULL) {
    printf("SKIP (this check): the driver kept " PROFILE_TEST_TIMER_EXTENSION
           " despite MESA_EXTENSION_OVERRIDE (not Mesa?)\n");
    tflaccel_compiled_model_destroy(compiled);
  } else {
    const char *message = tflaccel_status_message(status);
    printf("without " PROFILE_TEST_TIMER_EXTENSION ": %s\n", message);
    ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNSUPPORTED);
    ck_assert_msg(strstr(message, PROFILE_TEST_ACCELERATOR " option profile=1") != NULL,
                  "the message does not name the option: %s", message);
    ck_assert_msg(strstr(message, PROFILE_TEST_TIMER_EXTENSION) != NULL,
                  "the message does not name the extension: %s", message);
    tflaccel_status_free(status);
  }
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config);
  free(dir);
}
END_TEST
#endif

int main(void) {
  /* Probed in a child: Check forks the tests, and no driver may be loaded
   * before that. */
  fflush(NULL);
  pid_t child = fork();
  if (child == 0)
    _exit(model_compare_accelerator_available(PROFILE_TEST_ACCELERATOR) ? 0 : SKIP_EXIT_STATUS);
  int wait_status = 0;
  if (child > 0 && waitpid(child, &wait_status, 0) == child && WIFEXITED(wait_status) &&
      WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS)
    return SKIP_EXIT_STATUS;
  Suite *suite = suite_create("profile = 1 on " PROFILE_TEST_ACCELERATOR);
  TCase *tcase = tcase_create(PROFILE_TEST_ACCELERATOR);
  tcase_set_timeout(tcase, 900);
  tcase_add_test(tcase, profiled_runs_log_a_line_per_dispatch);
  tcase_add_test(tcase, kernel_times_reach_the_api);
  tcase_add_test(tcase, bad_profile_value_names_the_option);
#ifdef PROFILE_TEST_TIMER_EXTENSION
  /* Last: it sets an environment variable, which stays if Check does not
   * fork (CK_FORK=no). */
  tcase_add_test(tcase, missing_timer_extension_fails_naming_it);
#endif
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
