/* gpu_vk's semaphores and fd sync objects (issue 16): what the driver
 * offers, the device's timeline semaphore, and semaphore events.
 *
 * Export. Where the device has timeline semaphores (VK_KHR_timeline_
 * semaphore), the backend device owns one timeline semaphore, created at
 * set-up; every queued run's submission signals it with the next value,
 * and the run's event exports {that semaphore, that value} (valid while
 * the device lives), or, where VK_KHR_external_semaphore_fd and the
 * driver let the timeline be exported as OPAQUE_FD, a new opaque fd of
 * it (the caller's, to close or import) with the value. Where the driver
 * exports binary semaphores as SYNC_FD, each run also signals a binary
 * semaphore of its event's, exported once as a sync_file fd that belongs
 * to the event.
 *
 * Wrap. An application's VkSemaphore of gpu_vk's VkDevice (value 0:
 * binary, else timeline and the value to wait for) or an OPAQUE_FD /
 * SYNC_FD fd imported into a semaphore of gpu_vk's (the fd is dup()ed:
 * Vulkan takes the dup on success, the application keeps its own) is
 * waited for IN THE QUEUE by the next run that reads a gated input. A
 * binary semaphore is consumed by its one wait: later runs gated by the
 * same event wait for the run that consumed it, on the CPU; waiting for
 * the event on the CPU before any run did consumes it with an empty
 * submission. Vulkan wants a binary semaphore's signal submitted before
 * the wait is; a timeline semaphore may be signalled later (from the host
 * or another queue). */
#ifndef TFLACCEL_GPU_VK_VK_SEMAPHORE_H
#define TFLACCEL_GPU_VK_VK_SEMAPHORE_H

#include <pthread.h>
#include <vulkan/vulkan.h>

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_vk/vk_event.h"
#include "tflaccel/accelerator.h"

/* What a physical device offers (found once, with its extensions). */
typedef struct vk_sync_support {
  int32_t timeline_extension; /* VK_KHR_timeline_semaphore is listed */
  int32_t timeline;           /* ... and its timelineSemaphore feature is on */
  int32_t semaphore_fd;       /* VK_KHR_external_semaphore_fd is listed */
  int32_t fence_fd;           /* VK_KHR_external_fence_fd is listed */
  /* vkGetPhysicalDeviceExternal{Semaphore,Fence}Properties, with the
   * extension: */
  int32_t timeline_opaque_export, timeline_opaque_import;
  int32_t binary_opaque_import;
  int32_t binary_sync_fd_export, binary_sync_fd_import;
  int32_t fence_sync_fd_import;
} vk_sync_support;

/* Notes a device extension of the ones above (called for each listed). */
void vk_sync_support_note_extension(vk_sync_support *support, const char *name);
/* Fills the rest once the extensions are noted. */
void vk_sync_support_query(VkPhysicalDevice physical, vk_sync_support *support);
/* The device extensions to enable (appended to names at *count; room for
 * 3) and the feature struct to chain into VkDeviceCreateInfo (its pNext
 * set to next; returns next when there is none to chain). */
const void *vk_sync_device_chain(const vk_sync_support *support,
                                 VkPhysicalDeviceTimelineSemaphoreFeaturesKHR *timeline,
                                 const void *next, const char **names, uint32_t *count);

/* The backend device's sync state. */
typedef struct vk_sync {
  const tflaccel_host_services *host;
  VkDevice device;
  VkQueue queue;
  const vk_sync_support *support;
  const char *device_name;
  vk_fence_pool *fences;
  /* vkQueueSubmit from the runs and from an event wait that consumes a
   * binary semaphore (any thread) */
  pthread_mutex_t queue_lock;
  /* binary events' consumers and exported sync_file fds */
  pthread_mutex_t state_lock;
  int32_t locks_made;
  VkSemaphore timeline;    /* the device's; VK_NULL_HANDLE without timeline semaphores */
  uint64_t timeline_value; /* the last value a submission signals */
  PFN_vkGetSemaphoreCounterValueKHR get_counter;
  PFN_vkWaitSemaphoresKHR wait_semaphores;
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
  PFN_vkImportSemaphoreFdKHR import_semaphore_fd;
  PFN_vkImportFenceFdKHR import_fence_fd;
} vk_sync;

/* Loads the extensions' calls and makes the device's timeline semaphore
 * (exportable as OPAQUE_FD where the driver allows). */
tflaccel_status vk_sync_init(const tflaccel_host_services *host, VkDevice device, VkQueue queue,
                             const vk_sync_support *support, const char *device_name,
                             vk_fence_pool *fences, vk_sync *sync);
/* No event of the device may be alive, nor a submission pending. */
void vk_sync_release(vk_sync *sync);

/* vkQueueSubmit of the device's queue, under the queue lock. */
VkResult vk_sync_queue_submit(vk_sync *sync, const VkSubmitInfo *submit, VkFence fence);

/* Waits on the CPU for the waits the queue cannot wait for: fences. */
tflaccel_status vk_sync_wait_on_cpu(vk_sync *sync, tflaccel_event *const *waits,
                                    uint32_t wait_count);
/* Prepares done (a new fence event) for its run: a binary semaphore to
 * export as a sync_file where offered. */
tflaccel_status vk_sync_prepare_event(vk_sync *sync, vk_event *done);
/* Submits commands as one batch that waits in the queue for the
 * semaphores among waits (each binary one consumed: its consumer becomes
 * done; one consumed already: its consumer is waited for on the CPU
 * first), signals the device's timeline with the next value (done's
 * value) and done's sync_file semaphore, and signals done's fence. The
 * fault hook runs first (vk_fault). A VkResult, as vkQueueSubmit's. */
VkResult vk_sync_submit_run(vk_sync *sync, gpu_fault *fault, const VkCommandBuffer *commands,
                            uint32_t command_count, tflaccel_event *const *waits,
                            uint32_t wait_count, vk_event *done);

/* The semaphore events' side of vk_event.c: wait, query, export. */
tflaccel_status vk_semaphore_event_wait(vk_event *event);
tflaccel_status vk_semaphore_event_query(vk_event *event, int32_t *signalled);
/* A run's event as VULKAN_SEMAPHORE, OPAQUE_FD or SYNC_FILE_FD. */
tflaccel_status vk_semaphore_export(vk_event *event, int32_t type, tflaccel_native_event *native);
/* Wraps a VULKAN_SEMAPHORE, OPAQUE_FD or SYNC_FILE_FD (checked by
 * gpu_native_event_check already). */
tflaccel_status vk_semaphore_import(vk_sync *sync, const tflaccel_native_event *native,
                                    vk_event **event);

#endif
