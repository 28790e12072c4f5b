/* A GPU pipeline with no host copy, on OpenGL ES (gpu_gl):
 *
 *   1. a GLES compute shader of the application draws a test image straight
 *      into a GL buffer (on the application's surfaceless EGL context, which
 *      shares with the accelerator's);
 *   2. gpu_gl runs selfie_segmentation on that buffer, writing its mask into
 *      a second GL buffer of the application's (wrapped, not copied);
 *   3. a second compute shader sums the mask on the GPU; only that one
 *      number comes back to the host.
 *
 * Then it checks itself (pipeline_common.c): the same image made on the
 * CPU and run with host buffers must give the same sum (the run's
 * host-copy count is printed for both). Usage: gl_pipeline [MODEL]
 * (default: selfie_segmentation.tflite in $TFLACCEL_TEST_DATA). Exit 77
 * when gpu_gl is not available here. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <stdio.h>
#include <string.h>

#include "examples/pipeline_common.h"

/* Pixel (x, y), channel c, in [0, 1]: a smooth pattern with a bright disc. */
static const char *const draw_source =
    "#version 310 es\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer Image { float pixels[]; };\n"
    "uniform int side;\n"
    "void main() {\n"
    "  int i = int(gl_GlobalInvocationID.x);\n"
    "  if (i >= side * side * 3) return;\n"
    "  int c = i % 3, x = (i / 3) % side, y = i / (3 * side);\n"
    "  float u = float(x) / float(side), v = float(y) / float(side);\n"
    "  float disc = (u - 0.5) * (u - 0.5) + (v - 0.45) * (v - 0.45) < 0.06 ? 0.8 : 0.0;\n"
    "  pixels[i] = clamp(0.1 + 0.3 * u + 0.2 * v * float(c) + disc, 0.0, 1.0);\n"
    "}\n";

/* Sums the mask in one work group (the sum stays on the GPU until read). */
static const char *const sum_source =
    "#version 310 es\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Mask { float mask[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Sum { float total; };\n"
    "uniform int count;\n"
    "shared float partial[256];\n"
    "void main() {\n"
    "  uint lane = gl_LocalInvocationID.x;\n"
    "  float s = 0.0;\n"
    "  for (int i = int(lane); i < count; i += 256) s += mask[i];\n"
    "  partial[lane] = s;\n"
    "  barrier();\n"
    "  for (uint step = 128u; step > 0u; step >>= 1) {\n"
    "    if (lane < step) partial[lane] += partial[lane + step];\n"
    "    barrier();\n"
    "  }\n"
    "  if (lane == 0u) total = partial[0];\n"
    "}\n";

static GLuint compile_program(const char *source) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "gl_pipeline: compiling a shader: %s\n", log);
    glDeleteShader(shader);
    return 0;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

/* The application's context, sharing GL objects with the accelerator's. */
static EGLContext make_context(EGLDisplay display, EGLContext shared) {
  EGLConfig config = EGL_NO_CONFIG_KHR;
  const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (extensions == NULL || strstr(extensions, "EGL_KHR_no_config_context") == NULL) {
    const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLint found = 0;
    if (!eglChooseConfig(display, wanted, &config, 1, &found) || found != 1) return EGL_NO_CONTEXT;
  }
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return EGL_NO_CONTEXT;
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, shared, attributes);
  if (context != EGL_NO_CONTEXT &&
      !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglDestroyContext(display, context);
    return EGL_NO_CONTEXT;
  }
  return context;
}

/* The application's GL objects, on its context sharing with gpu_gl's. */
typedef struct gl_app {
  EGLDisplay display;
  EGLContext context;
  GLuint buffers[3]; /* image, mask, sum */
  GLuint draw, sum;
} gl_app;

static void gl_app_destroy(gl_app *app) {
  if (app->context == EGL_NO_CONTEXT) return;
  glDeleteProgram(app->draw);
  glDeleteProgram(app->sum);
  glDeleteBuffers(3, app->buffers);
  eglMakeCurrent(app->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(app->display, app->context);
}

static int run_pipeline(pipeline *self, gl_app *app) {
  app->display = self->device.egl_display;
  app->context = make_context(app->display, self->device.egl_context);
  if (app->context == EGL_NO_CONTEXT)
    return pipeline_fail(self, "an EGL context sharing with gpu_gl's", NULL);

  size_t input_bytes = self->input_bytes, output_bytes = self->output_bytes;
  glGenBuffers(3, app->buffers);
  GLuint image = app->buffers[0], mask = app->buffers[1], sum = app->buffers[2];
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, image);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)input_bytes, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, mask);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(output_bytes + 15) / 16 * 16, NULL,
               GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sum);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 16, NULL, GL_DYNAMIC_READ);
  if (glGetError() != GL_NO_ERROR) return pipeline_fail(self, "making the GL buffers", NULL);

  /* 1. Draw the image on the GPU. */
  app->draw = compile_program(draw_source);
  app->sum = compile_program(sum_source);
  if (app->draw == 0 || app->sum == 0) return pipeline_fail(self, "compiling the shaders", NULL);
  glUseProgram(app->draw);
  glUniform1i(glGetUniformLocation(app->draw, "side"), PIPELINE_SIDE);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, image);
  glDispatchCompute((PIPELINE_SIDE * PIPELINE_SIDE * 3 + 63) / 64, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glFinish(); /* the accelerator's context reads it next */

  /* 2. The model, on the application's buffers. */
  const tflaccel_native_buffer image_native = {
      .struct_size = sizeof image_native, .type = TFLACCEL_BUFFER_GL, .handle = image,
      .size = input_bytes};
  const tflaccel_native_buffer mask_native = {
      .struct_size = sizeof mask_native, .type = TFLACCEL_BUFFER_GL, .handle = mask,
      .size = output_bytes};
  uint32_t device_copies = 0;
  int status = pipeline_run_wrapped(self, &image_native, &mask_native, &device_copies);
  if (status != 0) return status;

  /* 3. Sum the mask on the GPU; read back one float. */
  glUseProgram(app->sum);
  glUniform1i(glGetUniformLocation(app->sum, "count"), (GLint)(output_bytes / sizeof(float)));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, mask);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sum);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sum);
  const float *mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof(float), GL_MAP_READ_BIT);
  if (mapped == NULL) return pipeline_fail(self, "reading the sum", NULL);
  float device_sum = *mapped;
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  return pipeline_check(self, device_sum, device_copies);
}

int main(int argc, char **argv) {
  pipeline self;
  int status = pipeline_open(&self, "gl_pipeline", "gpu_gl", TFLACCEL_BUFFER_GL, argc, argv);
  if (status == 0) {
    gl_app app = {EGL_NO_DISPLAY, EGL_NO_CONTEXT, {0, 0, 0}, 0, 0};
    status = run_pipeline(&self, &app);
    gl_app_destroy(&app);
  }
  pipeline_close(&self);
  return status;
}
