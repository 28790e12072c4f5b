/* Reference counts on EGL displays shared by every environment of the
 * process. eglGetPlatformDisplay returns the same EGLDisplay to each caller
 * in a process and eglInitialize/eglTerminate do not count, so one
 * environment's eglTerminate would end the contexts that every other
 * environment (or the application) still uses on that display. */
#ifndef TFLACCEL_GPU_GL_EGL_DISPLAY_REGISTRY_H
#define TFLACCEL_GPU_GL_EGL_DISPLAY_REGISTRY_H

#include <EGL/egl.h>

/* More displays than a machine has EGL devices and platforms. */
#define EGL_DISPLAY_REGISTRY_SIZE 32

/* What egl_display_acquire did. */
typedef enum egl_display_hold_result {
  EGL_DISPLAY_HELD = 0,
  EGL_DISPLAY_INIT_FAILED = 1, /* eglInitialize failed: eglGetError tells why */
  EGL_DISPLAY_REGISTRY_FULL = 2,
} egl_display_hold_result;

/* Holds display: eglInitialize for the first holder, a count for the
 * others; the version is the one the first initialization reported. */
egl_display_hold_result egl_display_acquire(EGLDisplay display, EGLint *major, EGLint *minor);

/* Drops one hold; the last one terminates the display, unless it was
 * initialized before tflaccel first took it (the application's). Returns
 * EGL_FALSE only when eglTerminate fails. */
EGLBoolean egl_display_release(EGLDisplay display);

#endif
