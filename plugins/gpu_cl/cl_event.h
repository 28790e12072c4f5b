/* gpu_cl's events (gpu_backend.h's asynchronous calls): a tflaccel_event
 * is a cl_event the backend holds a reference to. A run's is the event of
 * its last dispatch; an application's is retained after checking its
 * context; an application's semaphore's is the event of its queued wait. OpenCL's calls on events are thread-safe, so these need no
 * lock. */
#ifndef TFLACCEL_GPU_CL_CL_EVENT_H
#define TFLACCEL_GPU_CL_CL_EVENT_H

#include "plugins/gpu_cl/cl_context.h"
#include "tflaccel/accelerator.h"

static inline cl_event cl_event_of(tflaccel_event *event) { return (cl_event)(void *)event; }
static inline tflaccel_event *cl_event_wrap_handle(cl_event event) {
  return (tflaccel_event *)(void *)event;
}

tflaccel_status cl_event_wait(const tflaccel_host_services *host, tflaccel_event *event);
tflaccel_status cl_event_query(const tflaccel_host_services *host, tflaccel_event *event,
                               int32_t *signalled);
void cl_event_release(const tflaccel_host_services *host, tflaccel_event *event);
/* cl_event only (type NONE or OPENCL); the handle stays the event's. */
tflaccel_status cl_event_native(const tflaccel_host_services *host, tflaccel_event *event,
                                int32_t type, tflaccel_native_event *native);
/* A cl_event of context, retained; or an opaque semaphore fd, whose wait
 * is queued on context's queue (cl_semaphore.h). */
tflaccel_status cl_event_import(const tflaccel_host_services *host, cl_device_context *context,
                                const tflaccel_native_event *native, tflaccel_event **event);

#endif
