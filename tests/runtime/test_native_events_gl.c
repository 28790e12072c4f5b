/* gpu_gl's native events (tflaccel.h, "Native events"), on hand_recrop
 * from tests/data with device buffers for every input and output:
 *   - run_async only queues the dispatches: each output's event is backed
 *     by a GLsync that glClientWaitSync signals on an application context
 *     sharing with the accelerator's; outputs equal the synchronous run's;
 *   - an EGLSyncKHR export (EGL_KHR_fence_sync) signals too; a sync_file
 *     fd export works where EGL_ANDROID_native_fence_sync is offered, else
 *     is refused naming that extension (llvmpipe lacks it);
 *   - the application's GL fence, made on its shared context, wraps as an
 *     input's event and the run waits for it on the GPU;
 *   - so does the application's EGL fence sync on the accelerator's
 *     EGLDisplay (EGL_KHR_fence_sync, EGL_KHR_wait_sync: llvmpipe has
 *     them); a sync of another display, a handle that is none, a NULL
 *     handle: one-line errors;
 *   - with Vulkan: an exported OPAQUE_FD semaphore of the application's own
 *     Vulkan device on the same GPU (matched by GL_DEVICE_UUID_EXT) wraps
 *     as an input's event (GL_EXT_semaphore_fd), is signalled by an empty
 *     vkQueueSubmit, and the run completes with right outputs; then a
 *     timeline one at value 1 (GL_NV_timeline_semaphore, else refused
 *     naming it). Where GL_EXT_semaphore_fd is absent (llvmpipe) the wrap
 *     is refused naming it, and the rest says "skipped: ...";
 *   - a name that is no sync object, other types: one-line errors.
 * When gpu_gl finds no EGL/GLES driver, each case says so and passes over. */
#include "config.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tests/runtime/device_buffer_fixture.h"
#ifdef TFLACCEL_TEST_VULKAN
#include "tests/runtime/vk_test_semaphore.h"
#endif
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

static int has_extension(EGLDisplay display, const char *name) {
  const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
  size_t length = strlen(name);
  for (const char *at = extensions; at != NULL && (at = strstr(at, name)) != NULL; at += length)
    if ((at == extensions || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0')) return 1;
  return 0;
}

/* A GLES 3.1 context of the application sharing with `shared`, current on
 * this thread. */
static EGLContext make_shared_context(EGLDisplay display, EGLContext shared) {
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!has_extension(display, "EGL_KHR_no_config_context")) {
    const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLint found = 0;
    ck_assert(eglChooseConfig(display, wanted, &config, 1, &found) && found == 1);
  }
  ck_assert(eglBindAPI(EGL_OPENGL_ES_API));
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, shared, attributes);
  ck_assert_msg(context != EGL_NO_CONTEXT, "eglCreateContext sharing: 0x%x", (unsigned)eglGetError());
  ck_assert(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context));
  return context;
}

typedef struct gl_setup {
  device_fixture fixture;
  EGLDisplay display;
  EGLContext context; /* the application's, current on this thread */
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
} gl_setup;

static int open_setup(gl_setup *setup) {
  if (!device_fixture_open(&setup->fixture, "gpu_gl", MODEL)) return 0;
  device_fixture *fixture = &setup->fixture;
  tflaccel_native_device device = {.struct_size = sizeof device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture->compiled, 0, 0, &device));
  ck_assert_int_eq(device.type, TFLACCEL_BUFFER_GL);
  setup->display = device.egl_display;
  setup->context = make_shared_context(setup->display, device.egl_context);
  device_fixture_make_device_buffers(fixture, TFLACCEL_BUFFER_GL, setup->inputs, setup->outputs);
  return 1;
}

