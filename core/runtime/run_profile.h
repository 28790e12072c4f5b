/* Per-partition timing of runs (tflaccel_compiled_model_set_profiling). */
#ifndef TFLACCEL_CORE_RUNTIME_RUN_PROFILE_H
#define TFLACCEL_CORE_RUNTIME_RUN_PROFILE_H

/* A monotonic clock in microseconds. */
double run_profile_now_us(void);

#endif
