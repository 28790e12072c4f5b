/* gpu_gl takes the application's own GL buffers: made on the application's
 * EGL context, which shares with the accelerator's (from
 * tflaccel_compiled_model_native_device), filled and read with the
 * application's own GL calls, at an offset inside larger buffers; the run
 * copies nothing through the host and gives the host run's outputs. A name
 * that is no buffer, or a buffer too small, is refused in one line. */
#include "config.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define OFFSET 256

/* A GLES 3.1 context of the application sharing with `shared`, current on
 * this thread. */
static EGLContext make_shared_context(EGLDisplay display, EGLContext shared) {
  EGLConfig config = EGL_NO_CONFIG_KHR;
  const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (extensions == NULL || strstr(extensions, "EGL_KHR_no_config_context") == NULL) {
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

static GLuint make_buffer(size_t size, const void *data) {
  GLuint name = 0;
  glGenBuffers(1, &name);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, name);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)size, NULL, GL_DYNAMIC_COPY);
  if (data != NULL) glBufferSubData(GL_SHADER_STORAGE_BUFFER, OFFSET, (GLsizeiptr)(size - OFFSET), data);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  ck_assert_int_eq(glGetError(), GL_NO_ERROR);
  return name;
}

START_TEST(application_gl_buffer_runs_in_place) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, "gpu_gl", "selfie_segmentation.tflite")) return;
  tflaccel_native_device device = {.struct_size = sizeof device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture.compiled, 0, 0, &device));
  ck_assert_uint_le(device.offset_alignment, OFFSET);
  EGLDisplay display = device.egl_display;
  EGLContext context = make_shared_context(display, device.egl_context);

  size_t input_size = tflaccel_tensor_buffer_byte_size(fixture.inputs[0]);
  size_t output_size = tflaccel_tensor_buffer_byte_size(fixture.outputs[0]);
  GLuint input_name = make_buffer(OFFSET + input_size, tflaccel_tensor_buffer_data(fixture.inputs[0]));
  GLuint output_name = make_buffer(OFFSET + output_size, NULL);
  glFinish(); /* the accelerator's context reads what this one wrote */

  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = TFLACCEL_BUFFER_GL,
                                   .handle = input_name,
                                   .offset = OFFSET,
                                   .size = input_size};
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  tflaccel_status status = tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &input);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  native.handle = output_name;
  native.size = output_size;
  status = tflaccel_compiled_model_wrap_output_buffer(fixture.compiled, 0, &native, &output);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  status = tflaccel_compiled_model_run(fixture.compiled, &input, 1, &output, 1);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
  ck_assert_uint_eq(stats.host_copies, 0);

  glBindBuffer(GL_SHADER_STORAGE_BUFFER, output_name);
  const void *mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, OFFSET, (GLsizeiptr)output_size,
                                        GL_MAP_READ_BIT);
  ck_assert_ptr_nonnull(mapped);
  ck_assert_int_eq(memcmp(mapped, tflaccel_tensor_buffer_data(fixture.outputs[0]), output_size), 0);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  device_fixture_check_output(&fixture, 0, output);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  /* Wrapping did not take the buffers: they are still the application's. */
  ck_assert(glIsBuffer(input_name) && glIsBuffer(output_name));

  tflaccel_tensor_buffer *refused = NULL;
  native.handle = output_name; /* holds less than the input needs */
  native.size = input_size;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &refused), -1,
      "bytes, it needs");
  native.handle = 999999; /* no buffer */
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &refused), -1,
      "is not a GL buffer of the accelerator's share group");
  ck_assert_ptr_null(refused);

  glDeleteBuffers(1, &input_name);
  glDeleteBuffers(1, &output_name);
  ck_assert(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ck_assert(eglDestroyContext(display, context));
  printf("gpu_gl: the application's GL buffers ran in place, 0 host copies\n");
  device_fixture_close(&fixture);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("device_buffers_gl");
  TCase *tcase = tcase_create("device_buffers_gl");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, application_gl_buffer_runs_in_place);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
