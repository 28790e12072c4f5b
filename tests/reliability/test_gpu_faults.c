/* Driver faults on every GPU plugin, through the fault hook
 * (plugins/gpu_common/gpu_fault.h, TFLACCEL_GPU_FAULT): a compile and a run
 * of hand_recrop (tests/data) with the Nth hooked API call failing.
 *
 * For each plugin (gpu_cl, gpu_vk, gpu_gl) that finds a device, a first
 * child process compiles and runs the model with no fault and lists the
 * hooked calls it made (the hook's debug log): their count and names, and
 * the reference outputs. Then, for each N chosen, a child process with call
 * N failing must:
 *   - fail the compile or the run with a one-line status that names the
 *     plugin and the call (a fault that the plugin gets around, such as a
 *     memory type that falls back to another, must give the reference
 *     outputs instead);
 *   - run the same compiled model again (when it was made): the reference
 *     outputs, or the same failure;
 *   - compile and run a fresh compiled model on the same environment: the
 *     reference outputs, or, after a lost device, a failure naming the
 *     same call;
 *   - compile and run on a new environment without the fault: the
 *     reference outputs;
 *   - exit normally (a crash or a sanitizer's exit code is a failure; in an
 *     ASan build LeakSanitizer checks every child at its exit).
 * By default N takes, for each distinct call, its first and last
 * occurrence (every run-time call, and every kind of compile-time call);
 * TFLACCEL_GPU_FAULT_SWEEP=all tries every N (`make check-gpu-faults`);
 * TFLACCEL_GPU_FAULT_PLUGINS=gpu_vk,... tests only those plugins.
 * Exit 77 when no GPU plugin has a device. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MAX_TENSORS 8
#define MAX_CALLS 4096
#define CALL_NAME_SIZE 96

static const char *const plugins[] = {"gpu_cl", "gpu_vk", "gpu_gl"};
#define PLUGIN_COUNT (sizeof plugins / sizeof plugins[0])

static char model_path[4096];
static char scratch[4096]; /* the test's directory for the children's logs and outputs */
static int available[PLUGIN_COUNT]; /* 1: has a device, 0: none, -1: not asked for */
static int sweep_all;

/* ---- what a child does ---- */

/* The outputs of one run, concatenated. */
typedef struct outputs {
  uint8_t *bytes;
  size_t size;
} outputs;

static void fill_input(tflaccel_tensor_buffer *buffer, uint32_t seed) {
  uint8_t *bytes = tflaccel_tensor_buffer_data(buffer);
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  uint32_t state = seed * 2654435761u + 1;
  if (tflaccel_tensor_buffer_dtype(buffer) == TFLACCEL_DTYPE_FLOAT32) {
    float *values = (float *)bytes;
    for (size_t i = 0; i < size / sizeof(float); ++i) {
      state = state * 1664525u + 1013904223u;
      values[i] = (float)(state >> 8) / (float)(1u << 23) * 255.0f;
    }
  } else {
    for (size_t i = 0; i < size; ++i) {
      state = state * 1664525u + 1013904223u;
      bytes[i] = (uint8_t)(state >> 24);
    }
  }
}

/* Runs compiled once on the fixed inputs; on success *result holds the
 * outputs (malloc'ed). */
static tflaccel_status run_once(tflaccel_compiled_model *compiled, outputs *result) {
  uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
  tflaccel_tensor_buffer *inputs[MAX_TENSORS] = {0}, *outs[MAX_TENSORS] = {0};
  result->bytes = NULL;
  result->size = 0;
  if (input_count > MAX_TENSORS || output_count > MAX_TENSORS)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "test: more than %d tensors", MAX_TENSORS);
  tflaccel_status status = NULL;
  for (uint32_t i = 0; status == NULL && i < input_count; ++i) {
    status = tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]);
    if (status == NULL) fill_input(inputs[i], i);
  }
  for (uint32_t i = 0; status == NULL && i < output_count; ++i)
    status = tflaccel_compiled_model_create_output_buffer(compiled, i, &outs[i]);
  if (status == NULL)
    status = tflaccel_compiled_model_run(compiled, inputs, input_count, outs, output_count);
  if (status == NULL) {
    for (uint32_t i = 0; i < output_count; ++i) result->size += tflaccel_tensor_buffer_byte_size(outs[i]);
    result->bytes = malloc(result->size ? result->size : 1);
    if (result->bytes == NULL) abort();
    size_t at = 0;
    for (uint32_t i = 0; i < output_count; ++i) {
      size_t size = tflaccel_tensor_buffer_byte_size(outs[i]);
      memcpy(result->bytes + at, tflaccel_tensor_buffer_data(outs[i]), size);
      at += size;
    }
  }
  for (uint32_t i = 0; i < MAX_TENSORS; ++i) {
    tflaccel_tensor_buffer_destroy(inputs[i]);
    tflaccel_tensor_buffer_destroy(outs[i]);
  }
  return status;
}

