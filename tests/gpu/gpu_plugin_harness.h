/* What the GPU plugin tests share: loading the freshly built module, giving
 * it the core's real host services, the checks every GPU plugin must pass,
 * and the skip-when-no-driver decision.
 *
 * Each test binary compiles this with GPU_PLUGIN_PATH (the module),
 * GPU_PLUGIN_NAME (its descriptor name) and GPU_PLUGIN_API_PREFIX (how its
 * api_version strings start) defined. Everything is created inside the test
 * functions: Check forks each test, and a driver context made in the parent
 * does not survive into the child. */
#ifndef TFLACCEL_TESTS_GPU_GPU_PLUGIN_HARNESS_H
#define TFLACCEL_TESTS_GPU_GPU_PLUGIN_HARNESS_H

#include <check.h>

#include "core/registry/host_services.h"
#include "tflaccel/accelerator.h"

#if !defined(GPU_PLUGIN_PATH) || !defined(GPU_PLUGIN_NAME) || !defined(GPU_PLUGIN_API_PREFIX)
#error "GPU_PLUGIN_PATH, GPU_PLUGIN_NAME and GPU_PLUGIN_API_PREFIX must be defined"
#endif

typedef struct gpu_test_plugin {
  void *library;
  const tflaccel_accelerator_plugin *plugin;
  host_plugin_context context;
  tflaccel_host_services host;
  void *state; /* non-NULL once init succeeded */
} gpu_test_plugin;

/* Loads the module (failing the test when it cannot) and calls init with
 * the plugin options given as "key", "value", ..., NULL pairs (options may be
 * NULL). Returns init's status; the caller frees it. */
tflaccel_status gpu_test_plugin_open(gpu_test_plugin *test, const char *const *options);
/* gpu_test_plugin_open that must succeed and find at least one device. */
void gpu_test_plugin_open_ok(gpu_test_plugin *test);
/* Shuts the plugin down. The module stays loaded, as the core does. */
void gpu_test_plugin_close(gpu_test_plugin *test);

/* Creates device `index`, failing the test when that does not work. */
tflaccel_device *gpu_test_device_create(gpu_test_plugin *test, uint32_t index);

/* Fails the test with the message when status is not NULL. */
void gpu_test_assert_ok(tflaccel_status status, const char *what);

/* The tests every GPU plugin must pass, as one test case. */
TCase *gpu_common_test_case(void);

/* Runs the plugin's init once in a child process. Returns 77 (after printing
 * the reason) when the plugin reports TFLACCEL_UNAVAILABLE, that is when the
 * API has no driver here; 0 otherwise (other failures are left for the tests
 * to report). */
int gpu_test_skip_status(void);

/* Runs suite and returns the process exit status, or 77 when
 * gpu_test_skip_status says so. */
int gpu_test_run(Suite *suite);

#endif
