/* Device buffers of gpu_cl: cl_mem objects in the device's context, copied
 * to and from host memory with blocking transfers on its queue. */
#ifndef TFLACCEL_GPU_CL_CL_BUFFER_H
#define TFLACCEL_GPU_CL_CL_BUFFER_H

#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_cl/cl_staging.h"
#include "tflaccel/accelerator.h"

/* The cl_mem behind a buffer (for kernels to bind). */
cl_mem cl_buffer_memory(const tflaccel_buffer *buffer);
uint64_t cl_buffer_size(const tflaccel_buffer *buffer);
/* A buffer around the application's cl_mem of at least size bytes (checked
 * by the caller), retained until cl_buffer_destroy releases it. */
tflaccel_status cl_buffer_wrap(const tflaccel_host_services *host, cl_mem memory, uint64_t size,
                               tflaccel_buffer **buffer);

tflaccel_status cl_buffer_create(const tflaccel_host_services *host,
                                 const cl_device_context *context, uint64_t size,
                                 tflaccel_buffer **buffer);
void cl_buffer_destroy(const tflaccel_host_services *host, tflaccel_buffer *buffer);
tflaccel_status cl_buffer_write(const tflaccel_host_services *host,
                                const cl_device_context *context, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
/* Large reads land in staging (when not NULL) first. */
tflaccel_status cl_buffer_read(const tflaccel_host_services *host, const cl_device_context *context,
                               cl_staging *staging, tflaccel_buffer *buffer, uint64_t offset,
                               void *destination, uint64_t size);

#endif
