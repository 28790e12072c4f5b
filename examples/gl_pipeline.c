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
 * Then it checks itself: the same image made on the CPU and run with host
 * buffers must give the same sum (the run's host-copy count is printed for
 * both). Usage: gl_pipeline [MODEL] (default: selfie_segmentation.tflite in
 * $TFLACCEL_TEST_DATA). Exit 77 when gpu_gl is not available here. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/tflaccel.h"

#define SIDE 256 /* the model's input is 256 x 256 x 3 */

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

static int fail(const char *what, tflaccel_status status) {
  fprintf(stderr, "gl_pipeline: %s: %s\n", what, status ? tflaccel_status_message(status) : "failed");
  tflaccel_status_free(status);
  return 1;
}

static GLuint compile_program(const char *source) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "gl_pipeline: shader: %s\n", log);
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

/* The same image on the CPU, for the check. */
static void draw_on_cpu(float *pixels) {
  for (int i = 0; i < SIDE * SIDE * 3; ++i) {
    int c = i % 3, x = (i / 3) % SIDE, y = i / (3 * SIDE);
    float u = (float)x / SIDE, v = (float)y / SIDE;
    float disc = (u - 0.5f) * (u - 0.5f) + (v - 0.45f) * (v - 0.45f) < 0.06f ? 0.8f : 0.0f;
    float value = 0.1f + 0.3f * u + 0.2f * v * (float)c + disc;
    pixels[i] = value < 0.0f ? 0.0f : value > 1.0f ? 1.0f : value;
  }
}

int main(int argc, char **argv) {
  char default_model[4096];
  const char *model_path = argc > 1 ? argv[1] : NULL;
  if (model_path == NULL) {
    const char *data = getenv("TFLACCEL_TEST_DATA");
    snprintf(default_model, sizeof default_model, "%s/selfie_segmentation.tflite", data ? data : ".");
    model_path = default_model;
  }
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = "gpu_gl", .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_model *model = NULL;
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) return fail("environment", status);
  tflaccel_buffer_requirements wanted = {.struct_size = sizeof wanted};
  if ((status = tflaccel_model_load_file(model_path, &model)) != NULL) return fail("model", status);
  if ((status = tflaccel_compiled_model_create(environment, model, NULL, &compiled)) != NULL)
    return fail("compile", status);
  if ((status = tflaccel_compiled_model_input_buffer_requirements(compiled, 0, &wanted)) != NULL)
    return fail("requirements", status);
  if (wanted.type_count < 2 || wanted.types[1] != TFLACCEL_BUFFER_GL) {
    printf("gl_pipeline: gpu_gl does not read this model's input here (no GPU driver?): skipped\n");
    tflaccel_compiled_model_destroy(compiled);
    tflaccel_model_destroy(model);
    tflaccel_environment_destroy(environment);
    return 77;
  }
  tflaccel_native_device device = {.struct_size = sizeof device};
  if ((status = tflaccel_compiled_model_native_device(compiled, 0, 0, &device)) != NULL)
    return fail("native device", status);
  EGLContext context = make_context(device.egl_display, device.egl_context);
  if (context == EGL_NO_CONTEXT) return fail("an EGL context sharing with gpu_gl's", NULL);

  size_t input_bytes = (size_t)SIDE * SIDE * 3 * sizeof(float);
  tflaccel_buffer_requirements output_wanted = {.struct_size = sizeof output_wanted};
  if ((status = tflaccel_compiled_model_output_buffer_requirements(compiled, 0, &output_wanted)) != NULL)
    return fail("output requirements", status);
  size_t output_bytes = output_wanted.size;
  GLuint names[3];
  glGenBuffers(3, names);
  GLuint image = names[0], mask = names[1], sum = names[2];
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, image);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)input_bytes, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, mask);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(output_bytes + 15) / 16 * 16, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sum);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 16, NULL, GL_DYNAMIC_READ);

  /* 1. Draw the image on the GPU. */
  GLuint draw = compile_program(draw_source), reduce = compile_program(sum_source);
  if (draw == 0 || reduce == 0) return fail("compiling the shaders", NULL);
  glUseProgram(draw);
  glUniform1i(glGetUniformLocation(draw, "side"), SIDE);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, image);
  glDispatchCompute((SIDE * SIDE * 3 + 63) / 64, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glFinish(); /* the accelerator's context reads it next */

  /* 2. The model, on the application's buffers. */
  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = TFLACCEL_BUFFER_GL,
                                   .handle = image,
                                   .size = input_bytes};
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  if ((status = tflaccel_compiled_model_wrap_input_buffer(compiled, 0, &native, &input)) != NULL)
    return fail("wrapping the image", status);
  native.handle = mask;
  native.size = output_bytes;
  if ((status = tflaccel_compiled_model_wrap_output_buffer(compiled, 0, &native, &output)) != NULL)
    return fail("wrapping the mask", status);
  if ((status = tflaccel_compiled_model_run(compiled, &input, 1, &output, 1)) != NULL)
    return fail("run", status);
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  if ((status = tflaccel_compiled_model_last_run_stats(compiled, &stats)) != NULL)
    return fail("stats", status);
  uint32_t device_copies = stats.host_copies;

  /* 3. Sum the mask on the GPU; read back one float. */
  glUseProgram(reduce);
  glUniform1i(glGetUniformLocation(reduce, "count"), (GLint)(output_bytes / sizeof(float)));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, mask);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sum);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sum);
  const float *mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof(float), GL_MAP_READ_BIT);
  if (mapped == NULL) return fail("reading the sum", NULL);
  float gpu_sum = *mapped;
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);

  /* The check: the same image through host buffers, summed on the CPU. */
  tflaccel_tensor_buffer *host_input = NULL, *host_output = NULL;
  if ((status = tflaccel_compiled_model_create_input_buffer(compiled, 0, &host_input)) != NULL ||
      (status = tflaccel_compiled_model_create_output_buffer(compiled, 0, &host_output)) != NULL)
    return fail("host buffers", status);
  draw_on_cpu(tflaccel_tensor_buffer_data(host_input));
  if ((status = tflaccel_compiled_model_run(compiled, &host_input, 1, &host_output, 1)) != NULL)
    return fail("host run", status);
  if ((status = tflaccel_compiled_model_last_run_stats(compiled, &stats)) != NULL)
    return fail("stats", status);
  const float *values = tflaccel_tensor_buffer_data(host_output);
  double host_sum = 0.0;
  for (size_t i = 0; i < output_bytes / sizeof(float); ++i) host_sum += values[i];
  double difference = fabs(host_sum - gpu_sum);
  int ok = device_copies == 0 && difference <= 1e-3 * (fabs(host_sum) + 1.0);
  printf("gl_pipeline: mask sum %.4f on the GPU pipeline (%u host copies in the run), %.4f with host "
         "buffers (%u host copies): %s\n",
         gpu_sum, device_copies, host_sum, stats.host_copies, ok ? "agree" : "DIFFER");

  tflaccel_tensor_buffer_destroy(host_input);
  tflaccel_tensor_buffer_destroy(host_output);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  glDeleteProgram(draw);
  glDeleteProgram(reduce);
  glDeleteBuffers(3, names);
  eglMakeCurrent(device.egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(device.egl_display, context);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  return ok ? 0 : 1;
}
