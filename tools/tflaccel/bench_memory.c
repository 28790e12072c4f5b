#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/bench_memory.h"

#define STATUS_PATH "/proc/self/status"

tflaccel_status process_memory_read(process_memory *memory) {
  memory->resident_kb = -1;
  memory->peak_resident_kb = -1;
  FILE *file = fopen(STATUS_PATH, "r");
  if (file == NULL)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE, "cannot read %s: %s", STATUS_PATH,
                                strerror(errno));
  char line[256];
  while (fgets(line, sizeof line, file) != NULL) {
    int64_t value;
    if (sscanf(line, "VmRSS: %" SCNd64, &value) == 1)
      memory->resident_kb = value;
    else if (sscanf(line, "VmHWM: %" SCNd64, &value) == 1)
      memory->peak_resident_kb = value;
  }
  fclose(file);
  if (memory->resident_kb < 0 || memory->peak_resident_kb < 0)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE, "%s has no VmRSS or VmHWM line", STATUS_PATH);
  return NULL;
}
