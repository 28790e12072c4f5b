/* GL timer queries around the dispatches (gl_timer.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_probe.h"
#include "plugins/gpu_gl/gl_timer.h"

#define TIMER_EXTENSION "GL_EXT_disjoint_timer_query"
/* The pool's first size: most partitions have fewer dispatches. */
#define FIRST_CAPACITY 64
/* glGenQueriesEXT counts in GLsizei. */
#define MAX_CAPACITY 0x7fffffffu
/* The pool block holds 64-bit results and doubles, then query names. */
#define BLOCK_ALIGNMENT \
  (_Alignof(GLuint64) > _Alignof(double) ? _Alignof(GLuint64) : _Alignof(double))

/* GL_QUERY_COUNTER_BITS_EXT of target; 0 where the driver rejects the
 * target (an early revision of the extension had no timestamps). */
static GLint counter_bits(PFNGLGETQUERYIVEXTPROC get_query, GLenum target) {
  GLint bits = 0;
  gl_clear_errors();
  get_query(target, GL_QUERY_COUNTER_BITS_EXT, &bits);
  if (glGetError() != GL_NO_ERROR) bits = 0;
  gl_clear_errors();
  return bits > 0 ? bits : 0;
}

tflaccel_status gl_dispatch_timer_init(const tflaccel_host_services *host,
                                       gl_dispatch_timer *timer) {
  memset(timer, 0, sizeof *timer);
  timer->host = host;
  const GLubyte *renderer_name = glGetString(GL_RENDERER);
  const char *renderer = renderer_name != NULL ? (const char *)renderer_name : "the GLES context";
  if (!gl_has_extension(TIMER_EXTENSION))
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "gpu_gl option profile=1: %s cannot time dispatches: it lacks "
                             "%s (GLES timer queries)",
                             renderer, TIMER_EXTENSION);
  /* eglGetProcAddress may answer for any name, so the extension string
   * decides; a NULL here is a broken driver. */
  PFNGLGETQUERYIVEXTPROC get_query = (PFNGLGETQUERYIVEXTPROC)eglGetProcAddress("glGetQueryivEXT");
  timer->gen_queries = (PFNGLGENQUERIESEXTPROC)eglGetProcAddress("glGenQueriesEXT");
  timer->delete_queries = (PFNGLDELETEQUERIESEXTPROC)eglGetProcAddress("glDeleteQueriesEXT");
  timer->query_counter = (PFNGLQUERYCOUNTEREXTPROC)eglGetProcAddress("glQueryCounterEXT");
  timer->begin_query = (PFNGLBEGINQUERYEXTPROC)eglGetProcAddress("glBeginQueryEXT");
  timer->end_query = (PFNGLENDQUERYEXTPROC)eglGetProcAddress("glEndQueryEXT");
  timer->get_query_result =
      (PFNGLGETQUERYOBJECTUI64VEXTPROC)eglGetProcAddress("glGetQueryObjectui64vEXT");
  const char *missing = NULL;
  if (get_query == NULL) missing = "glGetQueryivEXT";
  else if (timer->gen_queries == NULL) missing = "glGenQueriesEXT";
  else if (timer->delete_queries == NULL) missing = "glDeleteQueriesEXT";
  else if (timer->begin_query == NULL) missing = "glBeginQueryEXT";
  else if (timer->end_query == NULL) missing = "glEndQueryEXT";
  else if (timer->get_query_result == NULL) missing = "glGetQueryObjectui64vEXT";
  if (missing != NULL)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "gpu_gl option profile=1: %s lists %s but eglGetProcAddress has no %s",
                             renderer, TIMER_EXTENSION, missing);
  GLint timestamp_bits =
      timer->query_counter != NULL ? counter_bits(get_query, GL_TIMESTAMP_EXT) : 0;
  GLint elapsed_bits = counter_bits(get_query, GL_TIME_ELAPSED_EXT);
  if (timestamp_bits == 0 && elapsed_bits == 0)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "gpu_gl option profile=1: %s cannot time dispatches: %s has no "
                             "timestamp or time-elapsed counter (0 bits)",
                             renderer, TIMER_EXTENSION);
  timer->use_timestamps = timestamp_bits > 0;
  timer->timestamp_mask = timestamp_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << timestamp_bits) - 1;
  host->log(host->context, TFLACCEL_LOG_DEBUG,
            "gpu_gl: profile = 1: timing dispatches with %s (%d bits)",
            timer->use_timestamps ? "GL timestamps" : "GL time-elapsed queries",
            (int)(timer->use_timestamps ? timestamp_bits : elapsed_bits));
  return NULL;
}

void gl_dispatch_timer_release(gl_dispatch_timer *timer) {
  const tflaccel_host_services *host = timer->host;
  if (host == NULL) return;
  if (timer->capacity > 0) timer->delete_queries((GLsizei)timer->capacity, timer->queries);
  if (timer->results != NULL) host->free(host->context, timer->results);
  memset(timer, 0, sizeof *timer);
}

