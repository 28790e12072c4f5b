/* An application's external semaphore as a gpu_cl event
 * (TFLACCEL_NATIVE_EVENT_OPAQUE_FD, cl_khr_external_semaphore_opaque_fd
 * with cl_khr_semaphore): the fd is imported as a binary semaphore of the
 * device and its wait queued on the device's in-order queue at once; the
 * event is that wait's cl_event, so the device's later work (the run that
 * waits on the event among it) starts after the semaphore is signalled,
 * and waiting, polling and chaining work as for any cl_event. The
 * application submits the semaphore's signal before wrapping it: a binary
 * semaphore's wait must come after its signal, as in Vulkan. */
#ifndef TFLACCEL_GPU_CL_CL_SEMAPHORE_H
#define TFLACCEL_GPU_CL_CL_SEMAPHORE_H

#include "plugins/gpu_cl/cl_context.h"
#include "tflaccel/accelerator.h"

/* OpenCL takes a dup() of native's fd; the application keeps its own. A
 * timeline value (> 0): TFLACCEL_UNSUPPORTED (cl_khr_semaphore has binary
 * semaphores only); a driver without the extensions: TFLACCEL_UNSUPPORTED
 * naming the missing one. */
tflaccel_status cl_semaphore_wrap(const tflaccel_host_services *host,
                                  const cl_device_context *context,
                                  const tflaccel_native_event *native, tflaccel_event **event);

#endif
