/* Work-group fitting (gpu_work_group.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_work_group.h"

void gpu_fit_work_group(const uint32_t local[3], const uint64_t max_size[3],
                        uint64_t max_invocations, uint32_t group[3]) {
  if (max_invocations == 0) max_invocations = 1;
  for (int i = 0; i < 3; ++i) {
    uint64_t limit = max_size[i] ? max_size[i] : 1;
    group[i] = local[i] ? local[i] : 1;
    if (group[i] > limit) group[i] = (uint32_t)limit;
  }
  while ((uint64_t)group[0] * group[1] * group[2] > max_invocations) {
    int largest =
        group[0] >= group[1] ? (group[0] >= group[2] ? 0 : 2) : (group[1] >= group[2] ? 1 : 2);
    group[largest] = (group[largest] + 1) / 2;
  }
}
