/* Pinned staging memory for reads (cl_staging.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_staging.h"

void cl_staging_release(const tflaccel_host_services *host, const cl_device_context *context,
                        cl_staging *staging) {
  if (staging->memory != NULL) {
    cl_int error = CL_SUCCESS;
    if (staging->mapped != NULL) {
      error = clEnqueueUnmapMemObject(context->queue, staging->memory, staging->mapped, 0, NULL,
                                      NULL);
      if (error == CL_SUCCESS) error = clFinish(context->queue);
    }
    cl_int released = clReleaseMemObject(staging->memory);
    if (error == CL_SUCCESS) error = released;
    if (error != CL_SUCCESS)
      host->log(host->context, TFLACCEL_LOG_WARNING, "releasing the read staging failed: %s (%d)",
                cl_error_name(error), (int)error);
  }
  memset(staging, 0, sizeof *staging);
}

tflaccel_status cl_staging_reserve(const tflaccel_host_services *host,
                                   const cl_device_context *context, cl_staging *staging,
                                   size_t size) {
  if (staging->mapped != NULL && staging->size >= size) return NULL;
  cl_staging_release(host, context, staging);
  cl_int error = cl_fault(context->fault, "clCreateBuffer", GPU_FAULT_MEMORY);
  cl_mem memory = error != CL_SUCCESS
                      ? NULL
                      : clCreateBuffer(context->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                       size, NULL, &error);
  if (memory == NULL || error != CL_SUCCESS)
    return cl_call_failed(host, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)",
                          error != CL_SUCCESS ? error : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  error = cl_fault(context->fault, "clEnqueueMapBuffer", GPU_FAULT_MEMORY);
  void *mapped = error != CL_SUCCESS ? NULL
                                     : clEnqueueMapBuffer(context->queue, memory, CL_TRUE,
                                                          CL_MAP_READ | CL_MAP_WRITE, 0, size, 0,
                                                          NULL, NULL, &error);
  if (mapped == NULL || error != CL_SUCCESS) {
    clReleaseMemObject(memory);
    return cl_call_failed(host, "clEnqueueMapBuffer(read staging)",
                          error != CL_SUCCESS ? error : CL_MAP_FAILURE);
  }
  staging->memory = memory;
  staging->mapped = mapped;
  staging->size = size;
  return NULL;
}
