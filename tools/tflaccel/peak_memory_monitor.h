/* benchmark_model's --report_peak_memory_footprint: a thread that reads the
 * process's resident size every interval and keeps the highest. */
#ifndef TFLACCEL_TOOLS_PEAK_MEMORY_MONITOR_H
#define TFLACCEL_TOOLS_PEAK_MEMORY_MONITOR_H

#include <pthread.h>
#include <stdint.h>

#include "tflaccel/status.h"

typedef struct peak_memory_monitor {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  int running, stop;
  long interval_ms;
  int64_t peak_kb; /* highest VmRSS seen, -1 when none was read */
} peak_memory_monitor;

tflaccel_status peak_memory_monitor_start(peak_memory_monitor *monitor, long interval_ms);
/* Stops the thread; returns the peak in kB (-1 when unknown). */
int64_t peak_memory_monitor_stop(peak_memory_monitor *monitor);

#endif
