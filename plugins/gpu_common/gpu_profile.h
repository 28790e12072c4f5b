/* Where the GPU time of a compiled partition goes (plugin option
 * profile = 1): every run adds the backend's per-dispatch times
 * (gpu_backend.profile_read) and its wall time; when the partition is
 * destroyed, one table at INFO level: per dispatch the mean and min over
 * the runs and the share of the total, per kernel the count and total, and
 * the dispatches' sum against the runs' mean wall time, unless the times
 * were read through executable_profile. */
#ifndef TFLACCEL_GPU_COMMON_GPU_PROFILE_H
#define TFLACCEL_GPU_COMMON_GPU_PROFILE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

typedef struct gpu_profile gpu_profile;

tflaccel_status gpu_profile_create(const gpu_backend *backend, uint32_t dispatch_count,
                                   gpu_profile **profile);
void gpu_profile_destroy(const gpu_backend *backend, gpu_profile *profile);

/* Reads the times of the run that just finished from the backend and adds
 * them, with wall_us, the run's time from its submission to the end of
 * the backend's wait. */
tflaccel_status gpu_profile_add_run(gpu_profile *profile, const gpu_backend *backend,
                                    double wall_us);

/* Logs the table for the program's dispatches (op_count: the partition's
 * ops, for the heading). */
void gpu_profile_log(gpu_profile *profile, const gpu_backend *backend, const gpu_program *program,
                     uint32_t op_count);

/* Reports each dispatch of the program with its runs and GPU time so far
 * (tflaccel_device_vtable.executable_profile); gpu_profile_log then logs
 * nothing, the caller having the times. */
void gpu_profile_report(gpu_profile *profile, const gpu_program *program,
                        tflaccel_kernel_time_fn report, void *context);

/* A backend's profile_read over the times it kept of the last run:
 * copies at most capacity of the time_count times; *count = time_count. */
void gpu_profile_copy_times(const double *times_us, uint32_t time_count, double *microseconds,
                            uint32_t capacity, uint32_t *count);

#endif
