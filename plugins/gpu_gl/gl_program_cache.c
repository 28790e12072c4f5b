/* gpu_gl's program binaries (gl_program_cache.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_program_cache.h"

void gl_program_cache_init(const tflaccel_host_services *host, gl_program_cache *cache,
                           const char *const *sources, uint32_t count) {
  memset(cache, 0, sizeof *cache);
  cache->disk.host = host;
  cache->disk.prefix = "gpu_gl";
  if (!gpu_disk_cache_enabled(&cache->disk)) return;
  gl_clear_errors();
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  if (glGetError() != GL_NO_ERROR || formats <= 0) {
    host->log(host->context, TFLACCEL_LOG_DEBUG,
              "program cache off: the driver offers no program binary format");
    return;
  }
  gpu_disk_cache_key_builder driver;
  gpu_disk_cache_key_begin(&driver, "gpu_gl program binaries");
  const GLenum names[] = {GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    gpu_disk_cache_key_add_string(&driver, (const char *)glGetString(names[i]));
  for (uint32_t i = 0; i < count; ++i) gpu_disk_cache_key_add_string(&driver, sources[i]);
  gpu_disk_cache_key_end(&driver, &cache->driver);
  gl_clear_errors();
  cache->enabled = 1;
}

static void log_refused(const gl_program_cache *cache) {
  cache->disk.host->log(cache->disk.host->context, TFLACCEL_LOG_INFO,
                        "program cache: the driver refused a verified binary; compiling it");
}

GLuint gl_program_cache_load(const gl_program_cache *cache, uint32_t format, const void *binary,
                             uint32_t size) {
  if (!cache->enabled) return 0;
  gl_clear_errors();
  GLuint program = glCreateProgram();
  if (program != 0) {
    glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    glProgramBinary(program, (GLenum)format, binary, (GLsizei)size);
    /* An unknown format is refused at once (GL_INVALID_ENUM). */
    if (glGetError() != GL_NO_ERROR) {
      glDeleteProgram(program);
      program = 0;
    }
  }
  gl_clear_errors();
  if (program == 0) log_refused(cache);
  return program;
}

int gl_program_cache_linked(const gl_program_cache *cache, GLuint program) {
  gl_clear_errors();
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  /* The driver refuses binaries of another version or build. */
  if (glGetError() != GL_NO_ERROR || !linked) {
    glDeleteProgram(program);
    gl_clear_errors();
    log_refused(cache);
    return 0;
  }
  return 1;
}

void gl_program_cache_before_link(const gl_program_cache *cache, GLuint program) {
  if (cache->enabled) glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
}

int gl_program_cache_binary(const gl_program_cache *cache, GLuint program, void **binary,
                            uint32_t *size, uint32_t *format) {
  *binary = NULL;
  *size = *format = 0;
  if (!cache->enabled) return 0;
  const tflaccel_host_services *host = cache->disk.host;
  gl_clear_errors();
  GLint length = 0;
  glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  if (glGetError() != GL_NO_ERROR || length <= 0 || (uint32_t)length > GPU_DISK_CACHE_MAX_BYTES)
    return 0;
  void *bytes = host->alloc(host->context, (size_t)length, 16);
  if (bytes == NULL) return 0;
  GLsizei written = 0;
  GLenum binary_format = 0;
  glGetProgramBinary(program, length, &written, &binary_format, bytes);
  if (glGetError() != GL_NO_ERROR || written <= 0) {
    gl_clear_errors();
    host->free(host->context, bytes);
    return 0;
  }
  *binary = bytes;
  *size = (uint32_t)written;
  *format = (uint32_t)binary_format;
  return 1;
}
