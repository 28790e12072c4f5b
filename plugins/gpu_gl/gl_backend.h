/* gpu_gl's implementation of the GPU layer's backend (gpu_backend.h): GL
 * buffer objects, one compute program per kernel and work-group size
 * (gl_program.h), kernel objects that remember their storage buffers and
 * parameter offset, dispatches issued in order with
 * glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) between them, and a fence
 * waited on at the end. Every function runs on the device's worker thread
 * (gl_worker.h). */
#ifndef TFLACCEL_GPU_GL_GL_BACKEND_H
#define TFLACCEL_GPU_GL_GL_BACKEND_H

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_gl/gl_program.h"
#include "tflaccel/accelerator.h"

#define GL_BACKEND_BINDINGS 8 /* parameters + GPU_MAX_ARGS tensors */

typedef struct gl_backend_device {
  const tflaccel_host_services *host;
  gl_program_set programs;
  GLint max_invocations, max_group_size[3], max_group_count[3];
  GLint64 max_block_size; /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
  int dispatched;         /* a dispatch since the last barrier */
} gl_backend_device;

/* Queries the context's limits and fills backend (which points at device). */
tflaccel_status gl_backend_init(const tflaccel_host_services *host, gl_backend_device *device,
                                gpu_backend *backend);
void gl_backend_release(gl_backend_device *device);

#endif