static tflaccel_status open_environment(const char *plugin, const char *log_level,
                                        tflaccel_environment **environment) {
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = plugin, .log_level = log_level};
  return tflaccel_environment_create(&options, environment);
}

/* Compiles the model on environment and runs it once. */
static tflaccel_status compile_and_run(tflaccel_environment *environment,
                                       const tflaccel_model *model,
                                       tflaccel_compiled_model **compiled, outputs *result) {
  result->bytes = NULL;
  result->size = 0;
  tflaccel_status status = tflaccel_compiled_model_create(environment, model, NULL, compiled);
  if (status != NULL) return status;
  return run_once(*compiled, result);
}

/* Whether plugin's partition runs the whole model: else the test would not
 * exercise it. */
static int runs_on(const tflaccel_compiled_model *compiled, const char *plugin) {
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(compiled); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    if (tflaccel_compiled_model_partition_info(compiled, p, &info) == NULL &&
        strcmp(info.accelerator, plugin) == 0)
      return 1;
  }
  return 0;
}

/* A child's verdict line in its log: "VERDICT ok" or "VERDICT fail: ...". */
static void verdict(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void verdict(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  fprintf(stderr, "\nVERDICT ");
  vfprintf(stderr, format, arguments);
  fprintf(stderr, "\n");
  va_end(arguments);
  fflush(stderr);
}

/* The first child: no fault, the hook's debug log lists the calls; writes
 * the outputs to reference_path. */
static int child_reference(const char *plugin, const char *reference_path) {
  setenv("TFLACCEL_GPU_FAULT", "1000000000", 1); /* counts, never fails */
  tflaccel_environment *environment = NULL;
  tflaccel_model *model = NULL;
  tflaccel_compiled_model *compiled = NULL;
  outputs result = {0};
  tflaccel_status status = open_environment(plugin, "debug", &environment);
  if (status == NULL) status = tflaccel_model_load_file(model_path, &model);
  if (status == NULL) status = compile_and_run(environment, model, &compiled, &result);
  int ok = status == NULL;
  if (!ok) verdict("fail: no fault: %s", tflaccel_status_message(status));
  if (ok && !runs_on(compiled, plugin)) {
    verdict("fail: %s runs no partition of the model", plugin);
    ok = 0;
  }
  if (ok) {
    FILE *file = fopen(reference_path, "wb");
    ok = file != NULL && fwrite(result.bytes, 1, result.size, file) == result.size;
    if (file != NULL && fclose(file) != 0) ok = 0;
    if (ok) verdict("ok");
    else verdict("fail: writing %s: %s", reference_path, strerror(errno));
  }
  tflaccel_status_free(status);
  free(result.bytes);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  return ok ? 0 : 1;
}

static int same_outputs(const outputs *got, const outputs *reference) {
  return got->size == reference->size && memcmp(got->bytes, reference->bytes, got->size) == 0;
}

/* A failure as it must look: one line, naming the plugin and the call. */
static int check_failure(const char *what, const char *message, const char *plugin,
                         const char *call) {
  if (strchr(message, '\n') != NULL) {
    verdict("fail: %s: the message has several lines: %s", what, message);
    return 0;
  }
  if (strstr(message, plugin) == NULL || strstr(message, call) == NULL) {
    verdict("fail: %s: the message does not name %s and %s: %s", what, plugin, call, message);
    return 0;
  }
  return 1;
}

/* One case: hooked call n of the plugin's device fails (call: its name, from
 * the reference child's list). */
static int child_fault(const char *plugin, unsigned n, const char *call,
                       const outputs *reference) {
  char value[64];
  snprintf(value, sizeof value, "%s:%u", plugin, n);
  setenv("TFLACCEL_GPU_FAULT", value, 1);
  tflaccel_environment *environment = NULL;
  tflaccel_model *model = NULL;
  tflaccel_status status = open_environment(plugin, "warning", &environment);
  if (status == NULL) status = tflaccel_model_load_file(model_path, &model);
  if (status != NULL) {
    verdict("fail: setting up: %s", tflaccel_status_message(status));
    return 1;
  }
  int ok = 1;
  /* The faulty compile and run. */
  tflaccel_compiled_model *compiled = NULL;
  outputs got = {0};
  status = compile_and_run(environment, model, &compiled, &got);
  char *first = NULL; /* the failure's message */
  if (status != NULL) {
    ok = check_failure("faulty run", tflaccel_status_message(status), plugin, call);
    first = strdup(tflaccel_status_message(status));
    if (first == NULL) abort();
    tflaccel_status_free(status);
  } else if (!same_outputs(&got, reference)) {
    verdict("fail: the fault was not reported and the outputs differ from the reference");
    ok = 0;
  }
  free(got.bytes);
  got.bytes = NULL;
  /* The same compiled model again: works, or fails the same way. */
  if (ok && compiled != NULL) {
    status = run_once(compiled, &got);
    if (status != NULL) {
      const char *message = tflaccel_status_message(status);
      if (first == NULL || strcmp(message, first) != 0) {
        verdict("fail: rerun of the same compiled model: %s (first: %s)", message,
                first ? first : "no failure");
        ok = 0;
      }
      tflaccel_status_free(status);
    } else if (!same_outputs(&got, reference)) {
      verdict("fail: rerun of the same compiled model: outputs differ from the reference");
      ok = 0;
    }
    free(got.bytes);
    got.bytes = NULL;
  }
  /* A fresh compiled model on the same environment (the fault is spent):
   * works, or (a lost device stays lost) fails naming the same call. */
  tflaccel_compiled_model *fresh = NULL;
  if (ok) {
    status = compile_and_run(environment, model, &fresh, &got);
    if (status != NULL) {
      const char *message = tflaccel_status_message(status);
      if (first == NULL || tflaccel_status_code_of(status) != TFLACCEL_DEVICE_LOST ||
          !check_failure("fresh compiled model after a lost device", message, plugin, call)) {
        if (ok) verdict("fail: fresh compiled model on the same environment: %s", message);
        ok = 0;
      }
      tflaccel_status_free(status);
    } else if (!same_outputs(&got, reference)) {
      verdict("fail: fresh compiled model on the same environment: outputs differ");
      ok = 0;
    }
    free(got.bytes);
    got.bytes = NULL;
  }
  tflaccel_compiled_model_destroy(fresh);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  /* A new environment without the fault. */
  if (ok) {
    unsetenv("TFLACCEL_GPU_FAULT");
    environment = NULL;
    fresh = NULL;
    status = open_environment(plugin, "warning", &environment);
    if (status == NULL) status = compile_and_run(environment, model, &fresh, &got);
    if (status != NULL) {
      verdict("fail: new environment without the fault: %s", tflaccel_status_message(status));
      tflaccel_status_free(status);
      ok = 0;
    } else if (!same_outputs(&got, reference)) {
      verdict("fail: new environment without the fault: outputs differ from the reference");
      ok = 0;
    }
    free(got.bytes);
    tflaccel_compiled_model_destroy(fresh);
    tflaccel_environment_destroy(environment);
  }
  tflaccel_model_destroy(model);
  if (ok) verdict("ok: %s", first != NULL ? first : "recovered, reference outputs");
  free(first);
  return ok ? 0 : 1;
}

/* ---- the parent: one child per case ---- */

/* Runs body in a child whose stderr goes to log_path; returns a description
 * of how it ended ("" when it exited 0 with an ok verdict). */
typedef int (*child_body)(const void *argument);

static char *read_text(const char *path) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  size_t capacity = 1 << 16, size = 0;
  char *text = malloc(capacity);
  if (text == NULL) abort();
  size_t got;
  while ((got = fread(text + size, 1, capacity - size - 1, file)) > 0) {
    size += got;
    if (capacity - size < 2) {
      capacity *= 2;
      text = realloc(text, capacity);
      if (text == NULL) abort();
    }
  }
  fclose(file);
  text[size] = '\0';
  return text;
}

