/* The thread that owns a device's GLES context. A GL context is current on
 * one thread at a time and its state belongs to that thread, while the
 * core may call a device from any thread: every GL call of a device runs
 * as a job on its worker, where the context stays current from start to
 * stop, and the calling thread waits for the job's status. No thread of
 * the application ever has the plugin's context current. */
#ifndef TFLACCEL_GPU_GL_GL_WORKER_H
#define TFLACCEL_GPU_GL_GL_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "plugins/gpu_gl/egl_context.h"
#include "tflaccel/accelerator.h"

typedef tflaccel_status (*gl_job_function)(void *argument);

typedef struct gl_worker {
  const tflaccel_host_services *host;
  const egl_device_context *context;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed; /* a job was posted or finished, or stop asked */
  gl_job_function job;    /* the posted job, NULL when none */
  void *argument;
  tflaccel_status result;
  int job_done, stop;
  /* Jobs posted and finished so far: each side polls the other's count for
   * a while before it sleeps on the condition variable (gl_worker.c). */
  atomic_uint posted, finished;
  /* Held by a caller from posting its job to taking its status: the
   * event calls (accelerator.h, ABI 1.2) come from any thread while the
   * core makes its serialized calls from another. */
  pthread_mutex_t call_lock;
  int lock_made, changed_made, call_lock_made, running;
} gl_worker;

/* Starts the thread and makes context current on it; the status says
 * whether that worked. */
tflaccel_status gl_worker_start(const tflaccel_host_services *host,
                                const egl_device_context *context, gl_worker *worker);
/* Runs job(argument) on the worker and returns its status; callers on
 * several threads take turns. */
tflaccel_status gl_worker_run(gl_worker *worker, gl_job_function job, void *argument);
/* Releases the context from the thread and joins it; safe after a failed
 * start. */
void gl_worker_stop(gl_worker *worker);

/* CLOCK_MONOTONIC in nanoseconds, 0 if the clock fails (the pollers then
 * stop polling). */
uint64_t gl_monotonic_ns(void);

#endif
