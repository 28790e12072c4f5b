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
 *   - a name that is no sync object, other types: one-line errors.
 * When gpu_gl finds no EGL/GLES driver, each case says so and passes over. */
#include "config.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

static void expect_error(tflaccel_status status, int32_t code, const char *fragment) {
  ck_assert_msg(status != NULL, "expected an error containing \"%s\"", fragment);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, fragment) != NULL, "error \"%s\" lacks \"%s\"", message, fragment);
  ck_assert_msg(strchr(message, '\n') == NULL, "error is not one line: %s", message);
  ck_assert_msg((int32_t)tflaccel_status_code_of(status) == code, "error \"%s\" has code %d, not %d",
                message, (int)tflaccel_status_code_of(status), (int)code);
  tflaccel_status_free(status);
}

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
        expect_error(status, TFLACCEL_UNSUPPORTED, "EGL_KHR_fence_sync");
      }
      status = tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD, &exported);
      if (has_native_fence) {
        ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
        ck_assert_int_ge((int)exported.handle, 0);
      } else {
        expect_error(status, TFLACCEL_UNSUPPORTED, "EGL_ANDROID_native_fence_sync");
      }
      expect_error(tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_VULKAN_FENCE, &exported),
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
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native,
                                                        &ready),
               TFLACCEL_INVALID_ARGUMENT, "not a GLsync of the accelerator's share group");
  native.type = TFLACCEL_NATIVE_EVENT_EGL_SYNC;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native,
                                                        &ready),
               TFLACCEL_UNSUPPORTED, "gpu_gl waits on GLsync objects only");
  native.type = TFLACCEL_NATIVE_EVENT_GL_SYNC;
  native.handle = 0;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_gl", &native,
                                                        &ready),
               TFLACCEL_INVALID_ARGUMENT, "NULL GLsync");
  ck_assert_ptr_null(ready);
  printf("gpu_gl: an application's GL fence gated a queued run; bad events refused in one line\n");
  close_setup(&setup);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("native_events_gl");
  TCase *tcase = tcase_create("native_events_gl");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, queued_runs_export_gl_syncs);
  tcase_add_test(tcase, application_gl_fence_gates_the_run);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