/* How the child ended: 0 when it exited 0, else a description in problem. */
static int wait_child(pid_t pid, char *problem, size_t size) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      snprintf(problem, size, "waitpid: %s", strerror(errno));
      return 1;
    }
  if (WIFSIGNALED(status)) {
    snprintf(problem, size, "CRASH: killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
    return 1;
  }
  if (WEXITSTATUS(status) != 0) {
    snprintf(problem, size, "exit status %d", WEXITSTATUS(status));
    return 1;
  }
  return 0;
}

/* Starts a child with stderr in log_path; returns its pid (0 in the child). */
static pid_t start_child(const char *log_path) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    FILE *log = freopen(log_path, "w", stderr);
    if (log == NULL) _exit(99);
  }
  return pid;
}

/* The hooked calls listed in a reference child's log. */
typedef struct call_list {
  char (*names)[CALL_NAME_SIZE];
  unsigned count;
} call_list;

static void parse_calls(const char *log, call_list *calls) {
  calls->names = calloc(MAX_CALLS + 1, sizeof *calls->names);
  ck_assert_ptr_nonnull(calls->names);
  calls->count = 0;
  for (const char *at = strstr(log, "fault hook: call "); at != NULL;
       at = strstr(at + 1, "fault hook: call ")) {
    unsigned n = 0;
    int used = 0;
    if (sscanf(at, "fault hook: call %u (%n", &n, &used) != 1 || used == 0) continue;
    const char *name = at + used;
    const char *end = strstr(name, ")\n");
    if (end == NULL || n == 0 || n > MAX_CALLS) continue;
    size_t length = (size_t)(end - name);
    if (length >= CALL_NAME_SIZE) length = CALL_NAME_SIZE - 1;
    memcpy(calls->names[n], name, length);
    calls->names[n][length] = '\0';
    if (n > calls->count) calls->count = n;
  }
}

