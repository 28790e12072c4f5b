/* gpu_gl buffers. The copy targets (GL_COPY_WRITE_BUFFER/GL_COPY_READ_BUFFER)
 * are used for transfers so that kernels' storage buffer bindings are never
 * disturbed.
 *
 * Reads go through a second, read-back buffer: mapping the buffer that the
 * kernels write lets a driver move it to host memory (NVIDIA's does), after
 * which every dispatch writing it crosses the bus: pose_landmark_lite's
 * 64x64x39 output took ~200 us to write instead of ~15. The copies of a
 * run's outputs go out with its dispatches (gl_buffer_stage_read), so that
 * the reads that follow wait on nothing: a copy and a wait per read cost
 * hand_landmark_lite more than the bus did. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "plugins/gpu_common/gpu_buffer_range.h"
#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_error.h"

struct tflaccel_buffer {
  GLuint name;
  uint64_t size;                /* as requested; the GL buffer holds it rounded up to 16 bytes */
  GLuint readback;              /* GL_STREAM_READ copy target of reads; 0 until the first */
  int readback_current;         /* the read-back buffer holds the contents */
  int host_io;                  /* created for the core (a partition's input or output) */
  int borrowed;                 /* the application's (gl_buffer_wrap): not deleted here */
  uint64_t staged_run;          /* the run that last listed it for staging */
  tflaccel_buffer *next_staged; /* that run's list (gl_buffer_list_staged) */
  GLuint memory_object;         /* the imported memory behind name (gl_buffer_adopt), or 0 */
  PFNGLDELETEMEMORYOBJECTSEXTPROC destroy_memory;
};

/* The GL allocation behind a buffer of size bytes. */
static GLsizeiptr allocation_of(uint64_t size) {
  /* An empty tensor still gets a valid (bindable) buffer; the kernels read
   * tensors as 16-byte vectors, so the last is whole. */
  return size == 0 ? 16 : (GLsizeiptr)((size + 15) / 16 * 16);
}

GLuint gl_buffer_name(const tflaccel_buffer *buffer) { return buffer->name; }

uint64_t gl_buffer_size(const tflaccel_buffer *buffer) { return buffer->size; }

void gl_buffer_mark_host_io(tflaccel_buffer *buffer) { buffer->host_io = 1; }

void gl_buffer_note_kernel_write(tflaccel_buffer *buffer) { buffer->readback_current = 0; }

tflaccel_buffer *gl_buffer_list_staged(tflaccel_buffer *buffer, uint64_t run,
                                       tflaccel_buffer *list) {
  if (!buffer->host_io || buffer->staged_run == run) return list;
  buffer->staged_run = run;
  buffer->next_staged = list;
  return buffer;
}

tflaccel_buffer *gl_buffer_next_staged(const tflaccel_buffer *buffer) {
  return buffer->next_staged;
}

tflaccel_status gl_buffer_create(const tflaccel_host_services *host, gpu_fault *fault, uint64_t size,
                                 tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (size > (uint64_t)PTRDIFF_MAX - 15)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "gpu_gl buffer of %llu bytes exceeds GLsizeiptr",
                             (unsigned long long)size);
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl buffer: out of memory");
  created->name = 0;
  created->size = size;
  created->readback = 0;
  created->readback_current = 0;
  created->host_io = 0;
  created->borrowed = 0;
  created->staged_run = 0;
  created->next_staged = NULL;
  created->memory_object = 0;
  created->destroy_memory = NULL;
  gl_clear_errors();
  GLsizeiptr allocation = allocation_of(size);
  glGenBuffers(1, &created->name);
  glBindBuffer(GL_COPY_WRITE_BUFFER, created->name);
  glBufferData(GL_COPY_WRITE_BUFFER, allocation, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  tflaccel_status status = gl_check_call(host, fault, "glBufferData", GPU_FAULT_MEMORY);
  if (status == NULL && created->name == 0)
    status = host->status_make(TFLACCEL_BACKEND_ERROR, "glGenBuffers gave no buffer");
  if (status != NULL) {
    if (created->name != 0) glDeleteBuffers(1, &created->name);
    host->free(host->context, created);
    return status;
  }
  *buffer = created;
  return NULL;
}

tflaccel_status gl_buffer_wrap(const tflaccel_host_services *host, GLuint name, uint64_t size,
                               tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (name == 0 || !glIsBuffer(name))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl: %u is not a GL buffer of the accelerator's share group "
                             "(make it on a context sharing with tflaccel_compiled_model_native_device's "
                             "egl_context)",
                             (unsigned)name);
  gl_clear_errors();
  GLint64 held = 0;
  glBindBuffer(GL_COPY_READ_BUFFER, name);
  glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &held);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  tflaccel_status status = gl_check_error(host, "glGetBufferParameteri64v(GL_BUFFER_SIZE)");
  if (status != NULL) return status;
  /* The kernels read tensors as whole 16-byte vectors. */
  if (held < 0 || (uint64_t)held < (size + 15) / 16 * 16)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl: GL buffer %u holds %lld bytes, it needs %llu (offset + size, "
                             "rounded up to 16)",
                             (unsigned)name, (long long)held,
                             (unsigned long long)((size + 15) / 16 * 16));
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl buffer: out of memory");
  memset(created, 0, sizeof *created);
  created->name = name;
  created->size = size;
  created->borrowed = 1;
  *buffer = created;
  return NULL;
}

