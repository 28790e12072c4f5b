/* gpu_gl's view of EGL: displays found without any window system, and the
 * OpenGL ES 3.1 contexts that buffers and kernels use.
 *
 * Displays are tried in this order: every EGL device
 * (EGL_EXT_device_enumeration + EGL_EXT_platform_device), then, when no
 * device served, the Mesa surfaceless platform, then the default display. A
 * display counts when it gives a GLES 3.1 context, current without a surface
 * (EGL_KHR_surfaceless_context), that compiles and runs a compute shader.
 *
 * GL state belongs to the thread a context is current on, and the core may
 * call from any thread: a device's context is current only on its worker
 * thread (gl_worker.h); the probes of the scan bracket their temporary
 * contexts by egl_current_enter/leave on the calling thread, which restore
 * whatever that thread had current before. */
#ifndef TFLACCEL_GPU_GL_EGL_CONTEXT_H
#define TFLACCEL_GPU_GL_EGL_CONTEXT_H

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

typedef struct egl_display_entry {
  EGLDisplay display;                  /* initialized; terminated by egl_display_list_release */
  EGLConfig config;                    /* EGL_NO_CONFIG_KHR when the display needs none */
  int32_t has_minor_version_attribute; /* EGL 1.5 or EGL_KHR_create_context */
  char origin[96]; /* where it came from, for messages: "EGL device 0 (software)" */
  tflaccel_device_info info;
} egl_display_entry;

typedef struct egl_display_list {
  egl_display_entry *entries; /* host->alloc'ed; count entries */
  uint32_t count;
} egl_display_list;

/* Finds the displays that can run GLES 3.1 compute, real GPUs first. When
 * none can, the status says what each attempt found: TFLACCEL_UNAVAILABLE
 * when no driver got as far as a GLES 3.1 context, else the first driver
 * failure. Leaves the calling thread's current context as it was. */
tflaccel_status egl_display_list_scan(const tflaccel_host_services *host, egl_display_list *list);
void egl_display_list_release(const tflaccel_host_services *host, egl_display_list *list);

typedef struct egl_device_context {
  EGLDisplay display;
  EGLContext context; /* GLES 3.1, no surface, current on the device's worker only */
} egl_device_context;

tflaccel_status egl_device_context_create(const tflaccel_host_services *host,
                                          const egl_display_entry *entry,
                                          egl_device_context *context);
void egl_device_context_release(const tflaccel_host_services *host, egl_device_context *context);

/* What the calling thread had current for OpenGL ES (and which API it had
 * bound) before egl_current_enter. */
typedef struct egl_current {
  EGLenum api;
  EGLDisplay display;
  EGLSurface draw, read;
  EGLContext context;
  const egl_device_context *entered;
} egl_current;

/* Makes context current on the calling thread (with no surface). */
tflaccel_status egl_current_enter(const tflaccel_host_services *host,
                                  const egl_device_context *context, egl_current *saved);
/* Gives the thread back what it had current before enter. */
tflaccel_status egl_current_leave(const tflaccel_host_services *host, const egl_current *saved);

#endif
