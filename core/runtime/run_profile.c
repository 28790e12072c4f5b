/* Per-partition timing of runs: the compiled model's run loop stores each
 * partition's wall time while profiling is on; these functions switch it
 * and read it back. */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "core/runtime/compiled_model.h"
#include "core/runtime/run_profile.h"

double run_profile_now_us(void) {
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0.0;
  return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

tflaccel_status tflaccel_compiled_model_set_profiling(tflaccel_compiled_model *compiled,
                                                      int32_t enabled) {
  if (compiled == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "set_profiling: NULL compiled model");
  free(compiled->partition_run_us);
  compiled->partition_run_us = NULL;
  compiled->profiled_run_done = 0;
  if (!enabled) return NULL;
  compiled->partition_run_us =
      calloc(compiled->plan->partition_count + 1, sizeof *compiled->partition_run_us);
  if (compiled->partition_run_us == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "set_profiling: out of memory");
  return NULL;
}

tflaccel_status tflaccel_compiled_model_partition_run_us(const tflaccel_compiled_model *compiled,
                                                         uint32_t index, double *microseconds) {
  if (compiled == NULL || microseconds == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition_run_us: NULL argument");
  if (index >= compiled->plan->partition_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition %u out of range (%u partitions)", index,
                                compiled->plan->partition_count);
  if (compiled->partition_run_us == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition_run_us: profiling is off");
  if (!compiled->profiled_run_done)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition_run_us: no profiled run has completed");
  *microseconds = compiled->partition_run_us[index];
  return NULL;
}
