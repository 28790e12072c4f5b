/* gpu_gl's external memory (gl_memory_object.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_external_fd.h"
#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_memory_object.h"
#include "plugins/gpu_gl/gl_probe.h"

#define PLUGIN "gpu_gl"

void gl_memory_objects_init(gl_memory_objects *objects) {
  memset(objects, 0, sizeof *objects);
  if (!gl_has_extension("GL_EXT_memory_object")) return;
  PFNGLGETUNSIGNEDBYTEVEXTPROC get_bytes =
      (PFNGLGETUNSIGNEDBYTEVEXTPROC)eglGetProcAddress("glGetUnsignedBytevEXT");
  PFNGLGETUNSIGNEDBYTEI_VEXTPROC get_indexed_bytes =
      (PFNGLGETUNSIGNEDBYTEI_VEXTPROC)eglGetProcAddress("glGetUnsignedBytei_vEXT");
  GLint devices = 0;
  glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &devices);
  if (get_bytes != NULL && get_indexed_bytes != NULL && devices >= 1) {
    get_bytes(GL_DRIVER_UUID_EXT, objects->driver_uuid);
    get_indexed_bytes(GL_DEVICE_UUID_EXT, 0, objects->device_uuid);
  }
  gl_clear_errors(); /* a driver without the queries leaves an error behind */
  if (!gl_has_extension("GL_EXT_memory_object_fd")) return;
  objects->create = (PFNGLCREATEMEMORYOBJECTSEXTPROC)eglGetProcAddress("glCreateMemoryObjectsEXT");
  objects->destroy = (PFNGLDELETEMEMORYOBJECTSEXTPROC)eglGetProcAddress("glDeleteMemoryObjectsEXT");
  objects->import_fd = (PFNGLIMPORTMEMORYFDEXTPROC)eglGetProcAddress("glImportMemoryFdEXT");
  objects->buffer_storage = (PFNGLBUFFERSTORAGEMEMEXTPROC)eglGetProcAddress("glBufferStorageMemEXT");
  objects->offered = objects->create != NULL && objects->destroy != NULL &&
                     objects->import_fd != NULL && objects->buffer_storage != NULL;
}

/* Deletes what an import made before it failed. */
static void discard(const gl_memory_objects *objects, GLuint name, GLuint memory) {
  if (name != 0) glDeleteBuffers(1, &name);
  if (memory != 0) objects->destroy(1, &memory);
  gl_clear_errors();
}

tflaccel_status gl_memory_object_import(const tflaccel_host_services *host,
                                        const gl_memory_objects *objects, const char *renderer,
                                        const tflaccel_native_buffer *native,
                                        tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (native->type == TFLACCEL_BUFFER_DMABUF)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": a dma-buf needs a GLES import of dma-bufs into buffers, "
                             "which no extension of %s gives (GL_EXT_memory_object_fd imports "
                             "opaque fds)",
                             renderer);
  if (!objects->offered)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": importing an opaque fd needs GL_EXT_memory_object_fd, which "
                             "%s does not offer",
                             renderer);
  int fd = -1;
  tflaccel_status status = gpu_external_fd_check(host, PLUGIN, native, &fd);
  if (status != NULL) return status;
  uint64_t end = native->offset + native->size;
  uint64_t bytes = end == 0 ? 16 : (end + 15) / 16 * 16;
  if (bytes > native->memory || bytes > (uint64_t)PTRDIFF_MAX)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": offset + size rounded up to 16 (%llu bytes) lies beyond the "
                             "fd's allocation of %llu bytes",
                             (unsigned long long)bytes, (unsigned long long)native->memory);
  int copy = -1;
  status = gpu_external_fd_dup(host, PLUGIN, fd, &copy);
  if (status != NULL) return status;

  gl_clear_errors();
  GLuint memory = 0;
  objects->create(1, &memory);
  status = gl_check_error(host, "glCreateMemoryObjectsEXT");
  if (status != NULL) {
    close(copy);
    return status;
  }
  objects->import_fd(memory, (GLuint64)native->memory, GL_HANDLE_TYPE_OPAQUE_FD_EXT, copy);
  GLenum error = glGetError();
  if (error != GL_NO_ERROR) {
    close(copy); /* the GL owns the fd only after a successful import */
    discard(objects, 0, memory);
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": glImportMemoryFdEXT refused fd %d (GL error 0x%04x): an "
                             "opaque fd imports only on the device and driver that exported it "
                             "(compare the device and driver UUIDs)",
                             fd, (unsigned)error);
  }
  GLuint name = 0;
  glGenBuffers(1, &name);
  glBindBuffer(GL_COPY_WRITE_BUFFER, name);
  objects->buffer_storage(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, memory, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  status = gl_check_error(host, "glBufferStorageMemEXT");
  if (status == NULL) status = gl_buffer_wrap(host, name, end, buffer);
  if (status != NULL) {
    discard(objects, name, memory);
    return status;
  }
  gl_buffer_adopt(*buffer, memory, objects->destroy);
  return NULL;
}
