/* gpu_cl's buffers handed to the application: a buffer's cl_mem, the
 * device's OpenCL objects, and wrapping the application's cl_mem (retained
 * for the wrapper's life). External memory fds: cl_external_memory.h. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_native.h"

tflaccel_status cl_native_buffer(tflaccel_buffer *buffer, tflaccel_native_buffer *native) {
  native->type = TFLACCEL_BUFFER_OPENCL;
  native->handle = (uint64_t)(uintptr_t)cl_buffer_memory(buffer);
  native->memory = 0;
  native->offset = 0;
  native->size = cl_buffer_size(buffer);
  return NULL;
}

void cl_native_device(const cl_device_context *context, cl_platform_id platform,
                      tflaccel_native_device *native) {
  native->type = TFLACCEL_BUFFER_OPENCL;
  native->cl_platform = platform;
  native->cl_device = context->device;
  native->cl_context = context->context;
  native->cl_queue = context->queue;
}

tflaccel_status cl_native_wrap(const tflaccel_host_services *host, const cl_device_context *context,
                               const tflaccel_native_buffer *native, tflaccel_buffer **buffer) {
  *buffer = NULL;
  uint64_t end = native->offset + native->size;
  if (native->type != TFLACCEL_BUFFER_OPENCL)
    return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_cl: takes OpenCL buffers, not type %d",
                             (int)native->type);
  cl_mem memory = (cl_mem)(uintptr_t)native->handle;
  if (memory == NULL) return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: NULL cl_mem");
  cl_mem_object_type type = 0;
  cl_int error = clGetMemObjectInfo(memory, CL_MEM_TYPE, sizeof type, &type, NULL);
  if (error != CL_SUCCESS)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: the handle is not a valid cl_mem (%s)",
                             cl_error_name(error));
  if (type != CL_MEM_OBJECT_BUFFER)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: the cl_mem is an image, not a buffer");
  cl_context owner = NULL;
  size_t size = 0;
  error = clGetMemObjectInfo(memory, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
  if (error == CL_SUCCESS) error = clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (error != CL_SUCCESS) return cl_call_failed(host, "clGetMemObjectInfo", error);
  if (owner != context->context)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_cl: the cl_mem belongs to another cl_context than the "
                             "accelerator's (tflaccel_compiled_model_native_device gives it)");
  if (end < native->offset || (uint64_t)size < end)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_cl: the cl_mem holds %zu bytes, offset %llu + size %llu needs %llu",
                             size, (unsigned long long)native->offset,
                             (unsigned long long)native->size, (unsigned long long)end);
  return cl_buffer_wrap(host, memory, end, buffer);
}
