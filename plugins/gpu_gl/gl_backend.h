/* gpu_gl's implementation of the GPU layer's backend (gpu_backend.h): GL
 * buffer objects, one compute program per kernel and work-group size
 * (gl_program.h), kernel objects that remember their storage buffers and
 * parameter offset, a compiled partition's sequence with its programs and
 * work-group counts found once, issued in order with
 * glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) where the GPU layer's
 * barrier plan asks, and a fence waited on at the end. With profiling
 * (plugin option profile = 1), timer queries around the dispatches
 * (gl_timer.h), read after the fence. Every function runs on the device's
 * worker thread (gl_worker.h). */
#ifndef TFLACCEL_GPU_GL_GL_BACKEND_H
#define TFLACCEL_GPU_GL_GL_BACKEND_H

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_gl/gl_program.h"
#include "plugins/gpu_gl/gl_timer.h"
#include "tflaccel/accelerator.h"

#define GL_BACKEND_BINDINGS 8 /* parameters + GPU_MAX_ARGS tensors */

typedef struct gl_backend_device {
  const tflaccel_host_services *host;
  gl_program_set programs;
  GLint max_invocations, max_group_size[3], max_group_count[3];
  GLint64 max_block_size; /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
  /* What this run's dispatches left bound: a dispatch sets only what
   * differs (NVIDIA's driver does work for every binding call, redundant or
   * not). Forgotten between runs, when buffers and programs may go. */
  GLuint bound_program, bound_buffers[GL_BACKEND_BINDINGS];
  /* The core's buffers that this run's dispatches write (gl_buffer.h), to
   * stage for reading at its end; run_serial numbers the runs (never 0). */
  tflaccel_buffer *staged;
  uint64_t run_serial;
  int32_t profiling;      /* times every dispatch with timer */
  gl_dispatch_timer timer;
  gpu_fault *fault; /* the device's fault hook (gpu_fault.h); NULL: none */
  EGLDisplay display; /* the context's, for EGL exports of events (gl_event.h) */
} gl_backend_device;

/* Queries the context's limits and fills backend (which points at device).
 * profiling: time every dispatch (the plugin option profile = 1); fails
 * with TFLACCEL_UNSUPPORTED when the context has no timer queries. */
tflaccel_status gl_backend_init(const tflaccel_host_services *host, int32_t profiling,
                                gl_backend_device *device, gpu_backend *backend);
void gl_backend_release(gl_backend_device *device);

#endif
