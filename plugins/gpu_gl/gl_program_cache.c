/* gpu_gl's program binary cache (gl_program_cache.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_program_cache.h"

void gl_program_cache_init(const tflaccel_host_services *host, gl_program_cache *cache) {
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
  gpu_disk_cache_key_begin(&cache->driver, "gpu_gl program binary");
  const GLenum names[] = {GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    gpu_disk_cache_key_add_string(&cache->driver, (const char *)glGetString(names[i]));
  gl_clear_errors();
  cache->enabled = 1;
}

void gl_program_cache_key(const gl_program_cache *cache, const GLchar *const *sources,
                          uint32_t count, gpu_disk_cache_key *key) {
  gpu_disk_cache_key_builder builder = cache->driver;
  for (uint32_t i = 0; i < count; ++i) gpu_disk_cache_key_add_string(&builder, sources[i]);
  gpu_disk_cache_key_end(&builder, key);
}

GLuint gl_program_cache_load(const gl_program_cache *cache, const gpu_disk_cache_key *key) {
  if (!cache->enabled) return 0;
  void *binary = NULL;
  uint32_t size = 0, format = 0;
  if (!gpu_disk_cache_read(&cache->disk, key, &binary, &size, &format)) return 0;
  const tflaccel_host_services *host = cache->disk.host;
  gl_clear_errors();
  GLuint program = glCreateProgram();
  if (program != 0) {
    glProgramBinary(program, (GLenum)format, binary, (GLsizei)size);
    GLint linked = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    /* The driver refuses binaries of another version or build. */
    if (glGetError() != GL_NO_ERROR || !linked) {
      glDeleteProgram(program);
      program = 0;
    }
  }
  gl_clear_errors();
  host->free(host->context, binary);
  host->log(host->context, program != 0 ? TFLACCEL_LOG_DEBUG : TFLACCEL_LOG_INFO,
            "program cache: the verified binary was %s",
            program != 0 ? "loaded" : "refused by the driver; compiling from source");
  return program;
}

void gl_program_cache_before_link(const gl_program_cache *cache, GLuint program) {
  if (cache->enabled) glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
}

void gl_program_cache_store(const gl_program_cache *cache, const gpu_disk_cache_key *key,
                            GLuint program) {
  if (!cache->enabled) return;
  const tflaccel_host_services *host = cache->disk.host;
  gl_clear_errors();
  GLint length = 0;
  glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  if (glGetError() != GL_NO_ERROR || length <= 0 || (uint32_t)length > GPU_DISK_CACHE_MAX_BYTES)
    return;
  void *binary = host->alloc(host->context, (size_t)length, 16);
  if (binary == NULL) return;
  GLsizei written = 0;
  GLenum format = 0;
  glGetProgramBinary(program, length, &written, &format, binary);
  if (glGetError() == GL_NO_ERROR && written > 0)
    gpu_disk_cache_write(&cache->disk, key, "GLES program binary (one kernel)", binary,
                         (uint32_t)written, (uint32_t)format);
  gl_clear_errors();
  host->free(host->context, binary);
}
