/* gpu_gl's events (gpu_backend.h's asynchronous calls), made, waited on
 * and destroyed on the device's worker thread like every GL call: a
 * tflaccel_event is a gl_event around a GLsync (a run's fence, owned; or
 * the application's, borrowed), the application's EGLSyncKHR (borrowed;
 * waited on with EGL_KHR_wait_sync, queried with EGL_KHR_fence_sync), or
 * the application's external semaphore (gl_semaphore.h): its wait is
 * queued at the event's first use (a run waiting on it, a CPU wait or
 * query, an export), followed by a fence that stands for it from then on,
 * so a binary semaphore is waited on once. Exports: the GLsync itself; an EGLSyncKHR
 * (EGL_KHR_fence_sync) or a sync_file fd (EGL_ANDROID_native_fence_sync),
 * each made at the first export as a fence of the context's commands so
 * far: signalled no earlier than the run's end (and no earlier than what
 * was queued after it before the export), owned by the event. */
#ifndef TFLACCEL_GPU_GL_GL_EVENT_H
#define TFLACCEL_GPU_GL_GL_EVENT_H

#include "plugins/gpu_gl/gl_api.h"
#include "plugins/gpu_gl/gl_semaphore.h"
#include "tflaccel/accelerator.h"

typedef struct gl_event {
  GLsync sync;      /* 0 for an application's EGLSyncKHR, and for a semaphore until its wait */
  int32_t borrowed; /* the application's GLsync */
  EGLDisplay display;
  EGLSyncKHR egl_sync;    /* made by the first EGL_SYNC export, else EGL_NO_SYNC_KHR */
  EGLSyncKHR native_sync; /* made by the first SYNC_FILE_FD export */
  int native_fd;          /* its fd, -1 until then */
  EGLSyncKHR wrapped_egl_sync; /* the application's (borrowed), else EGL_NO_SYNC_KHR */
  gl_semaphore semaphore;      /* the application's semaphore (name 0: none) */
} gl_event;

static inline gl_event *gl_event_of(tflaccel_event *event) { return (gl_event *)(void *)event; }
static inline tflaccel_event *gl_event_handle(gl_event *event) {
  return (tflaccel_event *)(void *)event;
}

/* A fence after every command queued so far, flushed. */
tflaccel_status gl_event_create(const tflaccel_host_services *host, EGLDisplay display,
                                gl_event **event);
void gl_event_destroy(const tflaccel_host_services *host, gl_event *event);
/* Makes the context's later commands wait for event on the GPU. */
tflaccel_status gl_event_wait_on_device(const tflaccel_host_services *host, gl_event *event);
tflaccel_status gl_event_wait(const tflaccel_host_services *host, gl_event *event);
tflaccel_status gl_event_query(const tflaccel_host_services *host, gl_event *event,
                               int32_t *signalled);
tflaccel_status gl_event_native(const tflaccel_host_services *host, gl_event *event, int32_t type,
                                tflaccel_native_event *native);
/* Borrows the application's GLsync (glIsSync checks it is one of the
 * context's share group) or EGLSyncKHR (eglGetSyncAttribKHR checks it is
 * one of display), or imports its semaphore fd (gl_semaphore.h). */
tflaccel_status gl_event_import(const tflaccel_host_services *host, EGLDisplay display,
                                const tflaccel_native_event *native, gl_event **event);

#endif
