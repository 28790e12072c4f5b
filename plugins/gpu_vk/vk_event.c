/* gpu_vk's events (vk_event.h). */
#include "config.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_native_event.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_event.h"
#include "plugins/gpu_vk/vk_semaphore.h"

tflaccel_status vk_fence_pool_init(const tflaccel_host_services *host, VkDevice device,
                                   vk_fence_pool *pool) {
  memset(pool, 0, sizeof *pool);
  pool->device = device;
  pool->host = host;
  if (pthread_mutex_init(&pool->lock, NULL) != 0)
    return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_vk: cannot make the fence pool's lock");
  return NULL;
}

void vk_fence_pool_release(vk_fence_pool *pool) {
  if (pool->host == NULL) return;
  for (uint32_t i = 0; i < pool->count; ++i) vkDestroyFence(pool->device, pool->free[i], NULL);
  if (pool->free != NULL) pool->host->free(pool->host->context, pool->free);
  pthread_mutex_destroy(&pool->lock);
  memset(pool, 0, sizeof *pool);
}

/* A reset fence of the pool, or a new one. */
static tflaccel_status take_fence(vk_fence_pool *pool, VkFence *fence) {
  *fence = VK_NULL_HANDLE;
  pthread_mutex_lock(&pool->lock);
  if (pool->count > 0) *fence = pool->free[--pool->count];
  pthread_mutex_unlock(&pool->lock);
  if (*fence != VK_NULL_HANDLE) {
    VkResult reset = vkResetFences(pool->device, 1, fence);
    if (reset == VK_SUCCESS) return NULL;
    vkDestroyFence(pool->device, *fence, NULL);
    *fence = VK_NULL_HANDLE;
    return vk_call_failed(pool->host, "vkResetFences", reset);
  }
  const VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkResult result = vkCreateFence(pool->device, &info, NULL, fence);
  if (result != VK_SUCCESS) return vk_call_failed(pool->host, "vkCreateFence", result);
  return NULL;
}

/* Keeps the fence for the next run (destroys it when out of memory). */
static void return_fence(vk_fence_pool *pool, VkFence fence) {
  pthread_mutex_lock(&pool->lock);
  int kept = 0;
  if (pool->count == pool->capacity) {
    uint32_t capacity = pool->capacity ? 2 * pool->capacity : 4;
    VkFence *grown = pool->host->alloc(pool->host->context, capacity * sizeof *grown,
                                       _Alignof(VkFence));
    if (grown != NULL) {
      if (pool->free != NULL) {
        memcpy(grown, pool->free, pool->count * sizeof *grown);
        pool->host->free(pool->host->context, pool->free);
      }
      pool->free = grown;
      pool->capacity = capacity;
    }
  }
  if (pool->count < pool->capacity) {
    pool->free[pool->count++] = fence;
    kept = 1;
  }
  pthread_mutex_unlock(&pool->lock);
  if (!kept) vkDestroyFence(pool->device, fence, NULL);
}

vk_event *vk_event_alloc(const tflaccel_host_services *host, VkDevice device, vk_sync *sync) {
  vk_event *created = host->alloc(host->context, sizeof *created, _Alignof(vk_event));
  if (created == NULL) return NULL;
  memset(created, 0, sizeof *created);
  created->device = device;
  created->host = host;
  created->kind = VK_EVENT_FENCE;
  created->sync = sync;
  created->sync_file_fd = -1;
  atomic_init(&created->references, 1u);
  return created;
}

static tflaccel_status make_event(const tflaccel_host_services *host, VkDevice device,
                                  VkFence fence, vk_fence_pool *pool, vk_sync *sync,
                                  vk_event **event) {
  vk_event *created = vk_event_alloc(host, device, sync);
  if (created == NULL) {
    if (pool != NULL) return_fence(pool, fence);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (event)");
  }
  created->fence = fence;
  created->borrowed = pool == NULL;
  created->pool = pool;
  *event = created;
  return NULL;
}

tflaccel_status vk_event_create(vk_fence_pool *pool, vk_sync *sync, vk_event **event) {
  *event = NULL;
  VkFence fence = VK_NULL_HANDLE;
  tflaccel_status status = take_fence(pool, &fence);
  if (status != NULL) return status;
  return make_event(pool->host, pool->device, fence, pool, sync, event);
}

vk_event *vk_event_retain(vk_event *event) {
  if (event != NULL) atomic_fetch_add(&event->references, 1u);
  return event;
}

