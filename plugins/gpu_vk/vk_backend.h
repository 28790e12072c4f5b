/* gpu_vk's implementation of the GPU layer's backend (gpu_backend.h).
 *
 * A kernel object is a descriptor set of the kernel's pipeline layout and
 * its push-constant value. A compiled partition's sequence (gpu_sequence)
 * is one command buffer, recorded at its first run and again only when the
 * GPU layer says a kernel's buffers changed (a partition input bound to
 * another buffer), replayed by every other run: one submission, one fence.
 * Inside it, a memory barrier goes where the GPU layer's barrier plan
 * (gpu_hazard_plan) asks. With profiling, it also writes a timestamp
 * before the first dispatch and after each into the sequence's query pool,
 * read after the fence.
 *
 * Mirrored buffers (vk_buffer.h: the core's buffers on devices whose
 * host-visible memory is not device-local) that the sequence binds are
 * listed with its recording. A run submits, in the one submission it
 * waits for, the upload (mirror -> device) of each such buffer the host
 * wrote since, then the sequence, then the download (device -> mirror) of
 * each one a dispatch writes: a partition's outputs. Each buffer's two
 * copies are recorded once, with their barriers, and kept with it; the
 * sequence then starts with a barrier making transfer writes visible to
 * the dispatches. */
#ifndef TFLACCEL_GPU_VK_VK_BACKEND_H
#define TFLACCEL_GPU_VK_VK_BACKEND_H

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_vk/vk_context.h"
#include "plugins/gpu_vk/vk_event.h"
#include "plugins/gpu_vk/vk_pipeline.h"
#include "plugins/gpu_vk/vk_semaphore.h"
#include "tflaccel/accelerator.h"

typedef struct vk_backend_device {
  const tflaccel_host_services *host;
  const vk_device_context *context;
  vk_pipeline_set pipelines;
  VkCommandPool command_pool;
  VkCommandBuffer transfer_commands; /* staging copies */
  VkFence fence;
  VkCommandBuffer *submission; /* room for a run's command buffers */
  uint32_t submission_capacity;
  VkDescriptorPool *pools; /* host->alloc'ed; kernel objects' sets come from the last */
  uint32_t pool_count, pool_capacity;
  int32_t variants[GPU_STORAGE_MODE_COUNT]; /* vk_shader_variant per gpu_storage_mode */
  /* Profiling only: the timestamps read by the last run and the
   * times (us) of its dispatches. */
  int32_t profiling;
  uint64_t *ticks;
  double *times_us;
  uint32_t time_count, time_capacity; /* capacity of both, in timestamps */
  /* Asynchronous runs (vk_event.h): the latest submission not yet waited
   * for and its sequence. Anything that touches what it may use (a host
   * copy, a descriptor update, a destroy, another submission) waits for
   * it first (vk_backend_drain): one run in flight per device. */
  struct vk_event *pending;
  struct gpu_sequence *pending_sequence;
  vk_fence_pool fences; /* the runs' events' fences, reused */
  vk_sync sync;         /* the queue's lock, the timeline semaphore (vk_semaphore.h) */
} vk_backend_device;

/* Checks the device's limits and fills backend (which points at device).
 * profiling: time every dispatch (the plugin option profile = 1); fails
 * when the compute queue has no timestamps. */
tflaccel_status vk_backend_init(const tflaccel_host_services *host,
                                const vk_device_context *context, int32_t profiling,
                                vk_backend_device *device, gpu_backend *backend);
void vk_backend_release(vk_backend_device *device);

/* Waits for the pending asynchronous run, if any, and settles its
 * buffers' mirrors. A failed wait drains the device (as a failed
 * synchronous run does) and is returned. */
tflaccel_status vk_backend_drain(vk_backend_device *device);

/* The host's copies into and out of a buffer the core created. A mirrored
 * buffer whose device side is newer is first downloaded (submitted and
 * waited for) before a read, or before a write that leaves part of it. */
tflaccel_status vk_backend_buffer_write(vk_backend_device *device, tflaccel_buffer *buffer,
                                        uint64_t offset, const void *source, uint64_t size);
tflaccel_status vk_backend_buffer_read(vk_backend_device *device, tflaccel_buffer *buffer,
                                       uint64_t offset, void *destination, uint64_t size);

#endif
