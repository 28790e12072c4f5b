/* gpu_gl's imported semaphores (gl_semaphore.h). */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_native_event.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_probe.h"
#include "plugins/gpu_gl/gl_semaphore.h"

static tflaccel_status missing(const tflaccel_host_services *host, const char *what) {
  return gpu_native_event_unsupported(host, "gpu_gl", TFLACCEL_NATIVE_EVENT_OPAQUE_FD, what);
}

/* A timeline semaphore must have its type before the import. */
static tflaccel_status make_timeline(const tflaccel_host_services *host, GLuint *name) {
  if (!gl_has_extension("GL_NV_timeline_semaphore"))
    return missing(host, "a timeline value needs GL_NV_timeline_semaphore, which the GLES driver "
                         "lacks");
  PFNGLCREATESEMAPHORESNVPROC create =
      (PFNGLCREATESEMAPHORESNVPROC)eglGetProcAddress("glCreateSemaphoresNV");
  PFNGLSEMAPHOREPARAMETERIVNVPROC set_type =
      (PFNGLSEMAPHOREPARAMETERIVNVPROC)eglGetProcAddress("glSemaphoreParameterivNV");
  if (create == NULL || set_type == NULL)
    return missing(host, "glCreateSemaphoresNV or glSemaphoreParameterivNV is missing");
  create(1, name);
  const GLint timeline = GL_SEMAPHORE_TYPE_TIMELINE_NV;
  if (*name != 0) set_type(*name, GL_SEMAPHORE_TYPE_NV, &timeline);
  return gl_check_error(host, "glSemaphoreParameterivNV(GL_SEMAPHORE_TYPE_TIMELINE_NV)");
}

tflaccel_status gl_semaphore_import(const tflaccel_host_services *host,
                                    const tflaccel_native_event *native, gl_semaphore *semaphore) {
  memset(semaphore, 0, sizeof *semaphore);
  if (!gl_has_extension("GL_EXT_semaphore_fd"))
    return missing(host, "the GLES driver lacks GL_EXT_semaphore_fd");
  PFNGLGENSEMAPHORESEXTPROC generate =
      (PFNGLGENSEMAPHORESEXTPROC)eglGetProcAddress("glGenSemaphoresEXT");
  PFNGLIMPORTSEMAPHOREFDEXTPROC import_fd =
      (PFNGLIMPORTSEMAPHOREFDEXTPROC)eglGetProcAddress("glImportSemaphoreFdEXT");
  semaphore->wait = (PFNGLWAITSEMAPHOREEXTPROC)eglGetProcAddress("glWaitSemaphoreEXT");
  semaphore->destroy = (PFNGLDELETESEMAPHORESEXTPROC)eglGetProcAddress("glDeleteSemaphoresEXT");
  semaphore->set_value =
      (PFNGLSEMAPHOREPARAMETERUI64VEXTPROC)eglGetProcAddress("glSemaphoreParameterui64vEXT");
  if (generate == NULL || import_fd == NULL || semaphore->wait == NULL ||
      semaphore->destroy == NULL || semaphore->set_value == NULL)
    return missing(host, "an entry point of GL_EXT_semaphore_fd is missing");
  if (native->handle > (uint64_t)INT32_MAX)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl: event_wrap: %llu is no file descriptor",
                             (unsigned long long)native->handle);
  gl_clear_errors();
  tflaccel_status status = NULL;
  if (native->value > 0)
    status = make_timeline(host, &semaphore->name);
  else
    generate(1, &semaphore->name);
  if (status == NULL && semaphore->name == 0)
    status = host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_gl: glGenSemaphoresEXT gave no name");
  if (status != NULL) {
    gl_semaphore_release(semaphore);
    return status;
  }
  int fd = dup((int)native->handle);
  if (fd < 0) {
    gl_semaphore_release(semaphore);
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_gl: event_wrap: fd %d: %s",
                             (int)native->handle, strerror(errno));
  }
  import_fd(semaphore->name, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
  status = gl_check_error(host, "glImportSemaphoreFdEXT");
  if (status != NULL) {
    close(fd); /* a failed import leaves the fd ours */
    gl_semaphore_release(semaphore);
    return status;
  }
  semaphore->value = native->value;
  return NULL;
}

tflaccel_status gl_semaphore_wait(const tflaccel_host_services *host,
                                  const gl_semaphore *semaphore) {
  if (semaphore->value > 0) {
    const GLuint64 value = semaphore->value;
    semaphore->set_value(semaphore->name, GL_TIMELINE_SEMAPHORE_VALUE_NV, &value);
  }
  semaphore->wait(semaphore->name, 0, NULL, 0, NULL, NULL);
  return gl_check_error(host, "glWaitSemaphoreEXT");
}

void gl_semaphore_release(gl_semaphore *semaphore) {
  if (semaphore->name != 0 && semaphore->destroy != NULL) semaphore->destroy(1, &semaphore->name);
  semaphore->name = 0;
}
