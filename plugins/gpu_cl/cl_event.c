/* gpu_cl's events (cl_event.h). */
#include "config.h"

#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_event.h"
#include "plugins/gpu_cl/cl_semaphore.h"
#include "plugins/gpu_common/gpu_native_event.h"

/* No fault hook here: its counter belongs to the device's serialized
 * calls, and this one comes from any thread. */
tflaccel_status cl_event_wait(const tflaccel_host_services *host, tflaccel_event *event) {
  cl_event native = cl_event_of(event);
  cl_int error = clWaitForEvents(1, &native);
  if (error == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
    /* The command failed: its execution status holds why. */
    cl_int execution = 0;
    if (clGetEventInfo(native, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution,
                       NULL) == CL_SUCCESS &&
        execution < 0)
      error = execution;
  }
  return error == CL_SUCCESS ? NULL : cl_call_failed(host, "clWaitForEvents", error);
}

tflaccel_status cl_event_query(const tflaccel_host_services *host, tflaccel_event *event,
                               int32_t *signalled) {
  cl_int execution = 0;
  cl_int error = clGetEventInfo(cl_event_of(event), CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof execution, &execution, NULL);
  if (error == CL_SUCCESS && execution < 0) error = execution;
  if (error != CL_SUCCESS) {
    *signalled = 0;
    return cl_call_failed(host, "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", error);
  }
  *signalled = execution == CL_COMPLETE;
  return NULL;
}

void cl_event_release(const tflaccel_host_services *host, tflaccel_event *event) {
  cl_int error = clReleaseEvent(cl_event_of(event));
  if (error != CL_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING, "clReleaseEvent failed: %s (%d)",
              cl_error_name(error), (int)error);
}

tflaccel_status cl_event_native(const tflaccel_host_services *host, tflaccel_event *event,
                                int32_t type, tflaccel_native_event *native) {
  if (type != TFLACCEL_NATIVE_EVENT_NONE && type != TFLACCEL_NATIVE_EVENT_OPENCL)
    return gpu_native_event_unsupported(
        host, "gpu_cl", type,
        type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD
            ? "needs cl_khr_external_semaphore_sync_fd, which gpu_cl does not use"
            : "OpenCL events export as cl_event only");
  native->struct_size = sizeof *native;
  native->type = TFLACCEL_NATIVE_EVENT_OPENCL;
  native->handle = (uint64_t)(uintptr_t)cl_event_of(event);
  native->value = 0;
  return NULL;
}

tflaccel_status cl_event_import(const tflaccel_host_services *host, cl_device_context *context,
                                const tflaccel_native_event *native, tflaccel_event **event) {
  *event = NULL;
  tflaccel_status status = gpu_native_event_check(host, "gpu_cl", native);
  if (status != NULL) return status;
  if (native->type == TFLACCEL_NATIVE_EVENT_OPAQUE_FD)
    return cl_semaphore_wrap(host, context, native, event);
  if (native->type != TFLACCEL_NATIVE_EVENT_OPENCL)
    return gpu_native_event_unsupported(
        host, "gpu_cl", native->type,
        native->type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD
            ? "needs cl_khr_external_semaphore_sync_fd, which gpu_cl does not use"
            : "gpu_cl waits on cl_event objects and opaque semaphore fds only");
  cl_event wrapped = (cl_event)(uintptr_t)native->handle;
  cl_context owner = NULL;
  cl_int error = clGetEventInfo(wrapped, CL_EVENT_CONTEXT, sizeof owner, &owner, NULL);
  if (error != CL_SUCCESS) {
    tflaccel_status failed = cl_call_failed(host, "clGetEventInfo(CL_EVENT_CONTEXT)", error);
    tflaccel_status invalid =
        host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: event_wrap: not a cl_event (%s)",
                          host->status_message(failed));
    host->status_free(failed);
    return invalid;
  }
  if (owner != context->context)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_cl: event_wrap: the cl_event belongs to another cl_context");
  error = clRetainEvent(wrapped);
  if (error != CL_SUCCESS) return cl_call_failed(host, "clRetainEvent", error);
  *event = cl_event_wrap_handle(wrapped);
  return NULL;
}
