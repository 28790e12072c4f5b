/* gpu_gl's entries in the compiled-model cache (gpu_common/
 * gpu_partition_cache.h): a partition's entry holds the driver's binaries
 * (glGetProgramBinary) of every program its dispatches use, as records
 * (kernel, storage, work group, post-op list, binary format, bytes); its
 * key adds to the
 * partition's the driver's identity and the embedded GLSL. glProgramBinary
 * only ever sees a binary from an entry the cache verified for exactly
 * that key. Building a model's programs takes the NVIDIA driver up to a
 * few tenths of a second each; loading them back, milliseconds. A missing,
 * stale or refused binary only means compiling as usual (and writing the
 * entry again). Off when the host gives no cache_dir or the driver offers
 * no binary format. Runs on the device's worker thread. */
#ifndef TFLACCEL_GPU_GL_GL_PROGRAM_CACHE_H
#define TFLACCEL_GPU_GL_GL_PROGRAM_CACHE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

/* What a program is built for: a kernel of the catalogue, a storage mode
 * (gpu_storage_mode), a work group of local[3] items and the dispatch's
 * post-op list (gpu_post_list; 0: none known, read from the parameters). */
typedef struct gl_program_key {
  int32_t kernel, storage;
  uint32_t local[3];
  uint32_t post_list;
} gl_program_key;

static inline int gl_program_key_equal(const gl_program_key *a, const gl_program_key *b) {
  return a->kernel == b->kernel && a->storage == b->storage && a->local[0] == b->local[0] &&
         a->local[1] == b->local[1] && a->local[2] == b->local[2] && a->post_list == b->post_list;
}

/* One program of an entry. */
typedef struct gl_program_record {
  gl_program_key key;
  uint32_t format; /* the driver's binary format */
  uint32_t size;   /* bytes after the record, then padding to 4 */
} gl_program_record;

typedef struct gl_program_cache {
  gpu_disk_cache disk;
  int enabled;
  /* SHA-256 of GL_VENDOR, GL_RENDERER, GL_VERSION, the GLSL version and
   * every embedded GLSL file: the driver's part of every key. */
  gpu_disk_cache_key driver;
} gl_program_cache;

/* With the context current; sources: every embedded GLSL file. */
void gl_program_cache_init(const tflaccel_host_services *host, gl_program_cache *cache,
                           const char *const *sources, uint32_t count);

/* A program being loaded from a binary (glProgramBinary issued, its link
 * status not asked, so that a driver loading on threads of its own
 * overlaps a partition's binaries), or 0 when the driver refused it at
 * once. gl_program_cache_linked says whether it worked. */
GLuint gl_program_cache_load(const gl_program_cache *cache, uint32_t format, const void *binary,
                             uint32_t size);

/* Whether program (from gl_program_cache_load) linked; when not, it is
 * deleted and 0 returned (logged at INFO: compiled again). Waits for the
 * driver when it still loads it. */
int gl_program_cache_linked(const gl_program_cache *cache, GLuint program);

/* Before linking a program the cache may store: asks the driver to keep
 * its binary retrievable. */
void gl_program_cache_before_link(const gl_program_cache *cache, GLuint program);

/* A linked program's binary (host->alloc'ed; the caller frees it), or 0. */
int gl_program_cache_binary(const gl_program_cache *cache, GLuint program, void **binary,
                            uint32_t *size, uint32_t *format);

#endif
