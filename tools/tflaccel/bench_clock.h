/* The clock bench and diff time runs with: monotonic, in microseconds. */
#ifndef TFLACCEL_TOOLS_BENCH_CLOCK_H
#define TFLACCEL_TOOLS_BENCH_CLOCK_H

#include <stdint.h>

/* Microseconds since an arbitrary fixed point; never goes back. */
int64_t bench_clock_microseconds(void);

#endif