/* The calls to fail: all, or each distinct call's first and last. */
static unsigned choose_cases(const call_list *calls, unsigned *chosen) {
  unsigned count = 0;
  for (unsigned n = 1; n <= calls->count; ++n) {
    int first = 1, last = 1;
    for (unsigned m = 1; m < n && first; ++m)
      if (strcmp(calls->names[m], calls->names[n]) == 0) first = 0;
    for (unsigned m = n + 1; m <= calls->count && last; ++m)
      if (strcmp(calls->names[m], calls->names[n]) == 0) last = 0;
    if (sweep_all || first || last) chosen[count++] = n;
  }
  return count;
}

START_TEST(faults_fail_cleanly) {
  const char *plugin = plugins[_i];
  if (available[_i] != 1) {
    if (available[_i] == 0) printf("%s: no device, not tested\n", plugin);
    return;
  }
  char *dir = test_make_temp_dir();
  snprintf(scratch, sizeof scratch, "%s", dir);
  char log_path[4200], reference_path[4200];
  snprintf(reference_path, sizeof reference_path, "%s/%s-reference.bin", scratch, plugin);
  snprintf(log_path, sizeof log_path, "%s/%s-reference.log", scratch, plugin);
  pid_t pid = start_child(log_path);
  if (pid == 0) exit(child_reference(plugin, reference_path));
  char problem[256] = "";
  int failed = wait_child(pid, problem, sizeof problem);
  char *log = read_text(log_path);
  ck_assert_ptr_nonnull(log);
  ck_assert_msg(!failed && strstr(log, "\nVERDICT ok") != NULL,
                "%s: the run without fault failed (%s); its log:\n%s", plugin, problem, log);
  call_list calls;
  parse_calls(log, &calls);
  free(log);
  ck_assert_msg(calls.count > 0, "%s: the hook counted no call", plugin);
  for (unsigned n = 1; n <= calls.count; ++n)
    ck_assert_msg(calls.names[n][0] != '\0', "%s: call %u missing from the hook's log", plugin, n);
  outputs reference = {0};
  reference.bytes = (uint8_t *)read_text(reference_path);
  ck_assert_ptr_nonnull(reference.bytes);
  FILE *file = fopen(reference_path, "rb");
  ck_assert_ptr_nonnull(file);
  ck_assert_int_eq(fseek(file, 0, SEEK_END), 0);
  reference.size = (size_t)ftell(file);
  fclose(file);

  unsigned *chosen = calloc(calls.count, sizeof *chosen);
  ck_assert_ptr_nonnull(chosen);
  unsigned cases = choose_cases(&calls, chosen);
  unsigned failures = 0, crashes = 0, refused = 0, recovered = 0;
  for (unsigned c = 0; c < cases; ++c) {
    unsigned n = chosen[c];
    snprintf(log_path, sizeof log_path, "%s/%s-fault-%u.log", scratch, plugin, n);
    pid = start_child(log_path);
    if (pid == 0) exit(child_fault(plugin, n, calls.names[n], &reference));
    problem[0] = '\0';
    failed = wait_child(pid, problem, sizeof problem);
    log = read_text(log_path);
    char fired[128];
    snprintf(fired, sizeof fired, "fault hook: call %u (", n);
    const char *ok = log != NULL ? strstr(log, "\nVERDICT ok") : NULL;
    if (!failed && ok != NULL && strstr(log, fired) == NULL) {
      failed = 1;
      snprintf(problem, sizeof problem, "the fault did not fire");
    } else if (!failed && ok == NULL) {
      failed = 1;
      snprintf(problem, sizeof problem, "no verdict");
    }
    if (failed) {
      ++failures;
      if (strncmp(problem, "CRASH", 5) == 0) ++crashes;
      printf("%s call %u (%s): %s\n%s\n", plugin, n, calls.names[n], problem,
             log != NULL ? log : "(no log)");
    } else if (strstr(ok, "recovered") != NULL) {
      ++recovered;
    } else {
      ++refused;
      const char *line = ok + strlen("\nVERDICT ok: ");
      printf("%s call %u (%s): %.*s\n", plugin, n, calls.names[n], (int)strcspn(line, "\n"), line);
    }
    free(log);
  }
  printf("%s: %u hooked calls in a compile and a run; %u failed in turn (%s): %u clean "
         "failures, %u recovered, %u test failures, %u crashes\n",
         plugin, calls.count, cases, sweep_all ? "every call" : "first and last of each call",
         refused, recovered, failures, crashes);
  free(chosen);
  free(calls.names);
  free(reference.bytes);
  if (failures == 0) test_remove_tree(dir); /* else the logs stay for a look */
  free(dir);
  ck_assert_msg(failures == 0, "%s: %u of %u fault cases failed (%u crashes)", plugin, failures,
                cases, crashes);
}
END_TEST

