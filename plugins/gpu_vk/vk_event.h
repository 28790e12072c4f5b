/* gpu_vk's events (gpu_backend.h's asynchronous calls): a tflaccel_event
 * is a vk_event, shared by reference count between the core and the
 * backend's pending submission. A run's event is a VkFence of the pool,
 * returned with the last reference, and the value the run signals on the
 * device's timeline semaphore (vk_semaphore.h); an application's VkFence
 * is borrowed (never destroyed here). A wrapped semaphore (binary or
 * timeline, the application's or imported from an fd) is waited for on
 * the queue by the next run that reads its input (vk_semaphore.c). Fences
 * and timeline semaphores need no external synchronization to be waited
 * on or polled, so these calls are safe from any thread; only the last
 * release destroys. */
#ifndef TFLACCEL_GPU_VK_VK_EVENT_H
#define TFLACCEL_GPU_VK_VK_EVENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "tflaccel/accelerator.h"

/* Fences of the runs' events, kept for the next ones: creating and
 * destroying a VkFence per run cost NVIDIA's driver more than the run's
 * own submission. Owned by the backend device, which outlives its events;
 * events return their fence from any thread, hence the lock. */
typedef struct vk_fence_pool {
  pthread_mutex_t lock;
  VkDevice device;
  const tflaccel_host_services *host;
  VkFence *free;
  uint32_t count, capacity;
} vk_fence_pool;

tflaccel_status vk_fence_pool_init(const tflaccel_host_services *host, VkDevice device,
                                   vk_fence_pool *pool);
/* Destroys the pooled fences; no event of the pool may be alive. */
void vk_fence_pool_release(vk_fence_pool *pool);

struct vk_sync;

/* What stands behind an event. */
typedef enum vk_event_kind {
  VK_EVENT_FENCE = 0,    /* fence: a run's, the application's, or imported from a sync_file */
  VK_EVENT_TIMELINE = 1, /* semaphore reaches value (wrapped) */
  VK_EVENT_BINARY = 2,   /* semaphore is signalled (wrapped; consumed by one wait) */
} vk_event_kind;

typedef struct vk_event {
  VkDevice device;
  VkFence fence;
  int32_t borrowed;    /* the application's fence or semaphore */
  vk_fence_pool *pool; /* where the fence goes back (NULL: not the pool's) */
  atomic_uint references;
  const tflaccel_host_services *host;
  int32_t kind;         /* vk_event_kind */
  struct vk_sync *sync; /* the device's semaphores and extension calls */
  /* A run's event: the device's timeline semaphore (the device's) and the
   * value this run signals, 0 without timeline semaphores. A wrapped
   * semaphore: the semaphore and, for a timeline one, the value awaited. */
  VkSemaphore semaphore;
  uint64_t value;
  int32_t owns_semaphore; /* imported from an fd: destroyed with the event */
  int32_t owns_fence;     /* imported from a sync_file fd: destroyed with the event */
  /* A run's binary semaphore exportable as a sync_file (where the driver
   * offers it) and its fd once exported (-1 before), both the event's. */
  VkSemaphore sync_file_semaphore;
  int sync_file_fd;
  /* A wrapped binary semaphore: the event of the submission that waited
   * for it (a binary semaphore is waited for once), guarded by the
   * sync's state lock; NULL before. */
  struct vk_event *consumer;
} vk_event;

static inline vk_event *vk_event_of(tflaccel_event *event) { return (vk_event *)(void *)event; }
static inline tflaccel_event *vk_event_handle(vk_event *event) {
  return (tflaccel_event *)(void *)event;
}

/* A new unsignalled fence from pool, one reference. */
tflaccel_status vk_event_create(vk_fence_pool *pool, struct vk_sync *sync, vk_event **event);
/* An empty event (kind FENCE, no fence, no pool) with one reference, for
 * the imports of vk_semaphore.c; NULL when out of memory. */
vk_event *vk_event_alloc(const tflaccel_host_services *host, VkDevice device,
                         struct vk_sync *sync);
vk_event *vk_event_retain(vk_event *event);
void vk_event_release(vk_event *event);
/* Blocks until the fence is signalled (VK_SUCCESS) or the device is lost. */
/* Waits for a fence, polling it briefly before blocking (vk_event.c says
 * why); every fence wait of gpu_vk goes through it. */
VkResult vk_fence_wait(VkDevice device, VkFence fence);
VkResult vk_event_wait_fence(const vk_event *event);
tflaccel_status vk_event_wait(vk_event *event);
tflaccel_status vk_event_query(vk_event *event, int32_t *signalled);
/* A run's event: VkFence (type NONE or VULKAN_FENCE, the event's), or
 * what vk_semaphore_export gives; a wrapped one: what was wrapped. */
tflaccel_status vk_event_native(vk_event *event, int32_t type, tflaccel_native_event *native);
/* Borrows the application's VkFence of the device (Vulkan offers no check
 * that it is one: the application promises it); semaphores and fds go to
 * vk_semaphore_import. */
tflaccel_status vk_event_import(struct vk_sync *sync, const tflaccel_native_event *native,
                                vk_event **event);

#endif
