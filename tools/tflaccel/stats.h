/* Statistics of repeated measurements (run latencies, per-run errors), and
 * the one-line summary benchmark_model prints for them. */
#ifndef TFLACCEL_TOOLS_STATS_H
#define TFLACCEL_TOOLS_STATS_H

#include <stddef.h>
#include <stdio.h>

#include "tflaccel/status.h"

typedef struct run_stats {
  double *samples; /* every value, in arrival order */
  double *scratch; /* as many, for sorting: the median needs no allocation */
  size_t count, capacity;
  double first, newest, minimum, maximum, sum;
} run_stats;

void run_stats_init(run_stats *stats);
void run_stats_free(run_stats *stats);
tflaccel_status run_stats_add(run_stats *stats, double value);

/* NaN when empty. */
double run_stats_average(const run_stats *stats);
/* Population standard deviation (as benchmark_model's Stat); 0 when every
 * value is the same or there are none. */
double run_stats_std_deviation(const run_stats *stats);
/* Middle value (mean of the two middle ones for an even count); NaN when
 * empty. Sorts the scratch copy; samples keep their order. */
double run_stats_median(run_stats *stats);
int run_stats_all_same(const run_stats *stats);

/* benchmark_model's line for whole-microsecond values:
 * "count=N first=F curr=C min=m max=M avg=A std=S", "count=N curr=C(all same)"
 * when every value is equal, "count=0" when empty; followed here by
 * " median=X" whenever there is a value. No newline. */
void run_stats_print_line(FILE *stream, run_stats *stats);

#endif