static void close_setup(gl_setup *setup) {
  device_fixture_destroy_buffers(setup->inputs, setup->fixture.input_count);
  device_fixture_destroy_buffers(setup->outputs, setup->fixture.output_count);
  ck_assert(eglMakeCurrent(setup->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ck_assert(eglDestroyContext(setup->display, setup->context));
  device_fixture_close(&setup->fixture);
}

START_TEST(queued_runs_export_gl_syncs) {
  gl_setup setup;
  if (!open_setup(&setup)) return;
  device_fixture *fixture = &setup.fixture;
  PFNEGLCLIENTWAITSYNCKHRPROC client_wait =
      (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
  int has_fence_sync = has_extension(setup.display, "EGL_KHR_fence_sync") && client_wait != NULL;
  int has_native_fence = has_extension(setup.display, "EGL_ANDROID_native_fence_sync");
  enum { FRAMES = 3 };
  for (int frame = 0; frame < FRAMES; ++frame) {
    tflaccel_status status = tflaccel_compiled_model_run_async(
        fixture->compiled, setup.inputs, fixture->input_count, setup.outputs, fixture->output_count);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    for (uint32_t o = 0; o < fixture->output_count; ++o) {
      tflaccel_tensor_event *event = NULL;
      ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup.outputs[o], &event));
      tflaccel_native_event native = {.struct_size = sizeof native};
      status = tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_NONE, &native);
      ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
      ck_assert_int_eq(native.type, TFLACCEL_NATIVE_EVENT_GL_SYNC);
      GLsync sync = (GLsync)(uintptr_t)native.handle;
      ck_assert(glIsSync(sync));
      GLenum waited = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
      ck_assert_msg(waited == GL_ALREADY_SIGNALED || waited == GL_CONDITION_SATISFIED,
                    "glClientWaitSync gave 0x%x", (unsigned)waited);
      tflaccel_native_event exported = {.struct_size = sizeof exported};
      status = tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_EGL_SYNC, &exported);
      if (has_fence_sync) {
        ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
        ck_assert_int_eq(exported.type, TFLACCEL_NATIVE_EVENT_EGL_SYNC);
        EGLint result = client_wait(setup.display, (EGLSyncKHR)(uintptr_t)exported.handle, 0,
                                    EGL_FOREVER_KHR);
        ck_assert_int_eq(result, EGL_CONDITION_SATISFIED_KHR);
      } else {
        fixture_expect_error(status, TFLACCEL_UNSUPPORTED, "EGL_KHR_fence_sync");
      }
      status = tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD, &exported);
      if (has_native_fence) {
        ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
        ck_assert_int_ge((int)exported.handle, 0);
      } else {
        fixture_expect_error(status, TFLACCEL_UNSUPPORTED, "EGL_ANDROID_native_fence_sync");
      }
      fixture_expect_error(
          tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_VULKAN_FENCE, &exported),
          TFLACCEL_UNSUPPORTED, "no VkFence events");
      status = tflaccel_tensor_event_wait(event);
      ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
      ck_assert_int_eq(tflaccel_tensor_event_is_signaled(event), 1);
      tflaccel_tensor_event_destroy(event);
      device_fixture_check_output(fixture, o, setup.outputs[o]);
    }
  }
  printf("gpu_gl: run_async queued %d frames; outputs' GLsyncs signalled on a shared context "
         "(EGLSyncKHR export: %s; sync_file fd export: %s)\n",
         FRAMES, has_fence_sync ? "signalled" : "EGL_KHR_fence_sync absent",
         has_native_fence ? "made" : "EGL_ANDROID_native_fence_sync absent, refused");
  close_setup(&setup);
}
END_TEST