/* Room for needed queries (and as many times): the pool only grows, and
 * the names it has keep their places. */
static tflaccel_status reserve(gl_dispatch_timer *timer, uint32_t needed) {
  const tflaccel_host_services *host = timer->host;
  if (needed <= timer->capacity) return NULL;
  uint64_t capacity = timer->capacity ? (uint64_t)timer->capacity * 2 : FIRST_CAPACITY;
  if (capacity < needed) capacity = needed;
  if (capacity > MAX_CAPACITY) capacity = MAX_CAPACITY;
  if (capacity < needed)
    return host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: profile: %u timer queries in a run",
                             (unsigned)needed);
  size_t size = (size_t)capacity * (sizeof(GLuint64) + sizeof(double) + sizeof(GLuint));
  unsigned char *block = host->alloc(host->context, size, BLOCK_ALIGNMENT);
  if (block == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (timer queries)");
  GLuint64 *results = (GLuint64 *)block;
  double *times_us = (double *)(results + capacity);
  GLuint *queries = (GLuint *)(times_us + capacity);
  if (timer->capacity > 0) {
    memcpy(queries, timer->queries, timer->capacity * sizeof *queries);
    memcpy(times_us, timer->times_us, timer->time_count * sizeof *times_us);
    host->free(host->context, timer->results);
  }
  timer->gen_queries((GLsizei)(capacity - timer->capacity), queries + timer->capacity);
  timer->results = results;
  timer->times_us = times_us;
  timer->queries = queries;
  timer->capacity = (uint32_t)capacity;
  return NULL;
}

tflaccel_status gl_dispatch_timer_before(gl_dispatch_timer *timer) {
  int starting = timer->queued == 0;
  tflaccel_status status =
      reserve(timer, timer->queued + (starting && timer->use_timestamps ? 2 : 1));
  if (status != NULL) {
    gl_dispatch_timer_drop_run(timer);
    return status;
  }
  if (starting) {
    /* Reading the flag clears it: what collect reads is this run's. */
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    if (timer->use_timestamps)
      timer->query_counter(timer->queries[timer->queued++], GL_TIMESTAMP_EXT);
  }
  if (!timer->use_timestamps)
    timer->begin_query(GL_TIME_ELAPSED_EXT, timer->queries[timer->queued]);
  return NULL;
}

void gl_dispatch_timer_after(gl_dispatch_timer *timer) {
  if (timer->use_timestamps)
    timer->query_counter(timer->queries[timer->queued], GL_TIMESTAMP_EXT);
  else
    timer->end_query(GL_TIME_ELAPSED_EXT);
  timer->queued++;
  timer->dispatches++;
}

void gl_dispatch_timer_drop_run(gl_dispatch_timer *timer) {
  /* Queries still in flight are simply reissued by the next run, which
   * GL allows: a query's result is that of its last use. */
  timer->queued = 0;
  timer->dispatches = 0;
  timer->time_count = 0;
}

tflaccel_status gl_dispatch_timer_collect(gl_dispatch_timer *timer) {
  const tflaccel_host_services *host = timer->host;
  uint32_t queued = timer->queued, dispatches = timer->dispatches;
  gl_dispatch_timer_drop_run(timer);
  if (dispatches == 0) return NULL;
  gl_clear_errors();
  /* The fence has passed: the results are there, no wait. */
  for (uint32_t i = 0; i < queued; ++i)
    timer->get_query_result(timer->queries[i], GL_QUERY_RESULT_EXT, &timer->results[i]);
  GLint disjoint = 0;
  glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
  tflaccel_status status = gl_check_error(host, "reading the timer queries");
  if (status != NULL) return status;
  if (disjoint) {
    host->log(host->context, TFLACCEL_LOG_WARNING,
              "gpu_gl: profile: the GPU reported a disjoint event (GL_GPU_DISJOINT_EXT) during "
              "a run: the times of its %u dispatches are meaningless and discarded",
              (unsigned)dispatches);
    return NULL;
  }
  for (uint32_t i = 0; i < dispatches; ++i) {
    /* Timestamps: masking the difference to the valid bits survives a
     * wrap of the counter. Both are in nanoseconds. */
    GLuint64 nanoseconds = timer->use_timestamps
                               ? (timer->results[i + 1] - timer->results[i]) & timer->timestamp_mask
                               : timer->results[i];
    timer->times_us[i] = (double)nanoseconds / 1000.0;
  }
  timer->time_count = dispatches;
  return NULL;
}

void gl_dispatch_timer_read(const gl_dispatch_timer *timer, double *microseconds,
                            uint32_t capacity, uint32_t *count) {
  uint32_t copied = timer->time_count < capacity ? timer->time_count : capacity;
  if (copied > 0) memcpy(microseconds, timer->times_us, copied * sizeof *microseconds);
  *count = timer->time_count;
}
