#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/stats.h"

void run_stats_init(run_stats *stats) { memset(stats, 0, sizeof *stats); }

void run_stats_free(run_stats *stats) {
  free(stats->samples);
  free(stats->scratch);
  run_stats_init(stats);
}

tflaccel_status run_stats_add(run_stats *stats, double value) {
  if (stats->count == stats->capacity) {
    size_t capacity = stats->capacity ? stats->capacity * 2 : 64;
    double *grown = realloc(stats->samples, capacity * sizeof *grown);
    if (grown != NULL) stats->samples = grown;
    double *grown_scratch =
        grown ? realloc(stats->scratch, capacity * sizeof *grown_scratch) : NULL;
    if (grown_scratch == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY,
                                  "statistics: out of memory keeping %zu measurements",
                                  stats->count + 1);
    stats->scratch = grown_scratch;
    stats->capacity = capacity;
  }
  if (stats->count == 0) {
    stats->first = value;
    stats->minimum = value;
    stats->maximum = value;
  }
  if (value < stats->minimum) stats->minimum = value;
  if (value > stats->maximum) stats->maximum = value;
  stats->newest = value;
  stats->sum += value;
  stats->samples[stats->count++] = value;
  return NULL;
}

double run_stats_average(const run_stats *stats) {
  return stats->count ? stats->sum / (double)stats->count : NAN;
}

int run_stats_all_same(const run_stats *stats) {
  return stats->count == 0 || stats->minimum == stats->maximum;
}

double run_stats_std_deviation(const run_stats *stats) {
  if (run_stats_all_same(stats)) return 0.0;
  /* Two passes over the kept samples: no cancellation from sum of squares. */
  double average = run_stats_average(stats), squares = 0.0;
  for (size_t i = 0; i < stats->count; ++i) {
    double delta = stats->samples[i] - average;
    squares += delta * delta;
  }
  return sqrt(squares / (double)stats->count);
}

static int compare_doubles(const void *left, const void *right) {
  double a = *(const double *)left, b = *(const double *)right;
  return (a > b) - (a < b);
}

double run_stats_median(run_stats *stats) {
  if (stats->count == 0) return NAN;
  memcpy(stats->scratch, stats->samples, stats->count * sizeof *stats->scratch);
  qsort(stats->scratch, stats->count, sizeof *stats->scratch, compare_doubles);
  size_t middle = stats->count / 2;
  if (stats->count % 2) return stats->scratch[middle];
  return (stats->scratch[middle - 1] + stats->scratch[middle]) / 2.0;
}

void run_stats_print_line(FILE *stream, run_stats *stats) {
  if (stats->count == 0) {
    fputs("count=0", stream);
    return;
  }
  if (run_stats_all_same(stats)) {
    fprintf(stream, "count=%zu curr=%.0f%s", stats->count, stats->newest,
            stats->count > 1 ? "(all same)" : "");
  } else {
    /* benchmark_model keeps whole microseconds: its std is truncated, its
     * average printed with six significant digits. */
    fprintf(stream, "count=%zu first=%.0f curr=%.0f min=%.0f max=%.0f avg=%g std=%.0f",
            stats->count, stats->first, stats->newest, stats->minimum, stats->maximum,
            run_stats_average(stats), trunc(run_stats_std_deviation(stats)));
  }
  fprintf(stream, " median=%g", run_stats_median(stats));
}
