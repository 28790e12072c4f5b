/* Dependencies between dispatches (gpu_hazard.h). */
#include "config.h"

#include <stddef.h>

#include "plugins/gpu_common/gpu_hazard.h"

void gpu_hazard_reset(gpu_hazard_tracker *tracker) {
  tracker->read_count = tracker->written_count = 0;
}

static int overlaps(const gpu_hazard_span *list, uint32_t count, const gpu_hazard_access *access) {
  for (uint32_t i = 0; i < count; ++i)
    if (list[i].buffer == access->buffer && list[i].begin < access->end &&
        access->begin < list[i].end)
      return 1;
  return 0;
}

int gpu_hazard_conflicts(const gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses,
                         uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const gpu_hazard_access *access = &accesses[i];
    if (access->buffer == NULL) continue;
    if (overlaps(tracker->written, tracker->written_count, access)) return 1;
    if (access->writes && overlaps(tracker->read, tracker->read_count, access)) return 1;
  }
  return 0;
}

int gpu_hazard_add(gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses,
                   uint32_t count) {
  uint32_t reads = 0, writes = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (accesses[i].buffer == NULL) continue;
    if (accesses[i].writes)
      writes++;
    else
      reads++;
  }
  if (tracker->read_count + reads > GPU_HAZARD_SPANS ||
      tracker->written_count + writes > GPU_HAZARD_SPANS)
    return 0;
  for (uint32_t i = 0; i < count; ++i) {
    const gpu_hazard_access *access = &accesses[i];
    if (access->buffer == NULL) continue;
    gpu_hazard_span *span = access->writes ? &tracker->written[tracker->written_count++]
                                           : &tracker->read[tracker->read_count++];
    *span = (gpu_hazard_span){access->buffer, access->begin, access->end};
  }
  return 1;
}
