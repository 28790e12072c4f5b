/* An application's external semaphore imported into gpu_gl's context
 * (GL_EXT_semaphore_fd): what a TFLACCEL_NATIVE_EVENT_OPAQUE_FD event
 * wraps. A binary semaphore (value 0), or a timeline one waited at a value
 * (GL_NV_timeline_semaphore). Every call runs on the device's GL thread. */
#ifndef TFLACCEL_GPU_GL_GL_SEMAPHORE_H
#define TFLACCEL_GPU_GL_GL_SEMAPHORE_H

#include <stdint.h>

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

typedef struct gl_semaphore {
  GLuint name; /* 0: none */
  uint64_t value; /* the timeline value waited for; 0 binary */
  PFNGLWAITSEMAPHOREEXTPROC wait;
  PFNGLDELETESEMAPHORESEXTPROC destroy;
  PFNGLSEMAPHOREPARAMETERUI64VEXTPROC set_value;
} gl_semaphore;

/* Imports a dup() of native's fd (GL owns the copy; the application keeps
 * its own). TFLACCEL_UNSUPPORTED naming the missing extension where the
 * context lacks GL_EXT_semaphore_fd (or GL_NV_timeline_semaphore for a
 * value > 0). */
tflaccel_status gl_semaphore_import(const tflaccel_host_services *host,
                                    const tflaccel_native_event *native, gl_semaphore *semaphore);
/* Queues the wait (glWaitSemaphoreEXT) before the context's later
 * commands. A binary semaphore's wait consumes its signal: call it once. */
tflaccel_status gl_semaphore_wait(const tflaccel_host_services *host,
                                  const gl_semaphore *semaphore);
void gl_semaphore_release(gl_semaphore *semaphore);

#endif
