/* gpu_cl's buffers handed to the application (gpu_plugin.h's
 * buffer_native, device_native, buffer_wrap). */
#ifndef TFLACCEL_GPU_CL_CL_NATIVE_H
#define TFLACCEL_GPU_CL_CL_NATIVE_H

#include "plugins/gpu_cl/cl_context.h"
#include "tflaccel/accelerator.h"

tflaccel_status cl_native_buffer(tflaccel_buffer *buffer, tflaccel_native_buffer *native);
void cl_native_device(const cl_device_context *context, cl_platform_id platform,
                      tflaccel_native_device *native);
tflaccel_status cl_native_wrap(const tflaccel_host_services *host, const cl_device_context *context,
                               const tflaccel_native_buffer *native, tflaccel_buffer **buffer);

#endif
