/* How long one fork-join of libpthreadpool takes with 1 and 2 threads: two
 * items of ~0.3 ms each, 200 times. Shows what cpu_xnnpack's 2-thread runs
 * pay per XNNPACK operator on a loaded machine (bench/RESULTS.md).
 *   cc -O2 bench/pthreadpool_forkjoin.c -o /tmp/forkjoin -lpthreadpool && /tmp/forkjoin */
#include <pthreadpool.h>
#include <stdio.h>
#include <time.h>

static volatile double sink;

static void work(void *context, size_t item) {
  (void)context;
  (void)item;
  double x = 0;
  for (int k = 0; k < 100000; k++) x += k * 1e-9;
  sink = x;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  for (size_t threads = 1; threads <= 2; threads++) {
    pthreadpool_t pool = pthreadpool_create(threads);
    if (pool == NULL) return 1;
    double start = now();
    for (int r = 0; r < 200; r++) pthreadpool_parallelize_1d(pool, work, NULL, 2, 0);
    printf("threads %zu: %.3f ms per fork-join of 2 items\n", threads,
           (now() - start) * 1000 / 200);
    pthreadpool_destroy(pool);
  }
  return 0;
}
