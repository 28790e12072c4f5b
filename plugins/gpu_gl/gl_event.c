/* gpu_gl's events (gl_event.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_native_event.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_event.h"

/* glClientWaitSync waits this long at a time (nanoseconds). */
#define WAIT_SLICE_NS 1000000000ull

static gl_event *new_event(const tflaccel_host_services *host, EGLDisplay display, GLsync sync,
                           int32_t borrowed) {
  gl_event *event = host->alloc(host->context, sizeof *event, _Alignof(gl_event));
  if (event == NULL) return NULL;
  memset(event, 0, sizeof *event);
  event->sync = sync;
  event->borrowed = borrowed;
  event->display = display;
  event->egl_sync = EGL_NO_SYNC_KHR;
  event->native_sync = EGL_NO_SYNC_KHR;
  event->native_fd = -1;
  event->wrapped_egl_sync = EGL_NO_SYNC_KHR;
  return event;
}

/* A fence after every command queued so far, flushed. */
static tflaccel_status make_fence(const tflaccel_host_services *host, GLsync *fence) {
  *fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (*fence == 0) {
    tflaccel_status status = gl_check_error(host, "glFenceSync");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glFenceSync gave no fence");
  }
  /* Without a flush the GPU might never see the fence's commands. */
  glFlush();
  return NULL;
}

/* An application's semaphore at its first use: its wait is queued, then a
 * fence that stands for it from then on. */
static tflaccel_status queue_semaphore_wait(const tflaccel_host_services *host, gl_event *event) {
  if (event->semaphore.name == 0 || event->sync != 0) return NULL;
  tflaccel_status status = gl_semaphore_wait(host, &event->semaphore);
  if (status == NULL) status = make_fence(host, &event->sync);
  return status;
}

tflaccel_status gl_event_create(const tflaccel_host_services *host, EGLDisplay display,
                                gl_event **event) {
  *event = NULL;
  GLsync sync = 0;
  tflaccel_status status = make_fence(host, &sync);
  if (status != NULL) return status;
  *event = new_event(host, display, sync, 0);
  if (*event == NULL) {
    glDeleteSync(sync);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (event)");
  }
  return NULL;
}

