/* A fixed set of worker threads that wait for one job at a time. A job is a
 * range split into chunks; the workers and the calling thread take chunks
 * until none is left, then the caller waits for every worker to finish. */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "plugins/cpu_ref/thread_pool.h"

/* Chunks per thread: some slack so uneven chunks still balance. */
#define CHUNKS_PER_THREAD 4
#define MAX_THREADS 256

struct cpu_thread_pool {
  const tflaccel_host_services *host;
  int32_t size; /* threads that work on a job, the caller included */
  int32_t worker_count;
  pthread_t *workers;
  pthread_mutex_t mutex;
  pthread_cond_t work_ready;
  pthread_cond_t work_done;
  uint64_t generation; /* bumped for every job */
  int stopping;
  /* The current job (guarded by mutex). */
  cpu_parallel_fn fn;
  void *arg;
  int64_t count, chunk_size, chunk_count, next_chunk;
  int32_t busy_workers;
};

/* Takes chunks of the current job until none is left; called with the mutex
 * held, returns with it held. */
static void run_chunks(cpu_thread_pool *pool) {
  while (pool->next_chunk < pool->chunk_count) {
    int64_t chunk = pool->next_chunk++;
    int64_t begin = chunk * pool->chunk_size;
    int64_t end = begin + pool->chunk_size;
    if (end > pool->count) end = pool->count;
    cpu_parallel_fn fn = pool->fn;
    void *arg = pool->arg;
    pthread_mutex_unlock(&pool->mutex);
    fn(arg, begin, end);
    pthread_mutex_lock(&pool->mutex);
  }
}

static void *worker_main(void *argument) {
  cpu_thread_pool *pool = argument;
  /* Generation 0 is the pool's state at creation: a worker that starts
   * after the first job was posted still sees that job as new. */
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    while (!pool->stopping && pool->generation == seen)
      pthread_cond_wait(&pool->work_ready, &pool->mutex);
    if (pool->stopping) break;
    seen = pool->generation;
    run_chunks(pool);
    if (--pool->busy_workers == 0) pthread_cond_signal(&pool->work_done);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

static void stop_workers(cpu_thread_pool *pool, int32_t started) {
  pthread_mutex_lock(&pool->mutex);
  pool->stopping = 1;
  pthread_cond_broadcast(&pool->work_ready);
  pthread_mutex_unlock(&pool->mutex);
  for (int32_t i = 0; i < started; i++) pthread_join(pool->workers[i], NULL);
}

tflaccel_status cpu_thread_pool_create(const tflaccel_host_services *host, int32_t thread_count,
                                       cpu_thread_pool **pool_out) {
  *pool_out = NULL;
  if (thread_count < 1) thread_count = 1;
  if (thread_count > MAX_THREADS) thread_count = MAX_THREADS;
  cpu_thread_pool *pool = host->alloc(host->context, sizeof *pool, 0);
  if (pool == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory for a thread pool");
  memset(pool, 0, sizeof *pool);
  pool->host = host;
  pool->size = thread_count;
  pool->worker_count = thread_count - 1;
  if (pthread_mutex_init(&pool->mutex, NULL) != 0) {
    host->free(host->context, pool);
    return host->status_make(TFLACCEL_INTERNAL, "cpu_ref: pthread_mutex_init failed");
  }
  if (pthread_cond_init(&pool->work_ready, NULL) != 0) {
    pthread_mutex_destroy(&pool->mutex);
    host->free(host->context, pool);
    return host->status_make(TFLACCEL_INTERNAL, "cpu_ref: pthread_cond_init failed");
  }
  if (pthread_cond_init(&pool->work_done, NULL) != 0) {
    pthread_cond_destroy(&pool->work_ready);
    pthread_mutex_destroy(&pool->mutex);
    host->free(host->context, pool);
    return host->status_make(TFLACCEL_INTERNAL, "cpu_ref: pthread_cond_init failed");
  }
  if (pool->worker_count > 0) {
    pool->workers = host->alloc(host->context, sizeof(pthread_t) * (size_t)pool->worker_count, 0);
    if (pool->workers == NULL) {
      pool->worker_count = 0;
      cpu_thread_pool_destroy(pool);
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory for %d threads",
                               thread_count);
    }
    for (int32_t i = 0; i < pool->worker_count; i++) {
      int error = pthread_create(&pool->workers[i], NULL, worker_main, pool);
      if (error != 0) {
        stop_workers(pool, i);
        pool->worker_count = 0;
        cpu_thread_pool_destroy(pool);
        return host->status_make(TFLACCEL_INTERNAL,
                                 "cpu_ref: could not start thread %d of %d: %s", i + 2,
                                 thread_count, strerror(error));
      }
    }
  }
  *pool_out = pool;
  return NULL;
}

void cpu_thread_pool_destroy(cpu_thread_pool *pool) {
  if (pool == NULL) return;
  const tflaccel_host_services *host = pool->host;
  if (pool->worker_count > 0) stop_workers(pool, pool->worker_count);
  pthread_cond_destroy(&pool->work_done);
  pthread_cond_destroy(&pool->work_ready);
  pthread_mutex_destroy(&pool->mutex);
  if (pool->workers != NULL) host->free(host->context, pool->workers);
  host->free(host->context, pool);
}

int32_t cpu_thread_pool_size(const cpu_thread_pool *pool) { return pool->size; }

void cpu_parallel_for(cpu_thread_pool *pool, int64_t count, int64_t min_chunk, cpu_parallel_fn fn,
                      void *arg) {
  if (count <= 0) return;
  if (min_chunk < 1) min_chunk = 1;
  if (pool->worker_count == 0 || count < 2 * min_chunk) {
    fn(arg, 0, count);
    return;
  }
  int64_t chunk_count = count / min_chunk;
  int64_t most = (int64_t)pool->size * CHUNKS_PER_THREAD;
  if (chunk_count > most) chunk_count = most;
  int64_t chunk_size = (count + chunk_count - 1) / chunk_count;
  chunk_count = (count + chunk_size - 1) / chunk_size;

  pthread_mutex_lock(&pool->mutex);
  pool->fn = fn;
  pool->arg = arg;
  pool->count = count;
  pool->chunk_size = chunk_size;
  pool->chunk_count = chunk_count;
  pool->next_chunk = 0;
  pool->busy_workers = pool->worker_count;
  pool->generation++;
  pthread_cond_broadcast(&pool->work_ready);
  run_chunks(pool);
  /* Every worker must have seen this job before the next one replaces it. */
  while (pool->busy_workers > 0) pthread_cond_wait(&pool->work_done, &pool->mutex);
  pthread_mutex_unlock(&pool->mutex);
}
