/* Compute programs of the GLSL kernels for GLES: each kernel's source is
 * the GLES prelude, the storage define, work-group size and post-op list,
 * common.glsl and the kernel's file, compiled and linked by the driver on
 * first use (or loaded from the program cache), one program per
 * gl_program_key, kept for the device's life. Runs on the device's worker
 * thread. */
#ifndef TFLACCEL_GPU_GL_GL_PROGRAM_H
#define TFLACCEL_GPU_GL_GL_PROGRAM_H

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_gl/gl_api.h"
#include "plugins/gpu_gl/gl_program_cache.h"
#include "tflaccel/accelerator.h"

typedef struct gl_program_entry {
  gl_program_key key;
  GLuint program;
} gl_program_entry;

/* The compiled-model cache's entry of the partition being compiled
 * (gl_program_partition_begin .. _end). */
typedef struct gl_program_partition {
  int32_t active;
  int32_t complete; /* the entry was read and held every program asked for */
  gpu_disk_cache disk;
  gpu_disk_cache_key key;
  unsigned char *body; /* the verified entry's records, host->alloc'ed */
  uint32_t body_size;
  /* Its programs the set does not hold yet, all loaded at _begin (link
   * status not asked) so that the driver can load them side by side;
   * program 0 once taken (or refused). host->alloc'ed. */
  gl_program_entry *loading;
  uint32_t loading_count;
  uint32_t *used; /* the programs (indices of entries) its dispatches use */
  uint32_t used_count, used_capacity;
} gl_program_partition;

/* A program being built from source (gl_program_prepare): compiled and
 * linked, its status not asked yet. */
typedef struct gl_program_build {
  gl_program_key key;
  GLuint shader, program;
} gl_program_build;

typedef struct gl_program_set {
  const tflaccel_host_services *host;
  gl_program_entry *entries; /* host->alloc'ed */
  uint32_t count, capacity;
  gl_program_build *building; /* host->alloc'ed */
  uint32_t building_count, building_capacity;
  gl_program_cache cache; /* linked programs on disk, when the host allows */
  gl_program_partition partition;
  gpu_fault *fault;       /* the device's fault hook (gpu_fault.h); NULL: none */
} gl_program_set;

/* Checks that the embedded sources are the catalogue's; with the context
 * current (the cache asks the driver what it is). */
tflaccel_status gl_program_set_init(const tflaccel_host_services *host, gl_program_set *set);
void gl_program_set_release(gl_program_set *set);

/* A partition's entry: builder gets the driver's part of the key, and
 * the programs asked for until _end come from the entry when it has them. */
void gl_program_partition_begin(gl_program_set *set, gpu_disk_cache_key_builder *builder,
                                const tflaccel_compile_options *options);
/* Writes the entry (every program the partition used) when it was missing,
 * unusable or lacked one, and compiled is 1; then forgets it. */
void gl_program_partition_end(gl_program_set *set, int32_t compiled);

/* Starts building the program gl_program_get will be asked for, unless
 * the set has it or the partition's entry is loading it: called for every
 * program a sequence needs before the first gl_program_get, it lets a
 * driver with threads of its own (GL_KHR_parallel_shader_compile) build
 * them side by side. Any failure shows when the program is asked for. */
void gl_program_prepare(gl_program_set *set, const gl_program_key *key);

/* The program of key: its kernel for its storage (float32 or half
 * storage), work group and post-op list. */
tflaccel_status gl_program_get(gl_program_set *set, const gl_program_key *key, GLuint *program);

#endif
