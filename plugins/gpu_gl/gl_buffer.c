/* gpu_gl buffers. The copy targets (GL_COPY_WRITE_BUFFER/GL_COPY_READ_BUFFER)
 * are used for transfers so that kernels' storage buffer bindings are never
 * disturbed. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_error.h"

struct tflaccel_buffer {
  GLuint name;
  uint64_t size; /* as requested; the GL buffer holds at least 4 bytes */
};

GLuint gl_buffer_name(const tflaccel_buffer *buffer) { return buffer->name; }

/* Ends a call that made the context current: the call's own failure wins,
 * a failure to release is reported only when the call worked. */
static tflaccel_status leave(const tflaccel_host_services *host, const egl_current *saved,
                             tflaccel_status status) {
  tflaccel_status left = egl_current_leave(host, saved);
  if (status == NULL) return left;
  if (left != NULL) host->status_free(left);
  return status;
}

tflaccel_status gl_buffer_create(const tflaccel_host_services *host,
                                 const egl_device_context *context, uint64_t size,
                                 tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (size > (uint64_t)PTRDIFF_MAX)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "gpu_gl buffer of %llu bytes exceeds GLsizeiptr",
                             (unsigned long long)size);
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl buffer: out of memory");
  created->name = 0;
  created->size = size;
  egl_current saved;
  tflaccel_status status = egl_current_enter(host, context, &saved);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  /* An empty tensor still gets a valid buffer (one word, bindable). */
  GLsizeiptr allocation = size == 0 ? 4 : (GLsizeiptr)size;
  glGenBuffers(1, &created->name);
  glBindBuffer(GL_COPY_WRITE_BUFFER, created->name);
  glBufferData(GL_COPY_WRITE_BUFFER, allocation, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  status = gl_check_error(host, "glBufferData");
  if (status == NULL && created->name == 0)
    status = host->status_make(TFLACCEL_BACKEND_ERROR, "glGenBuffers gave no buffer");
  if (status != NULL && created->name != 0) glDeleteBuffers(1, &created->name);
  status = leave(host, &saved, status);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  *buffer = created;
  return NULL;
}

void gl_buffer_destroy(const tflaccel_host_services *host, const egl_device_context *context,
                       tflaccel_buffer *buffer) {
  if (buffer == NULL) return;
  egl_current saved;
  tflaccel_status status = egl_current_enter(host, context, &saved);
  if (status == NULL) {
    glDeleteBuffers(1, &buffer->name);
    status = leave(host, &saved, gl_check_error(host, "glDeleteBuffers"));
  }
  if (status != NULL) {
    host->log(host->context, TFLACCEL_LOG_WARNING, "releasing a gpu_gl buffer: %s",
              host->status_message(status));
    host->status_free(status);
  }
  host->free(host->context, buffer);
}

/* Rejects ranges that do not lie inside the buffer (overflow-safe). */
static tflaccel_status check_range(const tflaccel_host_services *host,
                                   const tflaccel_buffer *buffer, uint64_t offset, uint64_t size,
                                   const char *what) {
  if (offset > buffer->size || size > buffer->size - offset)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl buffer %s of %llu bytes at offset %llu is outside the "
                             "%llu-byte buffer",
                             what, (unsigned long long)size, (unsigned long long)offset,
                             (unsigned long long)buffer->size);
  return NULL;
}

tflaccel_status gl_buffer_write(const tflaccel_host_services *host,
                                const egl_device_context *context, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "write");
  if (status != NULL || size == 0) return status;
  egl_current saved;
  status = egl_current_enter(host, context, &saved);
  if (status != NULL) return status;
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer->name);
  glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, source);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return leave(host, &saved, gl_check_error(host, "glBufferSubData"));
}

tflaccel_status gl_buffer_read(const tflaccel_host_services *host,
                               const egl_device_context *context, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "read");
  if (status != NULL || size == 0) return status;
  egl_current saved;
  status = egl_current_enter(host, context, &saved);
  if (status != NULL) return status;
  glBindBuffer(GL_COPY_READ_BUFFER, buffer->name);
  /* Mapping waits for the GPU work that writes the buffer. */
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
  return leave(host, &saved, status);
}
