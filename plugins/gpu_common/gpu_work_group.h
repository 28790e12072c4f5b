/* The work group a backend dispatches with: the lowering's preferred one
 * fitted to the device (and kernel) limits. Shared by the three GPU
 * backends, so that each shrinks a group the same way. */
#ifndef TFLACCEL_GPU_COMMON_GPU_WORK_GROUP_H
#define TFLACCEL_GPU_COMMON_GPU_WORK_GROUP_H

#include <stdint.h>

/* group <- local (0 read as 1) clamped to max_size per dimension (0 read
 * as 1), then its largest dimension halved (rounding up) until the group
 * holds at most max_invocations items (0 read as 1). */
void gpu_fit_work_group(const uint32_t local[3], const uint64_t max_size[3],
                        uint64_t max_invocations, uint32_t group[3]);

#endif
