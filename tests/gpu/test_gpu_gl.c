/* gpu_gl: the common GPU plugin checks, plus what is particular to GL: GL
 * binds a context to a thread, so the plugin must leave no context current
 * after init or any call, work from whichever thread calls it (compiling
 * on one thread and running on others included), and give back a context
 * the application had current; a small graph in both precisions; and the
 * on-disk program cache (written, loaded, garbage refused). The
 * per-op numerics are the conformance suite's (tests/conformance). */
#include "config.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gpu/gpu_plugin_harness.h"
#include "tests/gpu/gpu_small_graph.h"

#define THREAD_BYTES (256u * 1024u)

static void fill_pattern(unsigned char *bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) bytes[i] = (unsigned char)(i * 7u + (i >> 10));
}

START_TEST(devices_are_described_as_gles) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  ck_assert_msg(eglGetCurrentContext() == EGL_NO_CONTEXT, "init left a context current");
  uint32_t count = test.plugin->device_count(test.state);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device_info info;
    gpu_test_assert_ok(test.plugin->device_info(test.state, i, &info), "device_info");
    int major = 0, minor = 0;
    ck_assert_int_eq(sscanf(info.api_version, "OpenGL ES %d.%d", &major, &minor), 2);
    ck_assert(major > 3 || (major == 3 && minor >= 1));
    /* Half storage through packHalf2x16 always; half arithmetic never;
     * GL buffers of the application's (device buffers); runs queued with
     * GL fences (native events). */
    ck_assert_uint_eq(info.caps, TFLACCEL_DEVICE_CAP_FP16_STORAGE | TFLACCEL_DEVICE_CAP_IMPORT |
                                     TFLACCEL_DEVICE_CAP_ASYNC);
    if (strstr(info.name, "llvmpipe") != NULL) {
      ck_assert_int_eq(info.type, TFLACCEL_DEVICE_VIRTUAL_GPU);
      ck_assert_msg(strncmp(info.driver_version, "Mesa", 4) == 0, "driver_version %s",
                    info.driver_version);
    }
  }
  gpu_test_plugin_close(&test);
}
END_TEST

typedef struct thread_job {
  tflaccel_device *device;
  tflaccel_buffer *buffer;
  const unsigned char *bytes;
  tflaccel_status status;
  int left_context_current;
} thread_job;

static void *write_from_thread(void *argument) {
  thread_job *job = argument;
  job->status =
      job->device->vtable->buffer_write(job->device, job->buffer, 0, job->bytes, THREAD_BYTES);
  job->left_context_current = eglGetCurrentContext() != EGL_NO_CONTEXT;
  return NULL;
}

START_TEST(buffers_work_from_any_thread) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);
  tflaccel_buffer *buffer = NULL;
  gpu_test_assert_ok(device->vtable->buffer_create(device, THREAD_BYTES, &buffer), "buffer_create");
  ck_assert_msg(eglGetCurrentContext() == EGL_NO_CONTEXT, "buffer_create left a context current");

  unsigned char *written = malloc(THREAD_BYTES), *read = calloc(THREAD_BYTES, 1);
  ck_assert_ptr_nonnull(written);
  ck_assert_ptr_nonnull(read);
  fill_pattern(written, THREAD_BYTES);
  thread_job job = {.device = device, .buffer = buffer, .bytes = written};
  pthread_t thread;
  ck_assert_int_eq(pthread_create(&thread, NULL, write_from_thread, &job), 0);
  ck_assert_int_eq(pthread_join(thread, NULL), 0);
  gpu_test_assert_ok(job.status, "buffer_write from another thread");
  ck_assert_msg(!job.left_context_current, "buffer_write left a context current on its thread");

  gpu_test_assert_ok(device->vtable->buffer_read(device, buffer, 0, read, THREAD_BYTES),
                     "buffer_read on the main thread");
  ck_assert_msg(memcmp(written, read, THREAD_BYTES) == 0, "bytes differ across threads");
  ck_assert_msg(eglGetCurrentContext() == EGL_NO_CONTEXT, "buffer_read left a context current");

  device->vtable->buffer_destroy(device, buffer);
  device->vtable->destroy(device);
  free(written);
  free(read);
  gpu_test_plugin_close(&test);
}
END_TEST

/* A GLES context of the application's own, on the first display that gives
 * one (the order gpu_gl uses). */
