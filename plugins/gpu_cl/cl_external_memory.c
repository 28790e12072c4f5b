/* gpu_cl's external memory (cl_external_memory.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_cl/cl_api.h" /* before cl_ext.h: the OpenCL version it targets */
#include <CL/cl_ext.h>

#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_external_memory.h"
#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_extension_list.h"
#include "plugins/gpu_common/gpu_external_fd.h"

#define PLUGIN "gpu_cl"

void cl_external_memory_init(cl_external_memory *external, cl_platform_id platform,
                             cl_device_id device) {
  memset(external, 0, sizeof *external);
  if (clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof external->device_name - 1,
                      external->device_name, NULL) != CL_SUCCESS)
    strcpy(external->device_name, "the OpenCL device");
  char extensions[8192] = "";
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS ||
      size >= sizeof extensions ||
      clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions, NULL) != CL_SUCCESS)
    return;
  if (gpu_extension_listed(extensions, "cl_khr_device_uuid")) {
    if (clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, 16, external->device_uuid, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(device, CL_DRIVER_UUID_KHR, 16, external->driver_uuid, NULL) != CL_SUCCESS) {
      memset(external->device_uuid, 0, sizeof external->device_uuid);
      memset(external->driver_uuid, 0, sizeof external->driver_uuid);
    }
  }
  external->dma_buf = gpu_extension_listed(extensions, "cl_khr_external_memory_dma_buf");
  if (!gpu_extension_listed(extensions, "cl_khr_external_memory") ||
      !gpu_extension_listed(extensions, "cl_khr_external_memory_opaque_fd"))
    return;
  external->acquire =
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueAcquireExternalMemObjectsKHR");
  external->release =
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueReleaseExternalMemObjectsKHR");
  external->opaque_fd = external->acquire != NULL && external->release != NULL;
}

void cl_external_memory_release_all(const tflaccel_host_services *host,
                                    cl_external_memory *external) {
  if (external->imported != NULL) host->free(host->context, external->imported);
  external->imported = NULL;
  external->count = external->capacity = 0;
}

tflaccel_status cl_external_memory_import(const tflaccel_host_services *host,
                                          cl_external_memory *external,
                                          const cl_device_context *context,
                                          const tflaccel_native_buffer *native,
                                          tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (native->type == TFLACCEL_BUFFER_DMABUF)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             external->dma_buf
                                 ? PLUGIN ": %s offers cl_khr_external_memory_dma_buf, but gpu_cl "
                                          "imports opaque fds only (no driver it was tested on "
                                          "has dma-bufs)"
                                 : PLUGIN ": a dma-buf needs cl_khr_external_memory_dma_buf, which "
                                          "%s does not offer",
                             external->device_name);
  if (!external->opaque_fd)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": importing an opaque fd needs cl_khr_external_memory_opaque_fd, "
                             "which %s does not offer",
                             external->device_name);
  int fd = -1;
  tflaccel_status status = gpu_external_fd_check(host, PLUGIN, native, &fd);
  if (status != NULL) return status;
  uint64_t end = native->offset + native->size;
  uint64_t bytes = end == 0 ? 16 : (end + 15) / 16 * 16;
  if (bytes > native->memory)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": offset + size rounded up to 16 (%llu bytes) lies beyond the "
                             "fd's allocation of %llu bytes",
                             (unsigned long long)bytes, (unsigned long long)native->memory);
  if (!gpu_array_reserve(host, (void **)&external->imported, &external->capacity,
                         external->count + 1, sizeof *external->imported, _Alignof(cl_mem)))
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, PLUGIN ": out of memory (imports)");
  const cl_mem_properties properties[] = {
      CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, (cl_mem_properties)fd,
      CL_DEVICE_HANDLE_LIST_KHR, (cl_mem_properties)(uintptr_t)context->device,
      CL_DEVICE_HANDLE_LIST_END_KHR, 0};
  cl_int error = CL_SUCCESS;
  cl_mem memory = clCreateBufferWithProperties(context->context, properties, CL_MEM_READ_WRITE,
                                               (size_t)bytes, NULL, &error);
  if (error != CL_SUCCESS || memory == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": clCreateBufferWithProperties could not import fd %d (%s): an "
                             "opaque fd imports only on the device and driver that exported it",
                             fd, cl_error_name(error));
  status = cl_buffer_wrap(host, memory, end, buffer);
  clReleaseMemObject(memory); /* the buffer holds its own reference (or none on failure) */
  if (status != NULL) return status;
  external->imported[external->count++] = memory;
  return NULL;
}

void cl_external_memory_forget(cl_external_memory *external, cl_mem memory) {
  for (uint32_t i = 0; i < external->count; ++i)
    if (external->imported[i] == memory) {
      external->imported[i] = external->imported[--external->count];
      return;
    }
}

int cl_external_memory_in_use(const cl_external_memory *external) {
  return external != NULL && external->count > 0;
}

cl_int cl_external_memory_acquire(const cl_external_memory *external, cl_command_queue queue) {
  if (!cl_external_memory_in_use(external)) return CL_SUCCESS;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire =
      (clEnqueueAcquireExternalMemObjectsKHR_fn)external->acquire;
  return acquire(queue, external->count, external->imported, 0, NULL, NULL);
}

cl_int cl_external_memory_release(const cl_external_memory *external, cl_command_queue queue,
                                  cl_event *event) {
  if (event != NULL) *event = NULL;
  if (!cl_external_memory_in_use(external)) return CL_SUCCESS;
  clEnqueueReleaseExternalMemObjectsKHR_fn release =
      (clEnqueueReleaseExternalMemObjectsKHR_fn)external->release;
  return release(queue, external->count, external->imported, 0, NULL, event);
}
