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
/* gpu_test_plugin_open with the host's cache_dir set (it must outlive the
 * plugin). */
tflaccel_status gpu_test_plugin_open_cached(gpu_test_plugin *test, const char *const *options,
                                            const char *cache_dir);
/* gpu_test_plugin_open that must succeed and find at least one device. */
void gpu_test_plugin_open_ok(gpu_test_plugin *test);
/* Shuts the plugin down. The module stays loaded, as the core does. */
void gpu_test_plugin_close(gpu_test_plugin *test);

/* Creates device `index`, failing the test when that does not work. */
tflaccel_device *gpu_test_device_create(gpu_test_plugin *test, uint32_t index);

/* Fails the test with the message when status is not NULL. */
void gpu_test_assert_ok(tflaccel_status status, const char *what);

/* The files of a program cache directory (cache_dir). */
#define GPU_TEST_CACHE_FILES 64
typedef struct gpu_test_cache_listing {
  uint32_t count;
  char names[GPU_TEST_CACHE_FILES][256];
  unsigned long long inodes[GPU_TEST_CACHE_FILES];
} gpu_test_cache_listing;

/* A new empty directory under /tmp for a cache (path: 64 bytes or more). */
void gpu_test_cache_make(char *path, size_t size);
/* Lists dir, failing the test on a file whose name does not start with
 * prefix ("gpu_gl-"). */
void gpu_test_cache_list(const char *dir, const char *prefix, gpu_test_cache_listing *listing);
/* Overwrites the start of every listed file with garbage. */
void gpu_test_cache_garble(const char *dir, const gpu_test_cache_listing *listing);
/* Fails the test unless every file of before is in after under a new inode
 * (written again, as a temporary renamed into place). */
void gpu_test_cache_assert_replaced(const gpu_test_cache_listing *before,
                                    const gpu_test_cache_listing *after);
/* Removes the directory and its files. */
void gpu_test_cache_remove(const char *dir);

/* Compiles and checks a graph on a fresh device of test (its own programs),
 * then destroys the device. */
typedef void (*gpu_test_fresh_device_check)(gpu_test_plugin *test);

/* The program cache of a plugin whose files start with prefix: with a new
 * cache_dir, a first device writes files (files of them: 0 when the cache
 * must stay off, -1 for any number but 0); a second device finds them and
 * computes the same (unchanged_after_load: a file it loaded is not written
 * again); garbage in every file is refused, compiled around and replaced. */
void gpu_test_cache_check(const char *prefix, int files, int unchanged_after_load,
                          gpu_test_fresh_device_check check);

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
