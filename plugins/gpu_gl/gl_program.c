/* GLES compute programs of the GLSL kernels (gl_program.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_program.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_kernel_sources.h"
#include "plugins/gpu_gl/gl_program.h"

/* How much of a compile or link log a status message carries. */
#define LOG_EXCERPT 1500

tflaccel_status gl_program_set_init(const tflaccel_host_services *host, gl_program_set *set) {
  memset(set, 0, sizeof *set);
  set->host = host;
  if (gpu_gl_kernel_sources_count != GL_KERNEL_SOURCE_FIRST_KERNEL + GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL,
                             "gpu_gl has %u embedded GLSL files, expected %d (prelude, common "
                             "and the catalogue's %d kernels)",
                             gpu_gl_kernel_sources_count,
                             GL_KERNEL_SOURCE_FIRST_KERNEL + GPU_KERNEL_EXTENDED_COUNT,
                             (int)GPU_KERNEL_EXTENDED_COUNT);
  gl_program_cache_init(host, &set->cache);
  return NULL;
}

void gl_program_set_release(gl_program_set *set) {
  if (set->host == NULL) return;
  for (uint32_t i = 0; i < set->count; ++i) glDeleteProgram(set->entries[i].program);
  if (set->entries != NULL) set->host->free(set->host->context, set->entries);
  memset(set, 0, sizeof *set);
}

/* "<what> of <kernel> failed: <log excerpt>", the log on one line. */
static tflaccel_status build_failure(const tflaccel_host_services *host, const char *what,
                                     int32_t kernel, const char *log) {
  char excerpt[LOG_EXCERPT + 1];
  size_t at = 0;
  for (size_t i = 0; log[i] != '\0' && at < LOG_EXCERPT; ++i)
    excerpt[at++] = log[i] == '\n' || log[i] == '\r' ? ' ' : log[i];
  excerpt[at] = '\0';
  return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_gl: %s of %s failed: %s", what,
                           gpu_kernel_name(kernel), at > 0 ? excerpt : "no log");
}

static tflaccel_status build(const gl_program_set *set, int32_t kernel, int32_t storage,
                             const uint32_t local[3], GLuint *built) {
  const tflaccel_host_services *host = set->host;
  char header[256];
  snprintf(header, sizeof header,
           "%slayout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n",
           storage == GPU_STORAGE_HALF ? "#define GPU_HALF_STORAGE 1\n" : "", local[0], local[1],
           local[2]);
  const GLchar *sources[4] = {
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_PRELUDE],
      header,
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_COMMON],
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_FIRST_KERNEL + kernel],
  };
  uint64_t key = gl_program_cache_key(&set->cache, sources, 4);
  *built = gl_program_cache_load(&set->cache, key);
  if (*built != 0) return NULL;
  char log[LOG_EXCERPT + 1] = "";
  gl_clear_errors();
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  if (shader == 0) {
    tflaccel_status status = gl_check_error(host, "glCreateShader(GL_COMPUTE_SHADER)");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glCreateShader gave 0");
  }
  glShaderSource(shader, 4, sources, NULL);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (!compiled) {
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    glDeleteShader(shader);
    return build_failure(host, "compiling", kernel, log);
  }
  GLuint program = glCreateProgram();
  if (program == 0) {
    glDeleteShader(shader);
    tflaccel_status status = gl_check_error(host, "glCreateProgram");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glCreateProgram gave 0");
  }
  glAttachShader(program, shader);
  gl_program_cache_before_link(&set->cache, program);
  glLinkProgram(program);
  /* The program keeps what it needs: the shader can go at once. */
  glDetachShader(program, shader);
  glDeleteShader(shader);
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    glDeleteProgram(program);
    return build_failure(host, "linking", kernel, log);
  }
  tflaccel_status status =
      gl_check_call(host, set->fault, "glLinkProgram (building a kernel)", GPU_FAULT_ERROR);
  if (status != NULL) {
    glDeleteProgram(program);
    return status;
  }
  gl_program_cache_store(&set->cache, key, program);
  *built = program;
  return NULL;
}

tflaccel_status gl_program_get(gl_program_set *set, int32_t kernel, int32_t storage,
                               const uint32_t local[3], GLuint *program) {
  const tflaccel_host_services *host = set->host;
  *program = 0;
  if (kernel < 0 || kernel >= GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl: kernel %d", (int)kernel);
  if (storage != GPU_STORAGE_FLOAT32 && storage != GPU_STORAGE_HALF)
    return host->status_make(TFLACCEL_INTERNAL,
                             "gpu_gl: storage mode %d (GLES has no half arithmetic switch)",
                             (int)storage);
  for (uint32_t i = 0; i < set->count; ++i) {
    const gl_program_entry *entry = &set->entries[i];
    if (entry->kernel == kernel && entry->storage == storage && entry->local[0] == local[0] &&
        entry->local[1] == local[1] && entry->local[2] == local[2]) {
      *program = entry->program;
      return NULL;
    }
  }
  if (!gpu_array_reserve(host, (void **)&set->entries, &set->capacity, set->count + 1,
                         sizeof *set->entries, _Alignof(gl_program_entry)))
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (programs)");
  GLuint built = 0;
  tflaccel_status status = build(set, kernel, storage, local, &built);
  if (status != NULL) return status;
  gl_program_entry *entry = &set->entries[set->count++];
  entry->kernel = kernel;
  entry->storage = storage;
  memcpy(entry->local, local, sizeof entry->local);
  entry->program = built;
  *program = built;
  return NULL;
}
