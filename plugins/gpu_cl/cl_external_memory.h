/* gpu_cl's external memory: an opaque fd of another API's memory (gpu_vk's
 * exported buffers) imported as a cl_mem (cl_khr_external_memory_opaque_fd:
 * clCreateBufferWithProperties with CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR).
 * Every run of the device acquires the imported objects before its first
 * dispatch and releases them after its last
 * (clEnqueueAcquire/ReleaseExternalMemObjectsKHR), as the extension asks
 * of each use. The fd must come from the same physical device and driver
 * (cl_khr_device_uuid: tflaccel_native_device's UUIDs). A dma-buf
 * (cl_khr_external_memory_dma_buf) is refused naming the extension. The
 * fd is read during the import only: the application keeps and closes it. */
#ifndef TFLACCEL_GPU_CL_CL_EXTERNAL_MEMORY_H
#define TFLACCEL_GPU_CL_CL_EXTERNAL_MEMORY_H

#include <stdint.h>

#include "plugins/gpu_cl/cl_api.h"
#include "plugins/gpu_cl/cl_context.h"
#include "tflaccel/accelerator.h"

typedef struct cl_external_memory {
  int32_t opaque_fd; /* cl_khr_external_memory_opaque_fd offered, entry points found */
  int32_t dma_buf;   /* cl_khr_external_memory_dma_buf offered */
  uint8_t device_uuid[16], driver_uuid[16]; /* cl_khr_device_uuid; zero without it */
  char device_name[128];                    /* for messages */
  void *acquire, *release; /* clEnqueue{Acquire,Release}ExternalMemObjectsKHR */
  cl_mem *imported;        /* the live imported objects (host->alloc'ed) */
  uint32_t count, capacity;
} cl_external_memory;

/* What the device's driver offers. */
void cl_external_memory_init(cl_external_memory *external, cl_platform_id platform,
                             cl_device_id device);
void cl_external_memory_release_all(const tflaccel_host_services *host,
                                    cl_external_memory *external);

/* A buffer of the memory behind native's fd, listed for the runs. */
tflaccel_status cl_external_memory_import(const tflaccel_host_services *host,
                                          cl_external_memory *external,
                                          const cl_device_context *context,
                                          const tflaccel_native_buffer *native,
                                          tflaccel_buffer **buffer);
/* A buffer is destroyed: forget its cl_mem when it was imported. */
void cl_external_memory_forget(cl_external_memory *external, cl_mem memory);

/* Around a run on queue (no-ops without imported objects; NULL external
 * too): acquire before the first dispatch; release after the last, with
 * *event (when not NULL) the release's event, or NULL without objects. */
cl_int cl_external_memory_acquire(const cl_external_memory *external, cl_command_queue queue);
cl_int cl_external_memory_release(const cl_external_memory *external, cl_command_queue queue,
                                  cl_event *event);
/* 1 when a run must acquire and release. */
int cl_external_memory_in_use(const cl_external_memory *external);

#endif
