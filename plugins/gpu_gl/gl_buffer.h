/* Device buffers of gpu_gl: GL buffer objects (bound as shader storage
 * buffers by kernels), filled with glBufferSubData and read back through
 * glMapBufferRange. Every call runs on the device's worker thread, where
 * its context is current (gl_worker.h). */
#ifndef TFLACCEL_GPU_GL_GL_BUFFER_H
#define TFLACCEL_GPU_GL_GL_BUFFER_H

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

/* The GL buffer name behind a buffer (for kernels to bind). */
GLuint gl_buffer_name(const tflaccel_buffer *buffer);

uint64_t gl_buffer_size(const tflaccel_buffer *buffer);

/* Whether a kernel has been given the buffer as its output: only such
 * buffers' reads can conflict with a dispatch's writes (gpu_hazard.h). */
void gl_buffer_mark_output(tflaccel_buffer *buffer);
int gl_buffer_is_output(const tflaccel_buffer *buffer);

tflaccel_status gl_buffer_create(const tflaccel_host_services *host, uint64_t size,
                                 tflaccel_buffer **buffer);
void gl_buffer_destroy(const tflaccel_host_services *host, tflaccel_buffer *buffer);
tflaccel_status gl_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status gl_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

#endif
