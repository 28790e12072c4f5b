/* Which dispatches must be ordered by a barrier: the bytes the dispatches
 * since the last barrier read and wrote, against the next dispatch's. A
 * dispatch depends on earlier ones when it reads bytes one wrote, or
 * writes bytes one read or wrote; independent neighbours (a model's
 * parallel heads, say) then share a barrier. gpu_hazard_plan computes a
 * compiled partition's plan once; gpu_vk records its pipeline barriers from
 * it, gpu_gl issues its glMemoryBarrier calls (each ~7.7 us on NVIDIA's
 * GLES driver) from it. Buffers are compared by address only. */
#ifndef TFLACCEL_GPU_COMMON_GPU_HAZARD_H
#define TFLACCEL_GPU_COMMON_GPU_HAZARD_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_program.h"

/* Spans the tracker holds per list; past that, the caller orders
 * everything (a barrier) and starts over. */
#define GPU_HAZARD_SPANS 32

/* One binding of a dispatch. Reads of buffers no dispatch writes
 * (parameters, weights) cannot conflict: leave them out. */
typedef struct gpu_hazard_access {
  const void *buffer;
  uint64_t begin, end; /* bytes [begin, end) */
  int writes;
} gpu_hazard_access;

typedef struct gpu_hazard_span {
  const void *buffer;
  uint64_t begin, end;
} gpu_hazard_span;

typedef struct gpu_hazard_tracker {
  gpu_hazard_span read[GPU_HAZARD_SPANS], written[GPU_HAZARD_SPANS];
  uint32_t read_count, written_count;
} gpu_hazard_tracker;

/* After a barrier: nothing is pending. */
void gpu_hazard_reset(gpu_hazard_tracker *tracker);

/* Whether a dispatch with these accesses depends on one since the last
 * barrier. */
int gpu_hazard_conflicts(const gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses,
                         uint32_t count);

/* Records the dispatch's accesses; 0 (and nothing recorded) when they do not
 * fit, after which the caller places a barrier, resets and adds again. */
int gpu_hazard_add(gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses,
                   uint32_t count);

/* The barrier plan of a program: barrier_before[i] (one per dispatch) is 1
 * where dispatch i depends on one since the last barrier. Arena arguments
 * count by their tensor's bytes; each partition binding counts as a buffer
 * of its own (the core never binds two tensors that are live together to
 * overlapping bytes); constants and parameters, which no dispatch writes,
 * never conflict. Returns the number of barriers. */
uint32_t gpu_hazard_plan(const gpu_program *program, int32_t *barrier_before);

#endif
