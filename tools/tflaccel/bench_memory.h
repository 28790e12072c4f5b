/* The process's memory as the kernel counts it (/proc/self/status), for
 * benchmark_model's "memory footprint delta" lines. */
#ifndef TFLACCEL_TOOLS_BENCH_MEMORY_H
#define TFLACCEL_TOOLS_BENCH_MEMORY_H

#include <stdint.h>

#include "tflaccel/status.h"

typedef struct process_memory {
  int64_t resident_kb;      /* VmRSS: resident now */
  int64_t peak_resident_kb; /* VmHWM: highest resident so far */
} process_memory;

/* Fails (with why) where /proc/self/status is missing or lacks the fields. */
tflaccel_status process_memory_read(process_memory *memory);

#endif