START_TEST(application_gl_fence_gates_the_run) {
  gl_setup setup;
  if (!open_setup(&setup)) return;
  device_fixture *fixture = &setup.fixture;
  GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  ck_assert(fence != 0);
  glFlush(); /* another context waits for it */
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_GL_SYNC,
                                  .handle = (uint64_t)(uintptr_t)fence};
  tflaccel_tensor_event *ready = NULL;
  tflaccel_status status = tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl",
                                                                    &native, &ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], ready));
  status = tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs, fixture->input_count,
                                             setup.outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event *done = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup.outputs[0], &done));
  status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], NULL));
  tflaccel_tensor_event_destroy(ready);
  /* Borrowed: still the application's. */
  ck_assert(glIsSync(fence));
  glDeleteSync(fence);

  native.handle = 12345; /* no sync object */
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native, &ready),
      TFLACCEL_INVALID_ARGUMENT, "not a GLsync of the accelerator's share group");
  native.type = TFLACCEL_NATIVE_EVENT_VULKAN_FENCE;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native, &ready),
      TFLACCEL_UNSUPPORTED, "gpu_gl waits on GLsync, EGLSyncKHR and opaque semaphore fds only");
  native.type = TFLACCEL_NATIVE_EVENT_GL_SYNC;
  native.handle = 0;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native, &ready),
      TFLACCEL_INVALID_ARGUMENT, "NULL GLsync");
  ck_assert_ptr_null(ready);
  printf("gpu_gl: an application's GL fence gated a queued run; bad events refused in one line\n");
  close_setup(&setup);
}
END_TEST

/* Queues a run gated by `ready` on every input, waits for its first
 * output's event and checks every output. */
static void run_gated(gl_setup *setup, tflaccel_tensor_event *ready) {
  device_fixture *fixture = &setup->fixture;
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup->inputs[i], ready));
  tflaccel_status status = tflaccel_compiled_model_run_async(
      fixture->compiled, setup->inputs, fixture->input_count, setup->outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event *done = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup->outputs[0], &done));
  status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    device_fixture_check_output(fixture, o, setup->outputs[o]);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup->inputs[i], NULL));
}

static tflaccel_status wrap(const gl_setup *setup, int32_t type, uint64_t handle, uint64_t value,
                            tflaccel_tensor_event **event) {
  tflaccel_native_event native = {
      .struct_size = sizeof native, .type = type, .handle = handle, .value = value};
  return tflaccel_tensor_event_create_from_native(setup->fixture.environment, "gpu_gl", &native,
                                                  event);
}

/* An EGL fence sync made on another EGLDisplay than `plugin_display` (a
 * context of its own made current there for the call, then this thread's
 * context restored); 0 when this machine offers no other display with
 * fence syncs. */
