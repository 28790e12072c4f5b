/* gpu_cl buffers. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_common/gpu_buffer_range.h"
#include "plugins/gpu_cl/cl_error.h"

struct tflaccel_buffer {
  cl_mem memory;
  uint64_t size; /* as requested; the cl_mem holds at least one byte */
};

cl_mem cl_buffer_memory(const tflaccel_buffer *buffer) { return buffer->memory; }

uint64_t cl_buffer_size(const tflaccel_buffer *buffer) { return buffer->size; }

tflaccel_status cl_buffer_wrap(const tflaccel_host_services *host, cl_mem memory, uint64_t size,
                               tflaccel_buffer **buffer) {
  *buffer = NULL;
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl buffer: out of memory");
  cl_int error = clRetainMemObject(memory);
  if (error != CL_SUCCESS) {
    host->free(host->context, created);
    return cl_call_failed(host, "clRetainMemObject", error);
  }
  created->memory = memory;
  created->size = size;
  *buffer = created;
  return NULL;
}

tflaccel_status cl_buffer_create(const tflaccel_host_services *host,
                                 const cl_device_context *context, uint64_t size,
                                 tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (size > SIZE_MAX)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "gpu_cl buffer of %llu bytes exceeds the address space",
                             (unsigned long long)size);
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl buffer: out of memory");
  /* OpenCL refuses empty buffers; an empty tensor still gets a valid one. */
  size_t allocation = size == 0 ? 1 : (size_t)size;
  cl_int error = cl_fault(context->fault, "clCreateBuffer", GPU_FAULT_MEMORY);
  created->memory = error != CL_SUCCESS ? NULL
                                        : clCreateBuffer(context->context, CL_MEM_READ_WRITE,
                                                         allocation, NULL, &error);
  created->size = size;
  if (created->memory == NULL || error != CL_SUCCESS) {
    if (created->memory != NULL) clReleaseMemObject(created->memory);
    host->free(host->context, created);
    char call[64];
    snprintf(call, sizeof call, "clCreateBuffer(%zu bytes)", allocation);
    return cl_call_failed(host, call,
                          error != CL_SUCCESS ? error : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  }
  *buffer = created;
  return NULL;
}

void cl_buffer_destroy(const tflaccel_host_services *host, tflaccel_buffer *buffer) {
  if (buffer == NULL) return;
  cl_int error = clReleaseMemObject(buffer->memory);
  if (error != CL_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING, "clReleaseMemObject failed: %s (%d)",
              cl_error_name(error), (int)error);
  host->free(host->context, buffer);
}

tflaccel_status cl_buffer_write(const tflaccel_host_services *host,
                                const cl_device_context *context, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status status =
      gpu_check_buffer_range(host, "gpu_cl", buffer->size, offset, size, "write");
  if (status != NULL || size == 0) return status;
  cl_int error = cl_fault(context->fault, "clEnqueueWriteBuffer", GPU_FAULT_LOST);
  if (error == CL_SUCCESS)
    error = clEnqueueWriteBuffer(context->queue, buffer->memory, CL_TRUE, (size_t)offset,
                                 (size_t)size, source, 0, NULL, NULL);
  return error == CL_SUCCESS ? NULL : cl_call_failed(host, "clEnqueueWriteBuffer", error);
}

tflaccel_status cl_buffer_read(const tflaccel_host_services *host, const cl_device_context *context,
                               cl_staging *staging, tflaccel_buffer *buffer, uint64_t offset,
                               void *destination, uint64_t size) {
  tflaccel_status status =
      gpu_check_buffer_range(host, "gpu_cl", buffer->size, offset, size, "read");
  if (status != NULL || size == 0) return status;
  if (staging != NULL && size >= CL_STAGING_MIN_BYTES) {
    status = cl_staging_reserve(host, context, staging, (size_t)size);
    if (status != NULL) return status;
    cl_int error = cl_fault(context->fault, "clEnqueueReadBuffer", GPU_FAULT_LOST);
    if (error == CL_SUCCESS)
      error = clEnqueueReadBuffer(context->queue, buffer->memory, CL_TRUE, (size_t)offset,
                                  (size_t)size, staging->mapped, 0, NULL, NULL);
    if (error != CL_SUCCESS) return cl_call_failed(host, "clEnqueueReadBuffer", error);
    memcpy(destination, staging->mapped, (size_t)size);
    return NULL;
  }
  cl_int error = cl_fault(context->fault, "clEnqueueReadBuffer", GPU_FAULT_LOST);
  if (error == CL_SUCCESS)
    error = clEnqueueReadBuffer(context->queue, buffer->memory, CL_TRUE, (size_t)offset,
                                (size_t)size, destination, 0, NULL, NULL);
  return error == CL_SUCCESS ? NULL : cl_call_failed(host, "clEnqueueReadBuffer", error);
}
