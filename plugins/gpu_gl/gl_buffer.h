/* Device buffers of gpu_gl: GL buffer objects (bound as shader storage
 * buffers by kernels), filled with glBufferSubData and read back through
 * glMapBufferRange. Each call makes the device's context current on the
 * calling thread for its duration. */
#ifndef TFLACCEL_GPU_GL_GL_BUFFER_H
#define TFLACCEL_GPU_GL_GL_BUFFER_H

#include "plugins/gpu_gl/egl_context.h"
#include "tflaccel/accelerator.h"

/* The GL buffer name behind a buffer (for kernels to bind). */
GLuint gl_buffer_name(const tflaccel_buffer *buffer);

tflaccel_status gl_buffer_create(const tflaccel_host_services *host,
                                 const egl_device_context *context, uint64_t size,
                                 tflaccel_buffer **buffer);
void gl_buffer_destroy(const tflaccel_host_services *host, const egl_device_context *context,
                       tflaccel_buffer *buffer);
tflaccel_status gl_buffer_write(const tflaccel_host_services *host,
                                const egl_device_context *context, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status gl_buffer_read(const tflaccel_host_services *host,
                               const egl_device_context *context, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

#endif
