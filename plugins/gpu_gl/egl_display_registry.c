/* The process-wide hold counts on EGL displays (egl_display_registry.h).
 * Like the plugin registry, this table is global because what it counts,
 * an initialized EGLDisplay, is global to the process. */
#include "config.h"

#include <pthread.h>

#include "plugins/gpu_gl/egl_display_registry.h"

typedef struct display_hold {
  EGLDisplay display;
  unsigned holds;
  int owned; /* tflaccel initialized it, so the last release terminates it */
  EGLint major, minor;
} display_hold;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static display_hold registry[EGL_DISPLAY_REGISTRY_SIZE];

static display_hold *find_hold(EGLDisplay display) {
  for (unsigned i = 0; i < EGL_DISPLAY_REGISTRY_SIZE; ++i)
    if (registry[i].holds > 0 && registry[i].display == display) return &registry[i];
  return NULL;
}

egl_display_hold_result egl_display_acquire(EGLDisplay display, EGLint *major, EGLint *minor) {
  pthread_mutex_lock(&registry_lock);
  display_hold *hold = find_hold(display);
  if (hold != NULL) {
    hold->holds++;
    *major = hold->major;
    *minor = hold->minor;
    pthread_mutex_unlock(&registry_lock);
    return EGL_DISPLAY_HELD;
  }
  for (unsigned i = 0; i < EGL_DISPLAY_REGISTRY_SIZE && hold == NULL; ++i)
    if (registry[i].holds == 0) hold = &registry[i];
  if (hold == NULL) {
    pthread_mutex_unlock(&registry_lock);
    return EGL_DISPLAY_REGISTRY_FULL;
  }
  /* A display that answers a query is already initialized by someone else:
   * initializing it again only returns its version, and it is not ours to
   * terminate. */
  int owned = eglQueryString(display, EGL_VENDOR) == NULL;
  EGLint got_major = 0, got_minor = 0;
  if (!eglInitialize(display, &got_major, &got_minor)) {
    pthread_mutex_unlock(&registry_lock);
    return EGL_DISPLAY_INIT_FAILED;
  }
  *hold = (display_hold){display, 1, owned, got_major, got_minor};
  *major = got_major;
  *minor = got_minor;
  pthread_mutex_unlock(&registry_lock);
  return EGL_DISPLAY_HELD;
}

EGLBoolean egl_display_release(EGLDisplay display) {
  pthread_mutex_lock(&registry_lock);
  display_hold *hold = find_hold(display);
  EGLBoolean result = EGL_TRUE;
  if (hold != NULL && --hold->holds == 0 && hold->owned) result = eglTerminate(display);
  pthread_mutex_unlock(&registry_lock);
  return result;
}
