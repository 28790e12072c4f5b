/* gpu_cl's imported semaphores (cl_semaphore.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cl_api.h first: it sets the OpenCL version the extension header sees. */
#include "plugins/gpu_cl/cl_api.h"
#include <CL/cl_ext.h>

#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_event.h"
#include "plugins/gpu_cl/cl_semaphore.h"
#include "plugins/gpu_common/gpu_extension_list.h"
#include "plugins/gpu_common/gpu_native_event.h"

/* The extension entry points, found on the device's platform. */
typedef struct semaphore_calls {
  clCreateSemaphoreWithPropertiesKHR_fn create;
  clEnqueueWaitSemaphoresKHR_fn wait;
  clReleaseSemaphoreKHR_fn release;
} semaphore_calls;

static tflaccel_status missing(const tflaccel_host_services *host, const char *what) {
  return gpu_native_event_unsupported(host, "gpu_cl", TFLACCEL_NATIVE_EVENT_OPAQUE_FD, what);
}

/* The first of names[] the device does not list, NULL when it lists all
 * (and when the list cannot be read, the first name). */
static const char *first_unlisted(cl_device_id device, const char *const *names, size_t count) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return names[0];
  char *list = malloc(size + 1);
  if (list == NULL) return names[0];
  const char *absent = names[0];
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
    list[size] = '\0';
    absent = NULL;
    for (size_t i = 0; i < count && absent == NULL; ++i)
      if (!gpu_extension_listed(list, names[i])) absent = names[i];
  }
  free(list);
  return absent;
}

static tflaccel_status find_calls(const tflaccel_host_services *host, cl_device_id device,
                                  semaphore_calls *calls) {
  static const char *const needed[] = {"cl_khr_semaphore", "cl_khr_external_semaphore",
                                       "cl_khr_external_semaphore_opaque_fd"};
  const char *absent = first_unlisted(device, needed, sizeof needed / sizeof *needed);
  if (absent != NULL)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "gpu_cl: no opaque semaphore fd events: the OpenCL driver lacks %s",
                             absent);
  cl_platform_id platform = NULL;
  cl_int error = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
  if (error != CL_SUCCESS) return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_PLATFORM)", error);
  calls->create = (clCreateSemaphoreWithPropertiesKHR_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clCreateSemaphoreWithPropertiesKHR");
  calls->wait = (clEnqueueWaitSemaphoresKHR_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clEnqueueWaitSemaphoresKHR");
  calls->release = (clReleaseSemaphoreKHR_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clReleaseSemaphoreKHR");
  if (calls->create == NULL || calls->wait == NULL || calls->release == NULL)
    return missing(host, "an entry point of cl_khr_semaphore is missing");
  return NULL;
}

tflaccel_status cl_semaphore_wrap(const tflaccel_host_services *host,
                                  const cl_device_context *context,
                                  const tflaccel_native_event *native, tflaccel_event **event) {
  *event = NULL;
  if (native->value > 0)
    return missing(host, "cl_khr_semaphore has no timeline semaphores (value must be 0)");
  semaphore_calls calls = {0};
  tflaccel_status status = find_calls(host, context->device, &calls);
  if (status != NULL) return status;
  if (native->handle > (uint64_t)INT32_MAX)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_cl: event_wrap: %llu is no file descriptor",
                             (unsigned long long)native->handle);
  /* Like Vulkan's and CUDA's imports, a successful one owns the fd. */
  int fd = dup((int)native->handle);
  if (fd < 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: event_wrap: fd %d: %s",
                             (int)native->handle, strerror(errno));
  /* No device list: gpu_cl's context has one device, and the property's
   * name and value changed between the extension's versions (the
   * provisional CL_DEVICE_HANDLE_LIST_KHR, 0x2051, which NVIDIA's 580
   * driver refuses with CL_INVALID_PROPERTY; 1.0's
   * CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, 0x2053). */
  const cl_semaphore_properties_khr properties[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      (cl_semaphore_properties_khr)fd, 0};
  cl_int error = CL_SUCCESS;
  cl_semaphore_khr semaphore = calls.create(context->context, properties, &error);
  if (semaphore == NULL || error != CL_SUCCESS) {
    close(fd);
    return cl_call_failed(host, "clCreateSemaphoreWithPropertiesKHR(OPAQUE_FD)",
                          error != CL_SUCCESS ? error : CL_INVALID_SEMAPHORE_KHR);
  }
  cl_event waited = NULL;
  error = calls.wait(context->queue, 1, &semaphore, NULL, 0, NULL, &waited);
  const char *call = "clEnqueueWaitSemaphoresKHR";
  if (error == CL_SUCCESS) {
    call = "clFlush";
    error = clFlush(context->queue);
  }
  /* A released semaphore lives until the commands that use it finished
   * (cl_khr_semaphore). */
  cl_int released = calls.release(semaphore);
  if (released != CL_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING, "clReleaseSemaphoreKHR failed: %s (%d)",
              cl_error_name(released), (int)released);
  if (error != CL_SUCCESS) {
    if (waited != NULL) clReleaseEvent(waited);
    return cl_call_failed(host, call, error);
  }
  *event = cl_event_wrap_handle(waited);
  return NULL;
}