void vk_event_release(vk_event *event) {
  if (event == NULL || atomic_fetch_sub(&event->references, 1u) != 1u) return;
  if (event->pool != NULL) return_fence(event->pool, event->fence);
  if (event->owns_fence) vkDestroyFence(event->device, event->fence, NULL);
  if (event->owns_semaphore) vkDestroySemaphore(event->device, event->semaphore, NULL);
  if (event->sync_file_semaphore != VK_NULL_HANDLE)
    vkDestroySemaphore(event->device, event->sync_file_semaphore, NULL);
  if (event->sync_file_fd >= 0) close(event->sync_file_fd);
  vk_event_release(event->consumer);
  event->host->free(event->host->context, event);
}

/* Polls the fence for up to FENCE_SPIN_NS before blocking on it: a run is
 * typically a millisecond, and a blocking wait wakes the thread up late
 * (NVIDIA: about 2 ms per run of an --async loop that blocked at once;
 * OpenCL drivers' clFinish spins for the same reason). */
#define FENCE_SPIN_NS 5000000
static uint64_t monotonic_ns(void) {
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0;
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

VkResult vk_fence_wait(VkDevice device, VkFence fence) {
  uint64_t start = monotonic_ns();
  for (;;) {
    VkResult status = vkGetFenceStatus(device, fence);
    if (status != VK_NOT_READY) return status;
    uint64_t now = monotonic_ns();
    if (now == 0 || start == 0 || now - start > FENCE_SPIN_NS) break;
  }
  return vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
}

VkResult vk_event_wait_fence(const vk_event *event) {
  return vk_fence_wait(event->device, event->fence);
}

tflaccel_status vk_event_wait(vk_event *event) {
  if (event->kind != VK_EVENT_FENCE) return vk_semaphore_event_wait(event);
  VkResult result = vk_event_wait_fence(event);
  return result == VK_SUCCESS ? NULL : vk_call_failed(event->host, "vkWaitForFences", result);
}

tflaccel_status vk_event_query(vk_event *event, int32_t *signalled) {
  if (event->kind != VK_EVENT_FENCE) return vk_semaphore_event_query(event, signalled);
  VkResult result = vkGetFenceStatus(event->device, event->fence);
  *signalled = result == VK_SUCCESS;
  if (result == VK_SUCCESS || result == VK_NOT_READY) return NULL;
  return vk_call_failed(event->host, "vkGetFenceStatus", result);
}

tflaccel_status vk_event_native(vk_event *event, int32_t type, tflaccel_native_event *native) {
  /* A wrapped object exports as what it is. */
  if (event->kind != VK_EVENT_FENCE || event->pool == NULL) {
    int32_t own = event->kind == VK_EVENT_FENCE ? TFLACCEL_NATIVE_EVENT_VULKAN_FENCE
                                                : TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE;
    if (type != TFLACCEL_NATIVE_EVENT_NONE && type != own)
      return gpu_native_event_unsupported(event->host, "gpu_vk", type,
                                          "a wrapped event exports only the object it wraps");
    native->struct_size = sizeof *native;
    native->type = own;
    native->handle = own == TFLACCEL_NATIVE_EVENT_VULKAN_FENCE
                         ? (uint64_t)(uintptr_t)event->fence
                         : (uint64_t)(uintptr_t)event->semaphore;
    native->value = event->kind == VK_EVENT_TIMELINE ? event->value : 0;
    return NULL;
  }
  if (type == TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE || type == TFLACCEL_NATIVE_EVENT_OPAQUE_FD ||
      type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD)
    return vk_semaphore_export(event, type, native);
  if (type != TFLACCEL_NATIVE_EVENT_NONE && type != TFLACCEL_NATIVE_EVENT_VULKAN_FENCE)
    return gpu_native_event_unsupported(
        event->host, "gpu_vk", type,
        "Vulkan events export as VkFence, VkSemaphore, opaque fd or sync_file fd");
  native->struct_size = sizeof *native;
  native->type = TFLACCEL_NATIVE_EVENT_VULKAN_FENCE;
  native->handle = (uint64_t)(uintptr_t)event->fence;
  native->value = 0;
  return NULL;
}

tflaccel_status vk_event_import(vk_sync *sync, const tflaccel_native_event *native,
                                vk_event **event) {
  *event = NULL;
  tflaccel_status status = gpu_native_event_check(sync->host, "gpu_vk", native);
  if (status != NULL) return status;
  if (native->type == TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE ||
      native->type == TFLACCEL_NATIVE_EVENT_OPAQUE_FD ||
      native->type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD)
    return vk_semaphore_import(sync, native, event);
  if (native->type != TFLACCEL_NATIVE_EVENT_VULKAN_FENCE)
    return gpu_native_event_unsupported(
        sync->host, "gpu_vk", native->type,
        "gpu_vk waits on VkFence, VkSemaphore, opaque fd and sync_file fd objects");
  return make_event(sync->host, sync->device, (VkFence)(uintptr_t)native->handle, NULL, sync,
                    event);
}
