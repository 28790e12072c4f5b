/* Device buffers of gpu_gl: GL buffer objects (bound as shader storage
 * buffers by kernels), filled with glBufferSubData and read back through
 * a copy to a second buffer that is mapped (gl_buffer.c says why). Every
 * call runs on the device's worker thread, where its context is current
 * (gl_worker.h). */
#ifndef TFLACCEL_GPU_GL_GL_BUFFER_H
#define TFLACCEL_GPU_GL_GL_BUFFER_H

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

/* The GL buffer name behind a buffer (for kernels to bind). */
GLuint gl_buffer_name(const tflaccel_buffer *buffer);

uint64_t gl_buffer_size(const tflaccel_buffer *buffer);

/* Marks a buffer created for the core (through the accelerator ABI), which
 * the core may read after a run; the GPU layer's own buffers stay unmarked. */
void gl_buffer_mark_host_io(tflaccel_buffer *buffer);

/* A dispatch writes the buffer: its read-back copy is stale. */
void gl_buffer_note_kernel_write(tflaccel_buffer *buffer);

/* The run's list of buffers to stage for reading (gl_buffer_stage_read) with
 * buffer added when it is the core's and not yet listed in run (a number
 * that differs from run to run, never 0); list is the list so far (NULL
 * first). The list lives as long as the run. */
tflaccel_buffer *gl_buffer_list_staged(tflaccel_buffer *buffer, uint64_t run,
                                       tflaccel_buffer *list);
tflaccel_buffer *gl_buffer_next_staged(const tflaccel_buffer *buffer);

/* Queues the copy of the whole buffer to its read-back buffer, after which
 * gl_buffer_read waits on nothing but that copy. Call it after the barrier
 * that makes the kernels' writes visible to buffer copies. */
tflaccel_status gl_buffer_stage_read(const tflaccel_host_services *host,
                                     tflaccel_buffer *buffer);

/* A buffer around the application's GL buffer `name` (of a context sharing
 * with the device's), checked to hold size bytes; never deleted here. */
tflaccel_status gl_buffer_wrap(const tflaccel_host_services *host, GLuint name, uint64_t size,
                               tflaccel_buffer **buffer);
/* A gl_buffer_wrap'ed buffer made from an imported memory object
 * (gl_memory_object.h) becomes the buffer's own: destroying it deletes
 * the GL buffer, then the memory object with destroy_memory. */
void gl_buffer_adopt(tflaccel_buffer *buffer, GLuint memory_object,
                     PFNGLDELETEMEMORYOBJECTSEXTPROC destroy_memory);
/* fault: the device's fault hook (gpu_fault.h), or NULL. */
tflaccel_status gl_buffer_create(const tflaccel_host_services *host, gpu_fault *fault, uint64_t size,
                                 tflaccel_buffer **buffer);
void gl_buffer_destroy(const tflaccel_host_services *host, tflaccel_buffer *buffer);
tflaccel_status gl_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status gl_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

#endif
