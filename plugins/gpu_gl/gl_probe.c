/* GLES context probe: version, a compute dispatch, device info. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_probe.h"

/* GL_NVX_gpu_memory_info: dedicated video memory in KiB. */
#define GPU_GL_DEDICATED_VIDMEM_NVX 0x9047

/* Adds one to each value: proves that a compute shader builds, that storage
 * buffers bind and that a dispatch writes them. */
static const char probe_shader_source[] =
    "#version 310 es\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer Values { uint values[]; };\n"
    "void main() { values[gl_GlobalInvocationID.x] += 1u; }\n";

#define PROBE_VALUE 41u

static void copy_field(char field[TFLACCEL_DEVICE_STRING_SIZE], const char *text) {
  size_t length = strnlen(text, TFLACCEL_DEVICE_STRING_SIZE - 1);
  memcpy(field, text, length);
  field[length] = '\0';
}

static tflaccel_status compile_probe(const tflaccel_host_services *host, GLuint shader,
                                     GLuint program) {
  const GLchar *source = probe_shader_source;
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  char log[512] = "";
  if (!compiled) {
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    return host->status_make(TFLACCEL_BACKEND_ERROR, "compute shader does not compile: %s", log);
  }
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    return host->status_make(TFLACCEL_BACKEND_ERROR, "compute program does not link: %s", log);
  }
  return gl_check_error(host, "building the probe compute shader");
}

static tflaccel_status dispatch_probe(const tflaccel_host_services *host, GLuint program,
                                      GLuint buffer) {
  const GLuint initial = PROBE_VALUE;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof initial, &initial, GL_DYNAMIC_COPY);
  glUseProgram(program);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  tflaccel_status status = gl_check_error(host, "glDispatchCompute");
  if (status != NULL) return status;
  const GLuint *result =
      glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof *result, GL_MAP_READ_BIT);
  if (result == NULL) {
    status = gl_check_error(host, "glMapBufferRange");
    return status != NULL
               ? status
               : host->status_make(TFLACCEL_BACKEND_ERROR, "glMapBufferRange returned NULL");
  }
  GLuint value = *result;
  if (!glUnmapBuffer(GL_SHADER_STORAGE_BUFFER))
    return host->status_make(TFLACCEL_BACKEND_ERROR, "glUnmapBuffer lost the probe's result");
  if (value != PROBE_VALUE + 1)
    return host->status_make(TFLACCEL_BACKEND_ERROR,
                             "the probe compute shader wrote %u instead of %u", (unsigned)value,
                             (unsigned)(PROBE_VALUE + 1));
  return NULL;
}

static tflaccel_status run_compute_probe(const tflaccel_host_services *host) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  GLuint program = glCreateProgram();
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  tflaccel_status status = NULL;
  if (shader == 0 || program == 0 || buffer == 0) {
    status = gl_check_error(host, "creating the probe's shader, program and buffer");
    if (status == NULL)
      status = host->status_make(TFLACCEL_BACKEND_ERROR,
                                 "creating the probe's shader, program and buffer failed");
  }
  if (status == NULL) status = compile_probe(host, shader, program);
  if (status == NULL) status = dispatch_probe(host, program, buffer);
  glUseProgram(0);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (buffer != 0) glDeleteBuffers(1, &buffer);
  if (program != 0) glDeleteProgram(program);
  if (shader != 0) glDeleteShader(shader);
  if (status == NULL) status = gl_check_error(host, "releasing the probe's objects");
  return status;
}

int gl_has_extension(const char *name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const GLubyte *extension = glGetStringi(GL_EXTENSIONS, (GLuint)i);
    if (extension != NULL && strcmp((const char *)extension, name) == 0) return 1;
  }
  return 0;
}

/* GLES has no query for the kind of GPU: software renderers are known by
 * name, the rest by vendor (mobile and Intel GPUs share the host's memory). */
static int32_t device_type(const char *vendor, const char *renderer) {
  static const char *const software[] = {"llvmpipe", "softpipe", "SwiftShader",
                                         "Software Rasterizer"};
  for (size_t i = 0; i < sizeof software / sizeof software[0]; ++i)
    if (strstr(renderer, software[i]) != NULL) return TFLACCEL_DEVICE_VIRTUAL_GPU;
  static const char *const integrated[] = {"Intel",    "ARM",     "Qualcomm", "Imagination",
                                           "Broadcom", "Vivante", "Mali",     "Adreno"};
  for (size_t i = 0; i < sizeof integrated / sizeof integrated[0]; ++i)
    if (strstr(vendor, integrated[i]) != NULL || strstr(renderer, integrated[i]) != NULL)
      return TFLACCEL_DEVICE_INTEGRATED_GPU;
  if (strstr(vendor, "NVIDIA") != NULL)
    return strstr(renderer, "Tegra") != NULL || strstr(renderer, "Orin") != NULL
               ? TFLACCEL_DEVICE_INTEGRATED_GPU
               : TFLACCEL_DEVICE_DISCRETE_GPU;
  return TFLACCEL_DEVICE_OTHER;
}

tflaccel_status gl_probe_device(const tflaccel_host_services *host, EGLDisplay display,
                                tflaccel_device_info *info) {
  const char *version = (const char *)glGetString(GL_VERSION);
  const char *vendor = (const char *)glGetString(GL_VENDOR);
  const char *renderer = (const char *)glGetString(GL_RENDERER);
  if (version == NULL || vendor == NULL || renderer == NULL) {
    tflaccel_status status = gl_check_error(host, "glGetString");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glGetString returned NULL");
  }
  /* "OpenGL ES N.M <vendor-specific information>" */
  int major = 0, minor = 0, prefix = 0;
  if (sscanf(version, "OpenGL ES %d.%d%n", &major, &minor, &prefix) != 2)
    return host->status_make(TFLACCEL_UNAVAILABLE, "GL_VERSION \"%s\" is not OpenGL ES", version);
  if (major < 3 || (major == 3 && minor < 1))
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "%s (%s) offers %s; compute shaders need OpenGL ES 3.1", renderer,
                             vendor, version);
  tflaccel_status status = run_compute_probe(host);
  if (status != NULL) return status;

  memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  copy_field(info->name, renderer);
  copy_field(info->vendor, vendor);
  copy_field(info->api_version, version);
  const char *driver = version + prefix;
  while (*driver == ' ') ++driver;
  if (*driver == '\0') {
    /* No driver text in GL_VERSION: EGL's version string names the driver. */
    const char *egl_version = eglQueryString(display, EGL_VERSION);
    driver = egl_version != NULL ? egl_version : "unknown";
  }
  copy_field(info->driver_version, driver);
  info->type = device_type(vendor, renderer);
  /* packHalf2x16/unpackHalf2x16 are core GLSL ES 3.1: half storage always
   * works; half arithmetic has no portable switch in GLES, so never claimed. */
  info->caps = TFLACCEL_DEVICE_CAP_FP16_STORAGE;
  if (gl_has_extension("GL_NVX_gpu_memory_info")) {
    GLint kibibytes = 0;
    glGetIntegerv(GPU_GL_DEDICATED_VIDMEM_NVX, &kibibytes);
    if (kibibytes > 0) info->memory_bytes = (uint64_t)kibibytes * 1024u;
  }
  return gl_check_error(host, "querying the device");
}
