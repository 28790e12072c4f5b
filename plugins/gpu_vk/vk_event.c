/* gpu_vk's events (vk_event.h). */
#include "config.h"

#include <time.h>

#include "plugins/gpu_common/gpu_native_event.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_event.h"

static tflaccel_status make_event(const tflaccel_host_services *host, VkDevice device,
                                  VkFence fence, int32_t borrowed, vk_event **event) {
  vk_event *created = host->alloc(host->context, sizeof *created, _Alignof(vk_event));
  if (created == NULL) {
    if (!borrowed) vkDestroyFence(device, fence, NULL);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (event)");
  }
  created->device = device;
  created->fence = fence;
  created->borrowed = borrowed;
  created->host = host;
  atomic_init(&created->references, 1u);
  *event = created;
  return NULL;
}

tflaccel_status vk_event_create(const tflaccel_host_services *host, VkDevice device,
                                vk_event **event) {
  *event = NULL;
  const VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VkResult result = vkCreateFence(device, &info, NULL, &fence);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkCreateFence", result);
  return make_event(host, device, fence, 0, event);
}

vk_event *vk_event_retain(vk_event *event) {
  if (event != NULL) atomic_fetch_add(&event->references, 1u);
  return event;
}

void vk_event_release(vk_event *event) {
  if (event == NULL || atomic_fetch_sub(&event->references, 1u) != 1u) return;
  if (!event->borrowed) vkDestroyFence(event->device, event->fence, NULL);
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

tflaccel_status vk_event_wait(const vk_event *event) {
  VkResult result = vk_event_wait_fence(event);
  return result == VK_SUCCESS ? NULL : vk_call_failed(event->host, "vkWaitForFences", result);
}

tflaccel_status vk_event_query(const vk_event *event, int32_t *signalled) {
  VkResult result = vkGetFenceStatus(event->device, event->fence);
  *signalled = result == VK_SUCCESS;
  if (result == VK_SUCCESS || result == VK_NOT_READY) return NULL;
  return vk_call_failed(event->host, "vkGetFenceStatus", result);
}

tflaccel_status vk_event_native(const vk_event *event, int32_t type, tflaccel_native_event *native) {
  if (type == TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE)
    return gpu_native_event_unsupported(
        event->host, "gpu_vk", type,
        "gpu_vk signals fences only (VK_KHR_timeline_semaphore is not used)");
  if (type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD)
    return gpu_native_event_unsupported(event->host, "gpu_vk", type,
                                        "needs VK_KHR_external_fence_fd, which gpu_vk does not use");
  if (type != TFLACCEL_NATIVE_EVENT_NONE && type != TFLACCEL_NATIVE_EVENT_VULKAN_FENCE)
    return gpu_native_event_unsupported(event->host, "gpu_vk", type,
                                        "Vulkan events export as VkFence only");
  native->struct_size = sizeof *native;
  native->type = TFLACCEL_NATIVE_EVENT_VULKAN_FENCE;
  native->handle = (uint64_t)(uintptr_t)event->fence;
  native->value = 0;
  return NULL;
}

tflaccel_status vk_event_import(const tflaccel_host_services *host, VkDevice device,
                                const tflaccel_native_event *native, vk_event **event) {
  *event = NULL;
  tflaccel_status status = gpu_native_event_check(host, "gpu_vk", native);
  if (status != NULL) return status;
  if (native->type == TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE)
    return gpu_native_event_unsupported(
        host, "gpu_vk", native->type,
        "gpu_vk waits on fences only (VK_KHR_timeline_semaphore is not used)");
  if (native->type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD)
    return gpu_native_event_unsupported(
        host, "gpu_vk", native->type, "needs VK_KHR_external_fence_fd, which gpu_vk does not use");
  if (native->type != TFLACCEL_NATIVE_EVENT_VULKAN_FENCE)
    return gpu_native_event_unsupported(host, "gpu_vk", native->type,
                                        "gpu_vk waits on VkFence objects only");
  return make_event(host, device, (VkFence)(uintptr_t)native->handle, 1, event);
}
