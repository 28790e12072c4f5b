/* A small fixed-size thread pool for cpu_ref's heavy kernels. */
#ifndef TFLACCEL_CPU_REF_THREAD_POOL_H
#define TFLACCEL_CPU_REF_THREAD_POOL_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

typedef struct cpu_thread_pool cpu_thread_pool;

/* fn(arg, begin, end) is called on disjoint sub-ranges covering [0, count). */
typedef void (*cpu_parallel_fn)(void *arg, int64_t begin, int64_t end);

tflaccel_status cpu_thread_pool_create(const tflaccel_host_services *host, int32_t thread_count,
                                       cpu_thread_pool **pool);
void cpu_thread_pool_destroy(cpu_thread_pool *pool);
int32_t cpu_thread_pool_size(const cpu_thread_pool *pool);
/* Splits [0, count) over the pool's threads (the caller works too) and
 * returns when all parts are done. Runs inline when the pool has one thread
 * or count is below min_chunk. */
void cpu_parallel_for(cpu_thread_pool *pool, int64_t count, int64_t min_chunk, cpu_parallel_fn fn,
                      void *arg);

#endif