static int make_application_context(EGLDisplay *display, EGLContext *context) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  PFNEGLQUERYDEVICESEXTPROC query_devices =
      (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  EGLDisplay candidates[10];
  int candidate_count = 0;
  if (get_platform_display != NULL && query_devices != NULL) {
    EGLDeviceEXT devices[8];
    EGLint device_count = 0;
    if (query_devices(8, devices, &device_count))
      for (EGLint i = 0; i < device_count && i < 8; ++i)
        candidates[candidate_count++] =
            get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
  }
  if (get_platform_display != NULL)
    candidates[candidate_count++] =
        get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  candidates[candidate_count++] = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  for (int i = 0; i < candidate_count; ++i) {
    if (candidates[i] == EGL_NO_DISPLAY || !eglInitialize(candidates[i], NULL, NULL)) continue;
    if (!eglBindAPI(EGL_OPENGL_ES_API)) continue;
    EGLContext created =
        eglCreateContext(candidates[i], EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (created == EGL_NO_CONTEXT) continue;
    if (!eglMakeCurrent(candidates[i], EGL_NO_SURFACE, EGL_NO_SURFACE, created)) {
      eglDestroyContext(candidates[i], created);
      continue;
    }
    *display = candidates[i];
    *context = created;
    return 1;
  }
  return 0;
}

START_TEST(application_context_is_given_back) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);

  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  ck_assert_msg(make_application_context(&display, &context),
                "the test could not make a GLES context of its own");
  unsigned char written[4096], read[4096];
  fill_pattern(written, sizeof written);
  tflaccel_buffer *buffer = NULL;
  gpu_test_assert_ok(device->vtable->buffer_create(device, sizeof written, &buffer),
                     "buffer_create");
  gpu_test_assert_ok(device->vtable->buffer_write(device, buffer, 0, written, sizeof written),
                     "buffer_write");
  gpu_test_assert_ok(device->vtable->buffer_read(device, buffer, 0, read, sizeof read),
                     "buffer_read");
  ck_assert(memcmp(written, read, sizeof read) == 0);
  ck_assert_msg(eglGetCurrentContext() == context, "the application's context was not restored");
  ck_assert_msg(eglGetCurrentDisplay() == display, "the application's display was not restored");
  ck_assert_ptr_nonnull(glGetString(GL_VERSION));
  device->vtable->buffer_destroy(device, buffer);
  ck_assert(eglGetCurrentContext() == context);

  /* The application's context goes first: its display may be the plugin's,
   * which shutdown terminates. */
  ck_assert(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ck_assert(eglDestroyContext(display, context));
  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

START_TEST(small_graph_runs_in_both_precisions) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  for (uint32_t index = 0; index < test.plugin->device_count(test.state); ++index) {
    tflaccel_device *device = gpu_test_device_create(&test, index);
    gpu_small_graph_check(device, TFLACCEL_PRECISION_FP32, 0.0f);
    gpu_small_graph_check(device, TFLACCEL_PRECISION_FP16, 0.01f);
    gpu_small_graph_check_misaligned(device, 16);
    ck_assert_msg(eglGetCurrentContext() == EGL_NO_CONTEXT, "a run left a context current");
    device->vtable->destroy(device);
  }
  gpu_test_plugin_close(&test);
}
END_TEST

/* Whether this machine's GLES driver offers program binaries (without them
 * gpu_gl's program cache stays off, rightly). */
static int driver_offers_program_binaries(void) {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  ck_assert_msg(make_application_context(&display, &context),
                "the test could not make a GLES context of its own");
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  ck_assert(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ck_assert(eglDestroyContext(display, context));
  return formats > 0;
}

/* Compiles and checks the small graph on a fresh device (its own context
 * and program set). */
static void check_on_new_device(gpu_test_plugin *test) {
  tflaccel_device *device = gpu_test_device_create(test, 0);
  gpu_small_graph_check(device, TFLACCEL_PRECISION_FP32, 0.0f);
  device->vtable->destroy(device);
}

/* Two entries for the partition (its lowered program, and its GL
 * programs' binaries), left alone once loaded (gpu_test_cache_check); only
 * the first where the driver offers no program binaries. */
START_TEST(programs_are_cached_on_disk) {
  int binaries = driver_offers_program_binaries();
  if (!binaries) printf("gpu_gl: this driver offers no program binaries: only programs are cached\n");
  gpu_test_cache_check("gpu_gl-", binaries ? 2 : 1, 1, check_on_new_device);
}
END_TEST

typedef struct run_job {
  gpu_small_graph *graph;
  tflaccel_device *device;
  tflaccel_buffer *output;
  uint32_t seed;
  int left_context_current;
} run_job;

static void *run_from_thread(void *argument) {
  run_job *job = argument;
  /* A failed check ends this thread's part: Check reports it from here. */
  gpu_small_graph_run(job->graph, job->device, job->output, 0, job->seed, 0.0f);
  job->left_context_current = eglGetCurrentContext() != EGL_NO_CONTEXT;
  return NULL;
}

/* Compiled on the main thread, run from two other threads in turn, then
 * from the main thread: every run computes the right values. */
START_TEST(runs_work_from_any_thread) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);
  gpu_small_graph graph;
  gpu_small_graph_init(&graph);
  gpu_small_graph_compile(&graph, device, TFLACCEL_PRECISION_FP32);
  tflaccel_buffer *output = NULL;
  gpu_test_assert_ok(
      device->vtable->buffer_create(device, GPU_SMALL_GRAPH_VALUES * sizeof(float), &output),
      "buffer_create");
  for (uint32_t t = 0; t < 2; ++t) {
    run_job job = {.graph = &graph, .device = device, .output = output, .seed = 10 + t};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, run_from_thread, &job), 0);
    ck_assert_int_eq(pthread_join(thread, NULL), 0);
    ck_assert_msg(!job.left_context_current, "a run left a context current on its thread");
  }
  gpu_small_graph_run(&graph, device, output, 0, 12, 0.0f);
  ck_assert_msg(eglGetCurrentContext() == EGL_NO_CONTEXT, "a run left a context current");
  device->vtable->buffer_destroy(device, output);
  gpu_small_graph_release(&graph, device);
  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_gl");
  suite_add_tcase(suite, gpu_common_test_case());
  TCase *specific = tcase_create("gpu_gl EGL");
  tcase_add_test(specific, devices_are_described_as_gles);
  tcase_add_test(specific, buffers_work_from_any_thread);
  tcase_add_test(specific, application_context_is_given_back);
  tcase_add_test(specific, small_graph_runs_in_both_precisions);
  tcase_add_test(specific, runs_work_from_any_thread);
  suite_add_tcase(suite, specific);
  /* Builds the programs up to three times over: slow on software drivers. */
  TCase *cache = tcase_create("gpu_gl program cache");
  tcase_set_timeout(cache, 300);
  tcase_add_test(cache, programs_are_cached_on_disk);
  suite_add_tcase(suite, cache);
  return gpu_test_run(suite);
}