void gl_buffer_adopt(tflaccel_buffer *buffer, GLuint memory_object,
                     PFNGLDELETEMEMORYOBJECTSEXTPROC destroy_memory) {
  buffer->borrowed = 0;
  buffer->memory_object = memory_object;
  buffer->destroy_memory = destroy_memory;
}

void gl_buffer_destroy(const tflaccel_host_services *host, tflaccel_buffer *buffer) {
  if (buffer == NULL) return;
  gl_clear_errors();
  if (!buffer->borrowed) glDeleteBuffers(1, &buffer->name);
  if (buffer->readback != 0) glDeleteBuffers(1, &buffer->readback);
  if (buffer->memory_object != 0) buffer->destroy_memory(1, &buffer->memory_object);
  tflaccel_status status = gl_check_error(host, "glDeleteBuffers");
  if (status != NULL) {
    host->log(host->context, TFLACCEL_LOG_WARNING, "releasing a gpu_gl buffer: %s",
              host->status_message(status));
    host->status_free(status);
  }
  host->free(host->context, buffer);
}

tflaccel_status gl_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status status =
      gpu_check_buffer_range(host, "gpu_gl", buffer->size, offset, size, "write");
  if (status != NULL || size == 0) return status;
  buffer->readback_current = 0;
  gl_clear_errors();
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer->name);
  glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, source);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return gl_check_error(host, "glBufferSubData");
}

/* Creates the buffer's read-back buffer on its first read. */
static tflaccel_status ensure_readback(const tflaccel_host_services *host,
                                       tflaccel_buffer *buffer) {
  if (buffer->readback != 0) return NULL;
  gl_clear_errors();
  glGenBuffers(1, &buffer->readback);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer->readback);
  glBufferData(GL_COPY_WRITE_BUFFER, allocation_of(buffer->size), NULL, GL_STREAM_READ);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  tflaccel_status status = gl_check_error(host, "glBufferData (read-back buffer)");
  if (status == NULL && buffer->readback == 0)
    status = host->status_make(TFLACCEL_BACKEND_ERROR, "glGenBuffers gave no read-back buffer");
  if (status != NULL && buffer->readback != 0) {
    glDeleteBuffers(1, &buffer->readback);
    buffer->readback = 0;
  }
  return status;
}

/* Copies bytes [offset, offset + size) into the read-back buffer. */
static tflaccel_status copy_to_readback(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                        GLintptr offset, GLsizeiptr size) {
  tflaccel_status status = ensure_readback(host, buffer);
  if (status != NULL) return status;
  gl_clear_errors();
  glBindBuffer(GL_COPY_READ_BUFFER, buffer->name);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer->readback);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, offset, offset, size);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return gl_check_error(host, "glCopyBufferSubData (to the read-back buffer)");
}

tflaccel_status gl_buffer_stage_read(const tflaccel_host_services *host, tflaccel_buffer *buffer) {
  tflaccel_status status = copy_to_readback(host, buffer, 0, allocation_of(buffer->size));
  buffer->readback_current = status == NULL;
  return status;
}

tflaccel_status gl_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size) {
  tflaccel_status status =
      gpu_check_buffer_range(host, "gpu_gl", buffer->size, offset, size, "read");
  if (status != NULL || size == 0) return status;
  /* A buffer the last run did not stage: its copy now. The run's last
   * barrier (GL_BUFFER_UPDATE_BARRIER_BIT) orders it after the kernels. */
  if (!buffer->readback_current)
    status = copy_to_readback(host, buffer, (GLintptr)offset, (GLsizeiptr)size);
  if (status != NULL) return status;
  gl_clear_errors();
  glBindBuffer(GL_COPY_READ_BUFFER, buffer->readback);
  /* Mapping waits for the copy, if the run's fence has not. */
  const void *mapped =
      glMapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)size, GL_MAP_READ_BIT);
  if (mapped == NULL) {
    status = gl_check_error(host, "glMapBufferRange");
    if (status == NULL)
      status = host->status_make(TFLACCEL_BACKEND_ERROR, "glMapBufferRange returned NULL");
  } else {
    memcpy(destination, mapped, (size_t)size);
    /* GL_FALSE: the data store was lost while mapped (e.g. a mode switch). */
    if (!glUnmapBuffer(GL_COPY_READ_BUFFER))
      status = host->status_make(TFLACCEL_DEVICE_LOST, "glUnmapBuffer: buffer contents were lost");
  }
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  if (status == NULL) status = gl_check_error(host, "reading a gpu_gl buffer");
  return status;
}
