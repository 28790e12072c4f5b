#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "tools/tflaccel/bench_memory.h"
#include "tools/tflaccel/peak_memory_monitor.h"

static void sample(peak_memory_monitor *monitor) {
  process_memory memory;
  tflaccel_status status = process_memory_read(&memory);
  if (status != NULL) {
    tflaccel_status_free(status);
    return;
  }
  if (memory.resident_kb > monitor->peak_kb) monitor->peak_kb = memory.resident_kb;
}

static void *monitor_main(void *untyped_monitor) {
  peak_memory_monitor *monitor = untyped_monitor;
  pthread_mutex_lock(&monitor->lock);
  while (!monitor->stop) {
    sample(monitor);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long long ns = (long long)until.tv_nsec + (long long)monitor->interval_ms * 1000000LL;
    until.tv_sec += (time_t)(ns / 1000000000LL);
    until.tv_nsec = (long)(ns % 1000000000LL);
    while (!monitor->stop &&
           pthread_cond_timedwait(&monitor->wake, &monitor->lock, &until) != ETIMEDOUT) {
    }
  }
  sample(monitor);
  pthread_mutex_unlock(&monitor->lock);
  return NULL;
}

tflaccel_status peak_memory_monitor_start(peak_memory_monitor *monitor, long interval_ms) {
  memset(monitor, 0, sizeof *monitor);
  monitor->interval_ms = interval_ms > 0 ? interval_ms : 1;
  monitor->peak_kb = -1;
  if (pthread_mutex_init(&monitor->lock, NULL) != 0)
    return tflaccel_status_make(TFLACCEL_INTERNAL, "peak memory monitor: no mutex");
  if (pthread_cond_init(&monitor->wake, NULL) != 0) {
    pthread_mutex_destroy(&monitor->lock);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "peak memory monitor: no condition variable");
  }
  int error = pthread_create(&monitor->thread, NULL, monitor_main, monitor);
  if (error != 0) {
    pthread_cond_destroy(&monitor->wake);
    pthread_mutex_destroy(&monitor->lock);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "peak memory monitor: no thread: %s",
                                strerror(error));
  }
  monitor->running = 1;
  return NULL;
}

int64_t peak_memory_monitor_stop(peak_memory_monitor *monitor) {
  if (!monitor->running) return -1;
  pthread_mutex_lock(&monitor->lock);
  monitor->stop = 1;
  pthread_cond_signal(&monitor->wake);
  pthread_mutex_unlock(&monitor->lock);
  pthread_join(monitor->thread, NULL);
  pthread_cond_destroy(&monitor->wake);
  pthread_mutex_destroy(&monitor->lock);
  monitor->running = 0;
  return monitor->peak_kb;
}
