/* gpu_cl's view of OpenCL: the devices found through the ICD loader, and the
 * per-device objects (context and in-order command queue) that buffers and,
 * later, kernels run on. */
#ifndef TFLACCEL_GPU_CL_CL_CONTEXT_H
#define TFLACCEL_GPU_CL_CL_CONTEXT_H

#include "plugins/gpu_cl/cl_api.h"
#include "plugins/gpu_common/gpu_fault.h"
#include "tflaccel/accelerator.h"

typedef struct cl_device_entry {
  cl_platform_id platform;
  cl_device_id device;
  tflaccel_device_info info;
} cl_device_entry;

typedef struct cl_device_list {
  cl_device_entry *entries; /* host->alloc'ed; count entries */
  uint32_t count;
} cl_device_list;

/* Finds every available GPU, accelerator and CPU device that has a compiler,
 * on the platforms whose name or vendor contains platform_filter
 * (case-insensitive; every platform when NULL). GPUs come first, then
 * accelerators, then CPUs, each in platform order. Finding no device is
 * TFLACCEL_UNAVAILABLE with the reason. */
tflaccel_status cl_device_list_scan(const tflaccel_host_services *host, const char *platform_filter,
                                    cl_device_list *list);
void cl_device_list_release(const tflaccel_host_services *host, cl_device_list *list);

typedef struct cl_device_context {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue; /* in order */
  /* The fault hook of the device's calls (gpu_fault.h); owned by the
   * device, NULL until set. A pointer, so that calls through a const
   * context still count. */
  gpu_fault *fault;
} cl_device_context;

/* Creates the context and queue of one device; profiling: the queue is
 * created with CL_QUEUE_PROFILING_ENABLE. */
tflaccel_status cl_device_context_create(const tflaccel_host_services *host,
                                         const cl_device_entry *entry, int32_t profiling,
                                         cl_device_context *context);
void cl_device_context_release(const tflaccel_host_services *host, cl_device_context *context);

#endif
