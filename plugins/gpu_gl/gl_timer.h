/* Per-dispatch GPU times for the plugin option profile = 1, from the
 * timer queries of GL_EXT_disjoint_timer_query (GLES has no core timer
 * queries). Where the context has a timestamp counter, a timestamp
 * (glQueryCounterEXT(GL_TIMESTAMP_EXT)) is written before a run's first
 * dispatch and one after each; else a GL_TIME_ELAPSED_EXT query brackets
 * each dispatch. Either way a dispatch's time runs from the moment every
 * earlier command is done to the moment it is done, so it includes the
 * glMemoryBarrier that gl_backend issues before it (and any idle time of
 * the GPU in between). llvmpipe returns 0 for elapsed time around compute
 * work but real timestamps, hence timestamps first. Query objects come
 * from one pool per device that grows to the longest run and is reused by
 * every run. A run during which the GPU reports a disjoint event
 * (GL_GPU_DISJOINT_EXT: a clock or power-state change, which makes its
 * counters meaningless) has its times discarded, with a warning. Every
 * function runs with the device's context current (its worker thread). */
#ifndef TFLACCEL_GPU_GL_GL_TIMER_H
#define TFLACCEL_GPU_GL_GL_TIMER_H

#include <stdint.h>

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

typedef struct gl_dispatch_timer {
  const tflaccel_host_services *host; /* NULL until init */
  int32_t use_timestamps;             /* else GL_TIME_ELAPSED_EXT queries */
  uint64_t timestamp_mask;            /* the counter's valid bits */
  PFNGLGENQUERIESEXTPROC gen_queries;
  PFNGLDELETEQUERIESEXTPROC delete_queries;
  PFNGLQUERYCOUNTEREXTPROC query_counter;
  PFNGLBEGINQUERYEXTPROC begin_query;
  PFNGLENDQUERYEXTPROC end_query;
  PFNGLGETQUERYOBJECTUI64VEXTPROC get_query_result;
  /* One host->alloc'ed block of capacity of each: the pool's query names,
   * their results, and the times (us) of the last run collected. */
  GLuint *queries;
  GLuint64 *results;
  double *times_us;
  uint32_t capacity;
  uint32_t queued;     /* queries issued by the current run */
  uint32_t dispatches; /* dispatches timed by the current run */
  uint32_t time_count; /* times of the last run collected */
} gl_dispatch_timer;

/* Checks that the current context has GL_EXT_disjoint_timer_query with a
 * usable counter and gets its entry points; else TFLACCEL_UNSUPPORTED
 * naming the option and what is missing. */
tflaccel_status gl_dispatch_timer_init(const tflaccel_host_services *host,
                                       gl_dispatch_timer *timer);
/* Deletes the pool; safe on a zeroed timer or after a failed init. */
void gl_dispatch_timer_release(gl_dispatch_timer *timer);

/* Just before a dispatch and its barrier are queued: room in the pool, and
 * the run's start (the disjoint flag is cleared, the first timestamp
 * written) or the dispatch's elapsed-time query begun. On failure nothing
 * was queued and the run's queries are forgotten. */
tflaccel_status gl_dispatch_timer_before(gl_dispatch_timer *timer);
/* Just after glDispatchCompute. */
void gl_dispatch_timer_after(gl_dispatch_timer *timer);
/* The run ends without its times (a dispatch or the finish failed): its
 * queries are forgotten, so that they never mix with the next run's, and
 * no times are left to read. */
void gl_dispatch_timer_drop_run(gl_dispatch_timer *timer);
/* After the run's fence: reads its queries into the times, or none when
 * the GPU reported a disjoint event; the next dispatch starts a run. */
tflaccel_status gl_dispatch_timer_collect(gl_dispatch_timer *timer);
/* The times of the last run collected, in queue order (*count of them, at
 * most capacity written). */
void gl_dispatch_timer_read(const gl_dispatch_timer *timer, double *microseconds,
                            uint32_t capacity, uint32_t *count);

#endif
