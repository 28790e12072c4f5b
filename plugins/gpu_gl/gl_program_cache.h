/* gpu_gl's linked programs kept on disk (gpu_common/gpu_disk_cache): the
 * driver's program binary (glGetProgramBinary), keyed by a SHA-256 of the
 * driver's identity and the program's whole source; glProgramBinary only
 * ever sees a binary the cache verified for exactly that key. Building a model's
 * programs takes the NVIDIA driver up to a few tenths of a second each;
 * loading them back, milliseconds. A missing, stale or refused binary only
 * means compiling as usual (and writing it again). Off when the host gives
 * no cache_dir or the driver offers no binary format. Runs on the device's
 * worker thread. */
#ifndef TFLACCEL_GPU_GL_GL_PROGRAM_CACHE_H
#define TFLACCEL_GPU_GL_GL_PROGRAM_CACHE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

typedef struct gl_program_cache {
  gpu_disk_cache disk;
  int enabled;
  gpu_disk_cache_key_builder driver; /* GL_VENDOR, GL_RENDERER, GL_VERSION, the GLSL version */
} gl_program_cache;

/* With the context current. */
void gl_program_cache_init(const tflaccel_host_services *host, gl_program_cache *cache);

/* The key of a program made of these source strings. */
void gl_program_cache_key(const gl_program_cache *cache, const GLchar *const *sources,
                          uint32_t count, gpu_disk_cache_key *key);

/* The cached program for key, linked and ready, or 0. */
GLuint gl_program_cache_load(const gl_program_cache *cache, const gpu_disk_cache_key *key);

/* Before linking a program the cache may store: asks the driver to keep
 * its binary retrievable. */
void gl_program_cache_before_link(const gl_program_cache *cache, GLuint program);

/* Stores a linked program's binary under key. */
void gl_program_cache_store(const gl_program_cache *cache, const gpu_disk_cache_key *key,
                            GLuint program);

#endif
