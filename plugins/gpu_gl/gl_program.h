/* Compute programs of the GLSL kernels for GLES: each kernel's source is
 * the GLES prelude, the storage define and work-group size, common.glsl
 * and the kernel's file, compiled and linked by the driver on first use
 * (or loaded from the program cache), one program per kernel, storage mode
 * and work-group size, kept for the device's life. Runs on the device's
 * worker thread. */
#ifndef TFLACCEL_GPU_GL_GL_PROGRAM_H
#define TFLACCEL_GPU_GL_GL_PROGRAM_H

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_gl/gl_api.h"
#include "plugins/gpu_gl/gl_program_cache.h"
#include "tflaccel/accelerator.h"

typedef struct gl_program_entry {
  int32_t kernel, storage;
  uint32_t local[3];
  GLuint program;
} gl_program_entry;

typedef struct gl_program_set {
  const tflaccel_host_services *host;
  gl_program_entry *entries; /* host->alloc'ed */
  uint32_t count, capacity;
  gl_program_cache cache; /* linked programs on disk, when the host allows */
  gpu_fault *fault;       /* the device's fault hook (gpu_fault.h); NULL: none */
} gl_program_set;

/* Checks that the embedded sources are the catalogue's; with the context
 * current (the cache asks the driver what it is). */
tflaccel_status gl_program_set_init(const tflaccel_host_services *host, gl_program_set *set);
void gl_program_set_release(gl_program_set *set);

/* The program of kernel for storage (gpu_storage_mode: float32 or half
 * storage) and a work group of local[3] items. */
tflaccel_status gl_program_get(gl_program_set *set, int32_t kernel, int32_t storage,
                               const uint32_t local[3], GLuint *program);

#endif