void gl_event_destroy(const tflaccel_host_services *host, gl_event *event) {
  if (event == NULL) return;
  if (!event->borrowed && event->sync != 0) glDeleteSync(event->sync);
  gl_semaphore_release(&event->semaphore);
  PFNEGLDESTROYSYNCKHRPROC destroy_sync =
      (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
  if (destroy_sync != NULL && event->egl_sync != EGL_NO_SYNC_KHR)
    destroy_sync(event->display, event->egl_sync);
  if (destroy_sync != NULL && event->native_sync != EGL_NO_SYNC_KHR)
    destroy_sync(event->display, event->native_sync);
  if (event->native_fd >= 0) close(event->native_fd);
  host->free(host->context, event);
}

tflaccel_status gl_event_wait_on_device(const tflaccel_host_services *host, gl_event *event) {
  if (event->wrapped_egl_sync != EGL_NO_SYNC_KHR) {
    PFNEGLWAITSYNCKHRPROC wait_sync = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress("eglWaitSyncKHR");
    if (wait_sync == NULL)
      return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: eglWaitSyncKHR is missing");
    if (wait_sync(event->display, event->wrapped_egl_sync, 0) != EGL_TRUE)
      return egl_call_failed(host, "eglWaitSyncKHR");
    return NULL;
  }
  tflaccel_status status = queue_semaphore_wait(host, event);
  if (status != NULL) return status;
  glWaitSync(event->sync, 0, GL_TIMEOUT_IGNORED);
  return NULL;
}

/* eglClientWaitSyncKHR on the application's EGLSyncKHR, a slice at a time. */
static tflaccel_status wait_egl_sync(const tflaccel_host_services *host, const gl_event *event) {
  PFNEGLCLIENTWAITSYNCKHRPROC client_wait =
      (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
  if (client_wait == NULL)
    return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: eglClientWaitSyncKHR is missing");
  EGLint waited = client_wait(event->display, event->wrapped_egl_sync,
                              EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, WAIT_SLICE_NS);
  while (waited == EGL_TIMEOUT_EXPIRED_KHR)
    waited = client_wait(event->display, event->wrapped_egl_sync, 0, WAIT_SLICE_NS);
  return waited == EGL_CONDITION_SATISFIED_KHR ? NULL
                                               : egl_call_failed(host, "eglClientWaitSyncKHR");
}

tflaccel_status gl_event_wait(const tflaccel_host_services *host, gl_event *event) {
  if (event->wrapped_egl_sync != EGL_NO_SYNC_KHR) return wait_egl_sync(host, event);
  tflaccel_status status = queue_semaphore_wait(host, event);
  if (status != NULL) return status;
  GLenum waited = glClientWaitSync(event->sync, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
  while (waited == GL_TIMEOUT_EXPIRED) waited = glClientWaitSync(event->sync, 0, WAIT_SLICE_NS);
  if (waited != GL_WAIT_FAILED) return NULL;
  status = gl_check_error(host, "glClientWaitSync");
  return status != NULL ? status
                        : host->status_make(TFLACCEL_BACKEND_ERROR, "glClientWaitSync failed");
}

tflaccel_status gl_event_query(const tflaccel_host_services *host, gl_event *event,
                               int32_t *signalled) {
  *signalled = 0;
  if (event->wrapped_egl_sync != EGL_NO_SYNC_KHR) {
    PFNEGLGETSYNCATTRIBKHRPROC get_attribute =
        (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
    if (get_attribute == NULL)
      return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: eglGetSyncAttribKHR is missing");
    EGLint value = EGL_UNSIGNALED_KHR;
    if (get_attribute(event->display, event->wrapped_egl_sync, EGL_SYNC_STATUS_KHR, &value) !=
        EGL_TRUE)
      return egl_call_failed(host, "eglGetSyncAttribKHR(EGL_SYNC_STATUS_KHR)");
    *signalled = value == EGL_SIGNALED_KHR;
    return NULL;
  }
  tflaccel_status status = queue_semaphore_wait(host, event);
  if (status != NULL) return status;
  GLint value = GL_UNSIGNALED;
  glGetSynciv(event->sync, GL_SYNC_STATUS, 1, NULL, &value);
  *signalled = value == GL_SIGNALED;
  return gl_check_error(host, "glGetSynciv(GL_SYNC_STATUS)");
}

static int has_egl_extension(EGLDisplay display, const char *name) {
  const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
  size_t length = strlen(name);
  for (const char *at = extensions; at != NULL && (at = strstr(at, name)) != NULL; at += length)
    if ((at == extensions || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0')) return 1;
  return 0;
}

/* A fence sync of the context's commands so far (type: EGL_SYNC_FENCE_KHR
 * or EGL_SYNC_NATIVE_FENCE_ANDROID), flushed. */
static tflaccel_status make_egl_sync(const tflaccel_host_services *host, EGLDisplay display,
                                     EGLenum type, EGLSyncKHR *sync) {
  PFNEGLCREATESYNCKHRPROC create_sync =
      (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
  if (create_sync == NULL)
    return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: eglCreateSyncKHR is missing");
  *sync = create_sync(display, type, NULL);
  if (*sync == EGL_NO_SYNC_KHR)
    return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_gl: eglCreateSyncKHR failed: 0x%04x",
                             (unsigned)eglGetError());
  glFlush();
  return NULL;
}

tflaccel_status gl_event_native(const tflaccel_host_services *host, gl_event *event, int32_t type,
                                tflaccel_native_event *native) {
  *native = (tflaccel_native_event){.struct_size = sizeof *native, .type = type};
  if (event->wrapped_egl_sync != EGL_NO_SYNC_KHR) {
    if (type != TFLACCEL_NATIVE_EVENT_NONE && type != TFLACCEL_NATIVE_EVENT_EGL_SYNC)
      return gpu_native_event_unsupported(host, "gpu_gl", type,
                                          "an application's EGLSyncKHR exports as itself only");
    native->type = TFLACCEL_NATIVE_EVENT_EGL_SYNC;
    native->handle = (uint64_t)(uintptr_t)event->wrapped_egl_sync;
    return NULL;
  }
  tflaccel_status status = queue_semaphore_wait(host, event);
  if (status != NULL) return status;
  if (type == TFLACCEL_NATIVE_EVENT_NONE || type == TFLACCEL_NATIVE_EVENT_GL_SYNC) {
    native->type = TFLACCEL_NATIVE_EVENT_GL_SYNC;
    native->handle = (uint64_t)(uintptr_t)event->sync;
    return NULL;
  }
  if (type == TFLACCEL_NATIVE_EVENT_EGL_SYNC) {
    if (!has_egl_extension(event->display, "EGL_KHR_fence_sync"))
      return gpu_native_event_unsupported(host, "gpu_gl", type,
                                          "the EGL display lacks EGL_KHR_fence_sync");
    if (event->egl_sync == EGL_NO_SYNC_KHR) {
      status = make_egl_sync(host, event->display, EGL_SYNC_FENCE_KHR, &event->egl_sync);
      if (status != NULL) return status;
    }
    native->handle = (uint64_t)(uintptr_t)event->egl_sync;
    return NULL;
  }
  if (type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD) {
    if (!has_egl_extension(event->display, "EGL_ANDROID_native_fence_sync"))
      return gpu_native_event_unsupported(host, "gpu_gl", type,
                                          "the EGL display lacks EGL_ANDROID_native_fence_sync");
    if (event->native_fd < 0) {
      PFNEGLDUPNATIVEFENCEFDANDROIDPROC dup_fd =
          (PFNEGLDUPNATIVEFENCEFDANDROIDPROC)eglGetProcAddress("eglDupNativeFenceFDANDROID");
      if (dup_fd == NULL)
        return gpu_native_event_unsupported(host, "gpu_gl", type,
                                            "eglDupNativeFenceFDANDROID is missing");
      if (event->native_sync == EGL_NO_SYNC_KHR) {
        status = make_egl_sync(host, event->display, EGL_SYNC_NATIVE_FENCE_ANDROID,
                                               &event->native_sync);
        if (status != NULL) return status;
      }
      event->native_fd = dup_fd(event->display, event->native_sync);
      if (event->native_fd < 0)
        return host->status_make(TFLACCEL_BACKEND_ERROR,
                                 "gpu_gl: eglDupNativeFenceFDANDROID failed: 0x%04x",
                                 (unsigned)eglGetError());
    }
    native->handle = (uint64_t)event->native_fd;
    return NULL;
  }
  return gpu_native_event_unsupported(host, "gpu_gl", type,
                                      "GLES events export as GLsync, EGLSyncKHR or sync_file fd");
}

static tflaccel_status import_gl_sync(const tflaccel_host_services *host, EGLDisplay display,
                                     const tflaccel_native_event *native, gl_event **event) {
  GLsync sync = (GLsync)(uintptr_t)native->handle;
  if (!glIsSync(sync))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl: event_wrap: not a GLsync of the accelerator's share group");
  *event = new_event(host, display, sync, 1);
  return NULL;
}

/* eglGetSyncAttribKHR fails (EGL_BAD_PARAMETER) for a handle that is no
 * sync object of display: another display's sync, or none. */
static tflaccel_status import_egl_sync(const tflaccel_host_services *host, EGLDisplay display,
                                       const tflaccel_native_event *native, gl_event **event) {
  if (!has_egl_extension(display, "EGL_KHR_fence_sync") ||
      !has_egl_extension(display, "EGL_KHR_wait_sync"))
    return gpu_native_event_unsupported(
        host, "gpu_gl", native->type,
        "the EGL display lacks EGL_KHR_fence_sync or EGL_KHR_wait_sync");
  PFNEGLGETSYNCATTRIBKHRPROC get_attribute =
      (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
  if (get_attribute == NULL)
    return gpu_native_event_unsupported(host, "gpu_gl", native->type,
                                        "eglGetSyncAttribKHR is missing");
  EGLSyncKHR sync = (EGLSyncKHR)(uintptr_t)native->handle;
  EGLint type = 0;
  if (get_attribute(display, sync, EGL_SYNC_TYPE_KHR, &type) != EGL_TRUE) {
    EGLint error = eglGetError();
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl: event_wrap: not an EGLSyncKHR of the accelerator's "
                             "EGLDisplay (eglGetSyncAttribKHR: 0x%04x)",
                             (unsigned)error);
  }
  *event = new_event(host, display, 0, 1);
  if (*event != NULL) (*event)->wrapped_egl_sync = sync;
  return NULL;
}

static tflaccel_status import_semaphore(const tflaccel_host_services *host, EGLDisplay display,
                                        const tflaccel_native_event *native, gl_event **event) {
  gl_semaphore semaphore;
  tflaccel_status status = gl_semaphore_import(host, native, &semaphore);
  if (status != NULL) return status;
  *event = new_event(host, display, 0, 0);
  if (*event == NULL)
    gl_semaphore_release(&semaphore);
  else
    (*event)->semaphore = semaphore;
  return NULL;
}

tflaccel_status gl_event_import(const tflaccel_host_services *host, EGLDisplay display,
                                const tflaccel_native_event *native, gl_event **event) {
  *event = NULL;
  tflaccel_status status = gpu_native_event_check(host, "gpu_gl", native);
  if (status != NULL) return status;
  switch (native->type) {
    case TFLACCEL_NATIVE_EVENT_GL_SYNC: status = import_gl_sync(host, display, native, event); break;
    case TFLACCEL_NATIVE_EVENT_EGL_SYNC: status = import_egl_sync(host, display, native, event); break;
    case TFLACCEL_NATIVE_EVENT_OPAQUE_FD:
      status = import_semaphore(host, display, native, event);
      break;
    default:
      return gpu_native_event_unsupported(
          host, "gpu_gl", native->type,
          "gpu_gl waits on GLsync, EGLSyncKHR and opaque semaphore fds only");
  }
  if (status != NULL) return status;
  return *event != NULL ? NULL
                        : host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (event)");
}
