/* gpu_cl's implementation of the GPU layer's backend (gpu_backend.h):
 * buffers are cl_mem objects, kernels come from the catalogue program, a
 * compiled partition's sequence keeps its work sizes fitted once, and a run
 * queues its dispatches on the device's in-order queue (so the barrier plan
 * is not needed) and waits once. With profiling (the queue was created with
 * CL_QUEUE_PROFILING_ENABLE) each dispatch gets an event, read and released
 * at the end of the run. */
#ifndef TFLACCEL_GPU_CL_CL_BACKEND_H
#define TFLACCEL_GPU_CL_CL_BACKEND_H

#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_cl/cl_program.h"
#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_common/gpu_backend.h"
#include "tflaccel/accelerator.h"

typedef struct cl_backend_device {
  const tflaccel_host_services *host;
  cl_device_context *context;
  cl_program_set programs;
  /* The compiled-model cache's entry of the partition being compiled
   * (cache_begin .. cache_end): loaded 1 when its binary was used;
   * sequence, the partition's dispatches, which write the entry after
   * their first run (cl_backend.c says why). */
  struct {
    int32_t active, loaded, storage;
    gpu_disk_cache disk;
    gpu_disk_cache_key key;
    struct gpu_sequence *sequence;
  } entry;
  size_t max_group_size;    /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  size_t max_item_sizes[3]; /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  /* Profiling only: the events of the dispatches the current run queued,
   * and the times (us) read from them at its end. */
  int32_t profiling;
  cl_event *events;
  double *times_us;
  uint32_t event_count, time_count, capacity; /* capacity of both arrays */
  /* The device's imported external memory, acquired and released around
   * each run (cl_external_memory.h); set by the plugin, may be NULL. */
  const struct cl_external_memory *external;
} cl_backend_device;

/* Queries the device's limits and fills backend (which points at device).
 * profiling: time every dispatch (the context's queue must have been
 * created with profiling). */
tflaccel_status cl_backend_init(const tflaccel_host_services *host, cl_device_context *context,
                                const tflaccel_device_info *info, int32_t profiling,
                                cl_backend_device *device, gpu_backend *backend);
void cl_backend_release(cl_backend_device *device);

#endif