/* Whether plugin finds a device, asked in a child so that this process
 * loads no driver before it forks the cases. */
static int plugin_has_device(const char *plugin) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    tflaccel_environment *environment = NULL;
    if (open_environment(plugin, "error", &environment) != NULL) _exit(1);
    int found = 0;
    for (uint32_t p = 0; p < tflaccel_environment_plugin_count(environment); ++p) {
      tflaccel_plugin_info info = {.struct_size = sizeof info};
      if (tflaccel_environment_plugin_info(environment, p, &info) == NULL &&
          strcmp(info.name, plugin) == 0) {
        found = info.available && info.device_count > 0;
        if (!found)
          printf("%s: unavailable: %s\n", plugin, info.reason != NULL ? info.reason : "not built");
      }
    }
    tflaccel_environment_destroy(environment);
    exit(found ? 0 : 1);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether name is an entry of the comma-separated list. */
static int listed(const char *list, const char *name) {
  size_t length = strlen(name);
  for (const char *at = list; at != NULL; at = strchr(at, ',') ? strchr(at, ',') + 1 : NULL)
    if (strncmp(at, name, length) == 0 && (at[length] == ',' || at[length] == '\0')) return 1;
  return 0;
}

int main(void) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  if (data == NULL) {
    fprintf(stderr, "TFLACCEL_TEST_DATA is not set\n");
    return 1;
  }
  if (snprintf(model_path, sizeof model_path, "%s/hand_recrop.tflite", data) >=
      (int)sizeof model_path)
    return 1;
  const char *sweep = getenv("TFLACCEL_GPU_FAULT_SWEEP");
  sweep_all = sweep != NULL && strcmp(sweep, "all") == 0;
  unsetenv("TFLACCEL_GPU_FAULT");
  /* Every child compiles from source: with the compiled-model cache, a warm
   * child would make other API calls (a program from its binary) than the
   * listing child counted, and the verdicts would name the wrong call. */
  setenv("TFLACCEL_CACHE", "off", 1);
  int any = 0;
  const char *only = getenv("TFLACCEL_GPU_FAULT_PLUGINS");
  for (size_t p = 0; p < PLUGIN_COUNT; ++p) {
    if (only != NULL && *only != '\0' && !listed(only, plugins[p])) {
      printf("%s: not in TFLACCEL_GPU_FAULT_PLUGINS, not tested\n", plugins[p]);
      available[p] = -1;
      continue;
    }
    available[p] = plugin_has_device(plugins[p]);
    any |= available[p];
  }
  if (!any) {
    printf("no GPU plugin (of those asked for) has a device here: skipped\n");
    return 77;
  }
  Suite *suite = suite_create("gpu faults");
  TCase *tcase = tcase_create("faults");
  tcase_set_timeout(tcase, 3600);
  tcase_add_loop_test(tcase, faults_fail_cleanly, 0, (int)PLUGIN_COUNT);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
