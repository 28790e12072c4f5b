#include "config.h"

#include <time.h>

#include "tools/tflaccel/bench_clock.h"

int64_t bench_clock_microseconds(void) {
  struct timespec now;
  /* CLOCK_MONOTONIC always exists on Linux; a failure could only come from
   * a bad pointer, so a zero reading is the only fallback needed. */
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0;
  return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}
