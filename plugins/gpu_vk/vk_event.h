/* gpu_vk's events (gpu_backend.h's asynchronous calls): a tflaccel_event
 * is a vk_event, a VkFence shared by reference count between the core and
 * the backend's pending submission. A run's fence is made for its
 * submission and destroyed with the last reference; an application's
 * VkFence is borrowed (never destroyed here). Fences need no external
 * synchronization to be waited on or polled, so these calls are safe from
 * any thread; only the last release destroys. Semaphores and sync_file
 * fds are not offered (vk_event_native says which extension is missing). */
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

typedef struct vk_event {
  VkDevice device;
  VkFence fence;
  int32_t borrowed;    /* the application's fence */
  vk_fence_pool *pool; /* where the fence goes back (NULL: borrowed) */
  atomic_uint references;
  const tflaccel_host_services *host;
} vk_event;

static inline vk_event *vk_event_of(tflaccel_event *event) { return (vk_event *)(void *)event; }
static inline tflaccel_event *vk_event_handle(vk_event *event) {
  return (tflaccel_event *)(void *)event;
}

/* A new unsignalled fence from pool, one reference. */
tflaccel_status vk_event_create(vk_fence_pool *pool, vk_event **event);
vk_event *vk_event_retain(vk_event *event);
void vk_event_release(vk_event *event);
/* Blocks until the fence is signalled (VK_SUCCESS) or the device is lost. */
/* Waits for a fence, polling it briefly before blocking (vk_event.c says
 * why); every fence wait of gpu_vk goes through it. */
VkResult vk_fence_wait(VkDevice device, VkFence fence);
VkResult vk_event_wait_fence(const vk_event *event);
tflaccel_status vk_event_wait(const vk_event *event);
tflaccel_status vk_event_query(const vk_event *event, int32_t *signalled);
/* VkFence only (type NONE or VULKAN_FENCE); the handle stays the event's. */
tflaccel_status vk_event_native(const vk_event *event, int32_t type, tflaccel_native_event *native);
/* Borrows the application's VkFence of device (Vulkan offers no check that
 * it is one: the application promises it). */
tflaccel_status vk_event_import(const tflaccel_host_services *host, VkDevice device,
                                const tflaccel_native_event *native, vk_event **event);

#endif