static int other_display_sync(const gl_setup *setup, EGLDisplay *other, EGLSyncKHR *sync) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  PFNEGLCREATESYNCKHRPROC create_sync =
      (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
  if (get_platform_display == NULL || create_sync == NULL) return 0;
  *other = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (*other == EGL_NO_DISPLAY || *other == setup->display) {
    eglGetError();
    return 0;
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(*other, &major, &minor)) {
    eglGetError();
    return 0;
  }
  if (!has_extension(*other, "EGL_KHR_fence_sync")) {
    ck_assert(eglTerminate(*other));
    return 0;
  }
  /* Any GLES context will do; a display that offers none is no use here. */
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLint found = 0;
  const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
  if (!has_extension(*other, "EGL_KHR_no_config_context") &&
      (!eglChooseConfig(*other, wanted, &config, 1, &found) || found != 1)) {
    eglGetError();
    ck_assert(eglTerminate(*other));
    return 0;
  }
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(*other, config, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(*other, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglGetError();
    if (context != EGL_NO_CONTEXT) ck_assert(eglDestroyContext(*other, context));
    ck_assert(eglMakeCurrent(setup->display, EGL_NO_SURFACE, EGL_NO_SURFACE, setup->context));
    ck_assert(eglTerminate(*other));
    return 0;
  }
  *sync = create_sync(*other, EGL_SYNC_FENCE_KHR, NULL);
  ck_assert_msg(*sync != EGL_NO_SYNC_KHR, "eglCreateSyncKHR on another display: 0x%x",
                (unsigned)eglGetError());
  glFlush();
  ck_assert(eglMakeCurrent(setup->display, EGL_NO_SURFACE, EGL_NO_SURFACE, setup->context));
  ck_assert(eglDestroyContext(*other, context));
  return 1;
}

START_TEST(application_egl_sync_gates_the_run) {
  gl_setup setup;
  if (!open_setup(&setup)) return;
  tflaccel_tensor_event *ready = NULL;
  PFNEGLCREATESYNCKHRPROC create_sync =
      (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
  PFNEGLDESTROYSYNCKHRPROC destroy_sync =
      (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
  PFNEGLGETSYNCATTRIBKHRPROC get_attribute =
      (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
  if (!has_extension(setup.display, "EGL_KHR_fence_sync") ||
      !has_extension(setup.display, "EGL_KHR_wait_sync") || create_sync == NULL) {
    fixture_expect_error(wrap(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, 12345, 0, &ready),
                         TFLACCEL_UNSUPPORTED, "EGL_KHR_fence_sync or EGL_KHR_wait_sync");
    printf("gpu_gl: skipped: EGL_KHR_fence_sync and EGL_KHR_wait_sync not both offered by the "
           "EGL display; wrapping an EGLSyncKHR refused naming them\n");
    close_setup(&setup);
    return;
  }
  /* Made on the application's context, of the accelerator's display. */
  EGLSyncKHR sync = create_sync(setup.display, EGL_SYNC_FENCE_KHR, NULL);
  ck_assert_msg(sync != EGL_NO_SYNC_KHR, "eglCreateSyncKHR: 0x%x", (unsigned)eglGetError());
  glFlush(); /* another context waits for it */
  tflaccel_status status =
      wrap(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, (uint64_t)(uintptr_t)sync, 0, &ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  run_gated(&setup, ready);
  /* The wrapped event's own wait and query (eglClientWaitSyncKHR,
   * eglGetSyncAttribKHR), and its export: the application's sync itself. */
  status = tflaccel_tensor_event_wait(ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  tflaccel_native_event exported = {.struct_size = sizeof exported};
  status = tflaccel_tensor_event_get_native(ready, TFLACCEL_NATIVE_EVENT_NONE, &exported);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(exported.type, TFLACCEL_NATIVE_EVENT_EGL_SYNC);
  ck_assert_uint_eq(exported.handle, (uint64_t)(uintptr_t)sync);
  fixture_expect_error(
      tflaccel_tensor_event_get_native(ready, TFLACCEL_NATIVE_EVENT_GL_SYNC, &exported),
      TFLACCEL_UNSUPPORTED, "an application's EGLSyncKHR exports as itself only");
  tflaccel_tensor_event_destroy(ready);
  ready = NULL;
  /* Borrowed: still the application's. */
  EGLint signalled = 0;
  ck_assert(get_attribute(setup.display, sync, EGL_SYNC_STATUS_KHR, &signalled));
  ck_assert_int_eq(signalled, EGL_SIGNALED_KHR);
  ck_assert(destroy_sync(setup.display, sync));

  fixture_expect_error(wrap(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, 12345, 0, &ready),
                       TFLACCEL_INVALID_ARGUMENT,
                       "not an EGLSyncKHR of the accelerator's EGLDisplay");
  fixture_expect_error(wrap(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, 0, 0, &ready),
                       TFLACCEL_INVALID_ARGUMENT, "NULL EGLSyncKHR");
  EGLDisplay other = EGL_NO_DISPLAY;
  EGLSyncKHR foreign = EGL_NO_SYNC_KHR;
  int has_other = other_display_sync(&setup, &other, &foreign);
  if (has_other) {
    fixture_expect_error(
        wrap(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, (uint64_t)(uintptr_t)foreign, 0, &ready),
        TFLACCEL_INVALID_ARGUMENT, "not an EGLSyncKHR of the accelerator's EGLDisplay");
    ck_assert(destroy_sync(other, foreign));
    ck_assert(eglTerminate(other));
  }
  ck_assert_ptr_null(ready);
  printf("gpu_gl: an application's EGL fence sync gated a queued run; a handle that is no sync%s "
         "and a NULL one refused in one line\n",
         has_other ? ", another display's sync" : " (no other EGL display here to test a foreign sync)");
  close_setup(&setup);
}
END_TEST

/* The GL extension, listed by the current context. */
static int has_gl_extension(const char *name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const GLubyte *extension = glGetStringi(GL_EXTENSIONS, (GLuint)i);
    if (extension != NULL && strcmp((const char *)extension, name) == 0) return 1;
  }
  return 0;
}

START_TEST(application_semaphore_fd_gates_the_run) {
  gl_setup setup;
  if (!open_setup(&setup)) return;
  tflaccel_tensor_event *ready = NULL;
  const char *renderer = (const char *)glGetString(GL_RENDERER);
  if (!has_gl_extension("GL_EXT_semaphore_fd")) {
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    fixture_expect_error(wrap(&setup, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, (uint64_t)fd, 0, &ready),
                         TFLACCEL_UNSUPPORTED, "lacks GL_EXT_semaphore_fd");
    ck_assert_int_eq(close(fd), 0); /* still the test's */
    printf("gpu_gl: skipped: GL_EXT_semaphore_fd not offered by %s (wrapping an opaque fd "
           "refused naming it)\n",
           renderer);
    close_setup(&setup);
    return;
  }
#ifdef TFLACCEL_TEST_VULKAN
  PFNGLGETUNSIGNEDBYTEI_VEXTPROC get_uuid =
      (PFNGLGETUNSIGNEDBYTEI_VEXTPROC)eglGetProcAddress("glGetUnsignedBytei_vEXT");
  ck_assert_ptr_nonnull(get_uuid);
  uint8_t uuid[VK_UUID_SIZE] = {0};
  get_uuid(GL_DEVICE_UUID_EXT, 0, uuid);
  ck_assert_int_eq(glGetError(), GL_NO_ERROR);
  for (int32_t timeline = 0; timeline <= 1; ++timeline) {
    if (timeline && !has_gl_extension("GL_NV_timeline_semaphore")) {
      int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
      ck_assert_int_ge(fd, 0);
      fixture_expect_error(wrap(&setup, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, (uint64_t)fd, 1, &ready),
                           TFLACCEL_UNSUPPORTED, "GL_NV_timeline_semaphore");
      ck_assert_int_eq(close(fd), 0);
      printf("gpu_gl: skipped: GL_NV_timeline_semaphore not offered by %s (a timeline value "
             "refused naming it)\n",
             renderer);
      continue;
    }
    vk_test_semaphore semaphore;
    char why[256];
    if (!vk_test_semaphore_open(&semaphore, uuid, timeline, why, sizeof why)) {
      printf("gpu_gl: skipped: %s\n", why);
      continue;
    }
    int fd = vk_test_semaphore_export(&semaphore);
    tflaccel_status status =
        wrap(&setup, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, (uint64_t)fd, timeline ? 1 : 0, &ready);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    ck_assert_int_eq(close(fd), 0); /* gpu_gl imported its own copy */
    vk_test_semaphore_signal(&semaphore, 1);
    run_gated(&setup, ready);
    status = tflaccel_tensor_event_wait(ready);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
    tflaccel_tensor_event_destroy(ready);
    ready = NULL;
    vk_test_semaphore_close(&semaphore);
    printf("gpu_gl: a %s Vulkan semaphore's opaque fd gated a queued run on %s\n",
           timeline ? "timeline" : "binary", renderer);
  }
#else
  printf("gpu_gl: skipped: built without Vulkan, no semaphore to export\n");
#endif
  close_setup(&setup);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("native_events_gl");
  TCase *tcase = tcase_create("native_events_gl");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, queued_runs_export_gl_syncs);
  tcase_add_test(tcase, application_gl_fence_gates_the_run);
  tcase_add_test(tcase, application_egl_sync_gates_the_run);
  tcase_add_test(tcase, application_semaphore_fd_gates_the_run);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
