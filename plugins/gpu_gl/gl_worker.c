/* A device's GL thread (gl_worker.h). */
#include "config.h"

#include <string.h>
#include <time.h>

#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_worker.h"

/* How long each side of a job polls before it sleeps. A run is the core's
 * write of the inputs, the dispatches and a read per output: seven jobs
 * back to back, and waking a sleeping thread costs tens of microseconds
 * each way (with dispatches rebinding only what changed: pose_landmark_lite
 * 1.54 -> 1.38 ms on an H200). The caller polls as long as a run may take;
 * the worker, between jobs, as long as the core takes between the calls of
 * one run. */
#define CALLER_POLL_NS 5000000u
#define WORKER_POLL_NS 1000000u

uint64_t gl_monotonic_ns(void) {
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0;
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Polls until *count differs from seen or limit_ns pass; whether it did. */
static int poll_count(atomic_uint *count, unsigned seen, uint64_t limit_ns) {
  uint64_t start = gl_monotonic_ns();
  for (;;) {
    for (int i = 0; i < 64; ++i)
      if (atomic_load_explicit(count, memory_order_acquire) != seen) return 1;
    uint64_t now = gl_monotonic_ns();
    if (start == 0 || now == 0 || now - start > limit_ns) return 0;
  }
}

static void *worker_main(void *argument) {
  gl_worker *worker = argument;
  unsigned handled = 0;
  pthread_mutex_lock(&worker->lock);
  for (;;) {
    if (worker->job == NULL && !worker->stop) {
      /* The next job of a run comes soon: poll for it before sleeping. */
      pthread_mutex_unlock(&worker->lock);
      poll_count(&worker->posted, handled, WORKER_POLL_NS);
      pthread_mutex_lock(&worker->lock);
    }
    while (worker->job == NULL && !worker->stop) pthread_cond_wait(&worker->changed, &worker->lock);
    if (worker->stop) break;
    gl_job_function job = worker->job;
    void *job_argument = worker->argument;
    pthread_mutex_unlock(&worker->lock);
    tflaccel_status result = job(job_argument);
    pthread_mutex_lock(&worker->lock);
    worker->result = result;
    worker->job = NULL;
    worker->job_done = 1;
    handled = atomic_load_explicit(&worker->posted, memory_order_relaxed);
    atomic_store_explicit(&worker->finished, handled, memory_order_release);
    pthread_cond_broadcast(&worker->changed);
  }
  pthread_mutex_unlock(&worker->lock);
  /* The context must be current nowhere when it is destroyed. */
  const egl_device_context *context = worker->context;
  if (eglGetCurrentContext() != EGL_NO_CONTEXT &&
      !eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)) {
    tflaccel_status status = egl_call_failed(worker->host, "eglMakeCurrent(release)");
    worker->host->log(worker->host->context, TFLACCEL_LOG_WARNING, "gpu_gl worker: %s",
                      worker->host->status_message(status));
    worker->host->status_free(status);
  }
  eglReleaseThread();
  return NULL;
}

/* The first job: the context becomes current on the worker for good. */
static tflaccel_status make_current(void *argument) {
  gl_worker *worker = argument;
  if (!eglBindAPI(EGL_OPENGL_ES_API))
    return egl_call_failed(worker->host, "eglBindAPI(EGL_OPENGL_ES_API)");
  if (!eglMakeCurrent(worker->context->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                      worker->context->context))
    return egl_call_failed(worker->host, "eglMakeCurrent(no surface)");
  gl_clear_errors();
  return NULL;
}

tflaccel_status gl_worker_start(const tflaccel_host_services *host,
                                const egl_device_context *context, gl_worker *worker) {
  memset(worker, 0, sizeof *worker);
  worker->host = host;
  worker->context = context;
  if (pthread_mutex_init(&worker->lock, NULL) != 0)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl worker: pthread_mutex_init failed");
  worker->lock_made = 1;
  if (pthread_cond_init(&worker->changed, NULL) != 0) {
    gl_worker_stop(worker);
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl worker: pthread_cond_init failed");
  }
  worker->changed_made = 1;
  if (pthread_mutex_init(&worker->call_lock, NULL) != 0) {
    gl_worker_stop(worker);
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl worker: pthread_mutex_init failed");
  }
  worker->call_lock_made = 1;
  int error = pthread_create(&worker->thread, NULL, worker_main, worker);
  if (error != 0) {
    gl_worker_stop(worker);
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl worker: pthread_create failed: %s",
                             strerror(error));
  }
  worker->running = 1;
  tflaccel_status status = gl_worker_run(worker, make_current, worker);
  if (status != NULL) gl_worker_stop(worker);
  return status;
}

tflaccel_status gl_worker_run(gl_worker *worker, gl_job_function job, void *argument) {
  pthread_mutex_lock(&worker->call_lock);
  pthread_mutex_lock(&worker->lock);
  worker->job = job;
  worker->argument = argument;
  worker->job_done = 0;
  unsigned ticket = atomic_load_explicit(&worker->posted, memory_order_relaxed) + 1;
  atomic_store_explicit(&worker->posted, ticket, memory_order_release);
  pthread_cond_broadcast(&worker->changed);
  pthread_mutex_unlock(&worker->lock);
  poll_count(&worker->finished, ticket - 1, CALLER_POLL_NS);
  pthread_mutex_lock(&worker->lock);
  while (!worker->job_done) pthread_cond_wait(&worker->changed, &worker->lock);
  tflaccel_status result = worker->result;
  worker->result = NULL;
  pthread_mutex_unlock(&worker->lock);
  pthread_mutex_unlock(&worker->call_lock);
  return result;
}

void gl_worker_stop(gl_worker *worker) {
  if (worker->running) {
    pthread_mutex_lock(&worker->lock);
    worker->stop = 1;
    /* Ends the worker's polling too. */
    atomic_fetch_add_explicit(&worker->posted, 1, memory_order_release);
    pthread_cond_broadcast(&worker->changed);
    pthread_mutex_unlock(&worker->lock);
    int error = pthread_join(worker->thread, NULL);
    if (error != 0)
      worker->host->log(worker->host->context, TFLACCEL_LOG_WARNING,
                        "gpu_gl worker: pthread_join failed: %s", strerror(error));
    worker->running = 0;
  }
  if (worker->changed_made) pthread_cond_destroy(&worker->changed);
  if (worker->lock_made) pthread_mutex_destroy(&worker->lock);
  if (worker->call_lock_made) pthread_mutex_destroy(&worker->call_lock);
  worker->changed_made = worker->lock_made = worker->call_lock_made = 0;
}
