/* gpu_vk's semaphores and fd sync objects (vk_semaphore.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_native_event.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_semaphore.h"

/* ---- what the driver offers ---- */

void vk_sync_support_note_extension(vk_sync_support *support, const char *name) {
  if (strcmp(name, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0) support->timeline_extension = 1;
  if (strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0) support->semaphore_fd = 1;
  if (strcmp(name, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME) == 0) support->fence_fd = 1;
}

/* The external features of a semaphore of type as handle_type. */
static VkExternalSemaphoreFeatureFlags
semaphore_features(VkPhysicalDevice physical, VkSemaphoreType type,
                   VkExternalSemaphoreHandleTypeFlagBits handle_type) {
  const VkSemaphoreTypeCreateInfoKHR type_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR, .semaphoreType = type};
  const VkPhysicalDeviceExternalSemaphoreInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .pNext = type == VK_SEMAPHORE_TYPE_TIMELINE ? &type_info : NULL,
      .handleType = handle_type};
  VkExternalSemaphoreProperties properties = {.sType =
                                                  VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical, &info, &properties);
  return properties.externalSemaphoreFeatures;
}

void vk_sync_support_query(VkPhysicalDevice physical, vk_sync_support *support) {
  if (support->timeline_extension) {
    VkPhysicalDeviceTimelineSemaphoreFeaturesKHR timeline = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                          .pNext = &timeline};
    vkGetPhysicalDeviceFeatures2(physical, &features);
    support->timeline = timeline.timelineSemaphore == VK_TRUE;
  }
  const VkExternalSemaphoreFeatureFlags exports = VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT;
  const VkExternalSemaphoreFeatureFlags imports = VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
  if (support->semaphore_fd) {
    if (support->timeline) {
      VkExternalSemaphoreFeatureFlags opaque = semaphore_features(
          physical, VK_SEMAPHORE_TYPE_TIMELINE, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
      support->timeline_opaque_export = (opaque & exports) != 0;
      support->timeline_opaque_import = (opaque & imports) != 0;
    }
    VkExternalSemaphoreFeatureFlags opaque = semaphore_features(
        physical, VK_SEMAPHORE_TYPE_BINARY, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
    support->binary_opaque_import = (opaque & imports) != 0;
    VkExternalSemaphoreFeatureFlags sync_fd = semaphore_features(
        physical, VK_SEMAPHORE_TYPE_BINARY, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT);
    support->binary_sync_fd_export = (sync_fd & exports) != 0;
    support->binary_sync_fd_import = (sync_fd & imports) != 0;
  }
  if (support->fence_fd) {
    const VkPhysicalDeviceExternalFenceInfo info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
        .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT};
    VkExternalFenceProperties properties = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
    vkGetPhysicalDeviceExternalFenceProperties(physical, &info, &properties);
    support->fence_sync_fd_import =
        (properties.externalFenceFeatures & VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT) != 0;
  }
}

const void *vk_sync_device_chain(const vk_sync_support *support,
                                 VkPhysicalDeviceTimelineSemaphoreFeaturesKHR *timeline,
                                 const void *next, const char **names, uint32_t *count) {
  if (support->semaphore_fd) names[(*count)++] = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
  if (support->fence_fd) names[(*count)++] = VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME;
  if (!support->timeline) return next;
  names[(*count)++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
  *timeline = (VkPhysicalDeviceTimelineSemaphoreFeaturesKHR){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR,
      .pNext = (void *)(uintptr_t)next,
      .timelineSemaphore = VK_TRUE};
  return timeline;
}

/* ---- the device's sync state ---- */

/* A device call of an enabled extension (NULL when the driver lacks it). */
#define LOAD(sync, name, type) ((type)vkGetDeviceProcAddr((sync)->device, name))

static tflaccel_status create_semaphore(vk_sync *sync, VkSemaphoreType type,
                                        VkExternalSemaphoreHandleTypeFlags exported,
                                        VkSemaphore *semaphore) {
  const VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, .handleTypes = exported};
  const VkSemaphoreTypeCreateInfoKHR type_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR,
      .pNext = exported != 0 ? &export_info : NULL,
      .semaphoreType = type};
  const VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
                                      .pNext = type == VK_SEMAPHORE_TYPE_TIMELINE
                                                   ? (const void *)&type_info
                                                   : (exported != 0 ? &export_info : NULL)};
  VkResult result = vkCreateSemaphore(sync->device, &info, NULL, semaphore);
  if (result == VK_SUCCESS) return NULL;
  *semaphore = VK_NULL_HANDLE;
  return vk_call_failed(sync->host, "vkCreateSemaphore", result);
}

tflaccel_status vk_sync_init(const tflaccel_host_services *host, VkDevice device, VkQueue queue,
                             const vk_sync_support *support, const char *device_name,
                             vk_fence_pool *fences, vk_sync *sync) {
  memset(sync, 0, sizeof *sync);
  sync->host = host;
  sync->device = device;
  sync->queue = queue;
  sync->support = support;
  sync->device_name = device_name;
  sync->fences = fences;
  if (pthread_mutex_init(&sync->queue_lock, NULL) != 0)
    return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_vk: cannot make the queue's lock");
  if (pthread_mutex_init(&sync->state_lock, NULL) != 0) {
    pthread_mutex_destroy(&sync->queue_lock);
    return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_vk: cannot make the events' lock");
  }
  sync->locks_made = 1;
  if (support->timeline) {
    sync->get_counter =
        LOAD(sync, "vkGetSemaphoreCounterValueKHR", PFN_vkGetSemaphoreCounterValueKHR);
    sync->wait_semaphores = LOAD(sync, "vkWaitSemaphoresKHR", PFN_vkWaitSemaphoresKHR);
  }
  if (support->semaphore_fd) {
    sync->get_semaphore_fd = LOAD(sync, "vkGetSemaphoreFdKHR", PFN_vkGetSemaphoreFdKHR);
    sync->import_semaphore_fd = LOAD(sync, "vkImportSemaphoreFdKHR", PFN_vkImportSemaphoreFdKHR);
  }
  if (support->fence_fd)
    sync->import_fence_fd = LOAD(sync, "vkImportFenceFdKHR", PFN_vkImportFenceFdKHR);
  if (support->timeline && (sync->get_counter == NULL || sync->wait_semaphores == NULL)) {
    vk_sync_release(sync);
    return host->status_make(TFLACCEL_BACKEND_ERROR,
                             "gpu_vk: %s lists VK_KHR_timeline_semaphore but its calls are missing",
                             device_name);
  }
  if (!support->timeline) return NULL;
  tflaccel_status status =
      create_semaphore(sync, VK_SEMAPHORE_TYPE_TIMELINE,
                       support->timeline_opaque_export && sync->get_semaphore_fd != NULL
                           ? VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT
                           : 0,
                       &sync->timeline);
  if (status != NULL) vk_sync_release(sync);
  return status;
}

void vk_sync_release(vk_sync *sync) {
  if (sync->host == NULL) return;
  if (sync->timeline != VK_NULL_HANDLE) {
    /* The runs' fences say their batches are done, but a driver that
     * emulates timelines on a submit thread (Mesa's common runtime:
     * lavapipe) may still be filing the last signal's point: an idle
     * queue is one whose thread is done too. */
    pthread_mutex_lock(&sync->queue_lock);
    VkResult idle = vkQueueWaitIdle(sync->queue);
    pthread_mutex_unlock(&sync->queue_lock);
    if (idle != VK_SUCCESS)
      sync->host->log(sync->host->context, TFLACCEL_LOG_WARNING,
                      "gpu_vk: vkQueueWaitIdle before destroying the timeline semaphore: %s (%d)",
                      vk_result_name(idle), (int)idle);
    vkDestroySemaphore(sync->device, sync->timeline, NULL);
  }
  if (sync->locks_made) {
    pthread_mutex_destroy(&sync->queue_lock);
    pthread_mutex_destroy(&sync->state_lock);
  }
  memset(sync, 0, sizeof *sync);
}

VkResult vk_sync_queue_submit(vk_sync *sync, const VkSubmitInfo *submit, VkFence fence) {
  pthread_mutex_lock(&sync->queue_lock);
  VkResult result = vkQueueSubmit(sync->queue, 1, submit, fence);
  pthread_mutex_unlock(&sync->queue_lock);
  return result;
}

/* ---- runs: what they wait for and signal ---- */

/* The consumer of a binary semaphore event (a new reference), or NULL. */
static vk_event *binary_consumer(vk_event *event) {
  pthread_mutex_lock(&event->sync->state_lock);
  vk_event *consumer = vk_event_retain(event->consumer);
  pthread_mutex_unlock(&event->sync->state_lock);
  return consumer;
}

tflaccel_status vk_sync_wait_on_cpu(vk_sync *sync, tflaccel_event *const *waits,
                                    uint32_t wait_count) {
  (void)sync;
  for (uint32_t w = 0; w < wait_count; ++w) {
    vk_event *wait = vk_event_of(waits[w]);
    if (wait->kind != VK_EVENT_FENCE) continue;
    tflaccel_status status = vk_event_wait(wait);
    if (status != NULL) return status;
  }
  return NULL;
}

tflaccel_status vk_sync_prepare_event(vk_sync *sync, vk_event *done) {
  done->semaphore = sync->timeline;
  if (!sync->support->binary_sync_fd_export || sync->get_semaphore_fd == NULL) return NULL;
  return create_semaphore(sync, VK_SEMAPHORE_TYPE_BINARY,
                          VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT,
                          &done->sync_file_semaphore);
}

/* Whether waits[0..index) has the event at index already. */
static int listed_before(tflaccel_event *const *waits, uint32_t index) {
  for (uint32_t w = 0; w < index; ++w)
    if (waits[w] == waits[index]) return 1;
  return 0;
}

VkResult vk_sync_submit_run(vk_sync *sync, gpu_fault *fault, const VkCommandBuffer *commands,
                            uint32_t command_count, tflaccel_event *const *waits,
                            uint32_t wait_count, vk_event *done) {
  const tflaccel_host_services *host = sync->host;
  VkSemaphore *wait_semaphores = NULL;
  uint64_t *wait_values = NULL;
  VkPipelineStageFlags *wait_stages = NULL;
  vk_event **consumed = NULL;
  if (wait_count > 0) {
    wait_semaphores =
        host->alloc(host->context, wait_count * sizeof *wait_semaphores, _Alignof(VkSemaphore));
    wait_values = host->alloc(host->context, wait_count * sizeof *wait_values, _Alignof(uint64_t));
    wait_stages = host->alloc(host->context, wait_count * sizeof *wait_stages,
                              _Alignof(VkPipelineStageFlags));
    consumed = host->alloc(host->context, wait_count * sizeof *consumed, _Alignof(vk_event *));
    if (wait_semaphores == NULL || wait_values == NULL || wait_stages == NULL || consumed == NULL) {
      if (wait_semaphores != NULL) host->free(host->context, wait_semaphores);
      if (wait_values != NULL) host->free(host->context, wait_values);
      if (wait_stages != NULL) host->free(host->context, wait_stages);
      if (consumed != NULL) host->free(host->context, consumed);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  /* The state lock stays held until the binary semaphores waited for here
   * have their consumer, so that no event wait consumes one meanwhile. */
  pthread_mutex_lock(&sync->state_lock);
  uint32_t semaphore_count = 0, consumed_count = 0;
  VkResult result = VK_SUCCESS;
  for (uint32_t w = 0; result == VK_SUCCESS && w < wait_count; ++w) {
    vk_event *wait = vk_event_of(waits[w]);
    if (wait->kind == VK_EVENT_FENCE || listed_before(waits, w)) continue;
    if (wait->kind == VK_EVENT_BINARY) {
      /* Consumed already (by an earlier run, or an event wait's empty
       * submission): its consumer's fence stands for it, on the CPU. */
      if (wait->consumer != NULL) {
        result = vk_event_wait_fence(wait->consumer);
        continue;
      }
      consumed[consumed_count++] = wait;
    }
    wait_semaphores[semaphore_count] = wait->semaphore;
    wait_values[semaphore_count] = wait->kind == VK_EVENT_TIMELINE ? wait->value : 0;
    /* The run's first commands may be transfers (uploads) or dispatches. */
    wait_stages[semaphore_count] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    ++semaphore_count;
  }
  VkSemaphore signals[2];
  uint64_t signal_values[2] = {0, 0};
  uint32_t signal_count = 0;
  uint64_t value = sync->timeline_value + 1;
  if (sync->timeline != VK_NULL_HANDLE) {
    signals[signal_count] = sync->timeline;
    signal_values[signal_count++] = value;
  }
  if (done->sync_file_semaphore != VK_NULL_HANDLE)
    signals[signal_count++] = done->sync_file_semaphore;
  const VkTimelineSemaphoreSubmitInfoKHR timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO_KHR,
      .waitSemaphoreValueCount = semaphore_count,
      .pWaitSemaphoreValues = wait_values,
      .signalSemaphoreValueCount = signal_count,
      .pSignalSemaphoreValues = signal_values};
  const VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      /* Only where timeline semaphores are on: binary values are ignored. */
      .pNext = sync->support->timeline ? &timeline : NULL,
      .waitSemaphoreCount = semaphore_count,
      .pWaitSemaphores = wait_semaphores,
      .pWaitDstStageMask = wait_stages,
      .commandBufferCount = command_count,
      .pCommandBuffers = commands,
      .signalSemaphoreCount = signal_count,
      .pSignalSemaphores = signals};
  if (result == VK_SUCCESS) result = vk_fault(fault, "vkQueueSubmit", GPU_FAULT_LOST);
  if (result == VK_SUCCESS) result = vk_sync_queue_submit(sync, &submit, done->fence);
  if (result == VK_SUCCESS) {
    if (sync->timeline != VK_NULL_HANDLE) {
      sync->timeline_value = value;
      done->value = value;
    }
    for (uint32_t c = 0; c < consumed_count; ++c)
      consumed[c]->consumer = vk_event_retain(done);
  }
  pthread_mutex_unlock(&sync->state_lock);
  if (wait_count > 0) {
    host->free(host->context, wait_semaphores);
    host->free(host->context, wait_values);
    host->free(host->context, wait_stages);
    host->free(host->context, consumed);
  }
  return result;
}

/* ---- semaphore events ---- */

/* The consumer of a wrapped binary semaphore: the run that waited for it,
 * or, before any did, an empty submission that waits for it now. */
static tflaccel_status consume_binary(vk_event *event, vk_event **consumer) {
  vk_sync *sync = event->sync;
  *consumer = NULL;
  pthread_mutex_lock(&sync->state_lock);
  tflaccel_status status = NULL;
  if (event->consumer == NULL) {
    vk_event *empty = NULL;
    status = vk_event_create(sync->fences, sync, &empty);
    if (status == NULL) {
      const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
      const VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                   .waitSemaphoreCount = 1,
                                   .pWaitSemaphores = &event->semaphore,
                                   .pWaitDstStageMask = &stage};
      VkResult result = vk_sync_queue_submit(sync, &submit, empty->fence);
      if (result == VK_SUCCESS) {
        event->consumer = empty;
      } else {
        vk_event_release(empty);
        status =
            vk_call_failed(sync->host, "vkQueueSubmit (waiting for a binary VkSemaphore)", result);
      }
    }
  }
  if (status == NULL) *consumer = vk_event_retain(event->consumer);
  pthread_mutex_unlock(&sync->state_lock);
  return status;
}

tflaccel_status vk_semaphore_event_wait(vk_event *event) {
  vk_sync *sync = event->sync;
  if (event->kind == VK_EVENT_TIMELINE) {
    const VkSemaphoreWaitInfoKHR info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO_KHR,
                                         .semaphoreCount = 1,
                                         .pSemaphores = &event->semaphore,
                                         .pValues = &event->value};
    VkResult result = sync->wait_semaphores(sync->device, &info, UINT64_MAX);
    return result == VK_SUCCESS ? NULL : vk_call_failed(sync->host, "vkWaitSemaphores", result);
  }
  vk_event *consumer = NULL;
  tflaccel_status status = consume_binary(event, &consumer);
  if (status == NULL) status = vk_event_wait(consumer);
  vk_event_release(consumer);
  return status;
}

tflaccel_status vk_semaphore_event_query(vk_event *event, int32_t *signalled) {
  vk_sync *sync = event->sync;
  *signalled = 0;
  if (event->kind == VK_EVENT_TIMELINE) {
    uint64_t counter = 0;
    VkResult result = sync->get_counter(sync->device, event->semaphore, &counter);
    if (result != VK_SUCCESS)
      return vk_call_failed(sync->host, "vkGetSemaphoreCounterValue", result);
    *signalled = counter >= event->value;
    return NULL;
  }
  /* A binary semaphore's state cannot be read: known signalled once the
   * submission that waited for it is done. */
  vk_event *consumer = binary_consumer(event);
  tflaccel_status status = consumer != NULL ? vk_event_query(consumer, signalled) : NULL;
  vk_event_release(consumer);
  return status;
}

/* The one line of an UNSUPPORTED export or wrap: the type, the device and
 * what it lacks. */
static tflaccel_status lacks(const vk_sync *sync, int32_t type, const char *missing) {
  return sync->host->status_make(TFLACCEL_UNSUPPORTED, "gpu_vk: no %s events on %s: %s",
                                 gpu_native_event_name(type), sync->device_name, missing);
}

tflaccel_status vk_semaphore_export(vk_event *event, int32_t type, tflaccel_native_event *native) {
  vk_sync *sync = event->sync;
  if (type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD) {
    if (event->sync_file_semaphore == VK_NULL_HANDLE)
      return lacks(sync, type,
                   sync->support->semaphore_fd
                       ? "the driver does not export binary semaphores as SYNC_FD "
                         "(vkGetPhysicalDeviceExternalSemaphoreProperties)"
                       : "needs VK_KHR_external_semaphore_fd, which the driver lacks");
    /* Exporting a sync_file unsignals the semaphore: once per event. */
    pthread_mutex_lock(&sync->state_lock);
    VkResult result = VK_SUCCESS;
    if (event->sync_file_fd < 0) {
      const VkSemaphoreGetFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                            .semaphore = event->sync_file_semaphore,
                                            .handleType =
                                                VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT};
      result = sync->get_semaphore_fd(sync->device, &info, &event->sync_file_fd);
      /* -1 is Vulkan's (and Android's) "signalled already". */
      if (result != VK_SUCCESS) event->sync_file_fd = -1;
    }
    int fd = event->sync_file_fd;
    pthread_mutex_unlock(&sync->state_lock);
    if (result != VK_SUCCESS) return vk_call_failed(sync->host, "vkGetSemaphoreFdKHR", result);
    *native = (tflaccel_native_event){
        .struct_size = sizeof *native, .type = type, .handle = (uint64_t)(int64_t)fd};
    return NULL;
  }
  if (event->semaphore == VK_NULL_HANDLE)
    return lacks(sync, type,
                 sync->support->timeline_extension
                     ? "the timelineSemaphore feature of VK_KHR_timeline_semaphore is off"
                     : "needs VK_KHR_timeline_semaphore, which the driver lacks");
  uint64_t handle = (uint64_t)(uintptr_t)event->semaphore;
  if (type == TFLACCEL_NATIVE_EVENT_OPAQUE_FD) {
    if (!sync->support->timeline_opaque_export || sync->get_semaphore_fd == NULL)
      return lacks(sync, type,
                   sync->support->semaphore_fd
                       ? "the driver does not export timeline semaphores as OPAQUE_FD "
                         "(vkGetPhysicalDeviceExternalSemaphoreProperties)"
                       : "needs VK_KHR_external_semaphore_fd, which the driver lacks");
    const VkSemaphoreGetFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                          .semaphore = event->semaphore,
                                          .handleType =
                                              VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    VkResult result = sync->get_semaphore_fd(sync->device, &info, &fd);
    if (result != VK_SUCCESS) return vk_call_failed(sync->host, "vkGetSemaphoreFdKHR", result);
    handle = (uint64_t)fd;
  }
  *native = (tflaccel_native_event){
      .struct_size = sizeof *native, .type = type, .handle = handle, .value = event->value};
  return NULL;
}

/* ---- wrapping the application's objects ---- */

/* Whether the fd of native is open; a dup() of it (Vulkan takes the
 * dup on a successful import; the application keeps its own). */
/* A sync_file fd of -1 (handle UINT64_MAX) is Vulkan's "signalled already". */
static int signalled_sync_file(const tflaccel_native_event *native) {
  return native->type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD && native->handle == UINT64_MAX;
}

static tflaccel_status check_fd(const vk_sync *sync, const tflaccel_native_event *native) {
  if (signalled_sync_file(native)) return NULL;
  if (native->handle <= (uint64_t)INT_MAX && fcntl((int)native->handle, F_GETFD) != -1) return NULL;
  return sync->host->status_make(
      TFLACCEL_INVALID_ARGUMENT, "gpu_vk: event_wrap: %s %llu is not an open file descriptor",
      gpu_native_event_name(native->type), (unsigned long long)native->handle);
}

static tflaccel_status dup_fd(vk_sync *sync, const tflaccel_native_event *native, int *copy) {
  *copy = -1;
  tflaccel_status status = check_fd(sync, native);
  if (status != NULL || signalled_sync_file(native)) return status;
  *copy = fcntl((int)native->handle, F_DUPFD_CLOEXEC, 0);
  if (*copy == -1)
    return sync->host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_vk: event_wrap: dup of fd %d: %s",
                                   (int)native->handle, strerror(errno));
  return NULL;
}

static tflaccel_status lacks_import(const vk_sync *sync, const tflaccel_native_event *native,
                                    const char *missing) {
  return lacks(sync, native->type, missing);
}

/* An event of a new semaphore of type holding the payload of the fd of
 * native, as handle_type (temporarily for a binary one). */
static tflaccel_status import_semaphore_fd(vk_sync *sync, const tflaccel_native_event *native,
                                           VkSemaphoreType type,
                                           VkExternalSemaphoreHandleTypeFlagBits handle_type,
                                           vk_event *event) {
  int fd = -1;
  tflaccel_status status = dup_fd(sync, native, &fd);
  if (status == NULL) status = create_semaphore(sync, type, 0, &event->semaphore);
  if (status != NULL) {
    if (fd >= 0) close(fd);
    return status;
  }
  event->owns_semaphore = 1;
  const VkImportSemaphoreFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR,
      .semaphore = event->semaphore,
      .flags = type == VK_SEMAPHORE_TYPE_BINARY ? VK_SEMAPHORE_IMPORT_TEMPORARY_BIT : 0,
      .handleType = handle_type,
      .fd = fd};
  VkResult result = sync->import_semaphore_fd(sync->device, &info);
  if (result == VK_SUCCESS) return NULL;
  if (fd >= 0) close(fd);
  return result == VK_ERROR_INVALID_EXTERNAL_HANDLE
             ? sync->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                       "gpu_vk: event_wrap: %s %d is not a %s semaphore's fd of "
                                       "this driver (vkImportSemaphoreFdKHR: "
                                       "VK_ERROR_INVALID_EXTERNAL_HANDLE)",
                                       gpu_native_event_name(native->type), (int)native->handle,
                                       type == VK_SEMAPHORE_TYPE_BINARY ? "binary" : "timeline")
             : vk_call_failed(sync->host, "vkImportSemaphoreFdKHR", result);
}

/* A new fence holding the sync_file's payload (temporarily). */
static tflaccel_status import_fence_sync_fd(vk_sync *sync, const tflaccel_native_event *native,
                                            vk_event *event) {
  int fd = -1;
  tflaccel_status status = dup_fd(sync, native, &fd);
  if (status != NULL) return status;
  const VkFenceCreateInfo create = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkResult result = vkCreateFence(sync->device, &create, NULL, &event->fence);
  if (result != VK_SUCCESS) {
    if (fd >= 0) close(fd);
    event->fence = VK_NULL_HANDLE;
    return vk_call_failed(sync->host, "vkCreateFence", result);
  }
  event->owns_fence = 1;
  const VkImportFenceFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR,
                                       .fence = event->fence,
                                       .flags = VK_FENCE_IMPORT_TEMPORARY_BIT,
                                       .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT,
                                       .fd = fd};
  result = sync->import_fence_fd(sync->device, &info);
  if (result == VK_SUCCESS) return NULL;
  if (fd >= 0) close(fd);
  return vk_call_failed(sync->host, "vkImportFenceFdKHR", result);
}

static tflaccel_status wrap_into(vk_sync *sync, const tflaccel_native_event *native,
                                 vk_event *event) {
  const vk_sync_support *support = sync->support;
  int32_t timeline = native->value > 0;
  if (timeline && native->type == TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD)
    return sync->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_vk: event_wrap: a sync_file fd has no timeline value "
                                   "(value %llu; 0 expected)",
                                   (unsigned long long)native->value);
  if (timeline && !support->timeline)
    return lacks_import(sync, native,
                        "a timeline value needs VK_KHR_timeline_semaphore with its "
                        "timelineSemaphore feature, which the driver lacks");
  event->kind = timeline ? VK_EVENT_TIMELINE : VK_EVENT_BINARY;
  event->value = native->value;
  if (native->type == TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE) {
    event->semaphore = (VkSemaphore)(uintptr_t)native->handle;
    event->borrowed = 1;
    return NULL;
  }
  if (native->type == TFLACCEL_NATIVE_EVENT_OPAQUE_FD) {
    /* Argument errors first, then what the driver lacks. */
    tflaccel_status status = check_fd(sync, native);
    if (status != NULL) return status;
    if (sync->import_semaphore_fd == NULL)
      return lacks_import(sync, native,
                          "needs VK_KHR_external_semaphore_fd, which the driver lacks");
    if (timeline ? !support->timeline_opaque_import : !support->binary_opaque_import)
      return lacks_import(sync, native,
                          timeline ? "the driver does not import timeline semaphores as OPAQUE_FD"
                                   : "the driver does not import binary semaphores as OPAQUE_FD");
    return import_semaphore_fd(sync, native,
                               timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
                               VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, event);
  }
  /* A sync_file: into a binary semaphore (waited for in the queue) where
   * the driver imports one, else into a fence (waited for on the CPU). */
  tflaccel_status status = check_fd(sync, native);
  if (status != NULL) return status;
  if (support->binary_sync_fd_import && sync->import_semaphore_fd != NULL)
    return import_semaphore_fd(sync, native, VK_SEMAPHORE_TYPE_BINARY,
                               VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, event);
  if (support->fence_sync_fd_import && sync->import_fence_fd != NULL) {
    event->kind = VK_EVENT_FENCE;
    return import_fence_sync_fd(sync, native, event);
  }
  return lacks_import(sync, native,
                      support->semaphore_fd || support->fence_fd
                          ? "the driver imports neither semaphores nor fences as SYNC_FD "
                            "(vkGetPhysicalDeviceExternal{Semaphore,Fence}Properties)"
                          : "needs VK_KHR_external_semaphore_fd or VK_KHR_external_fence_fd, "
                            "which the driver lacks");
}

tflaccel_status vk_semaphore_import(vk_sync *sync, const tflaccel_native_event *native,
                                    vk_event **event) {
  *event = NULL;
  vk_event *created = vk_event_alloc(sync->host, sync->device, sync);
  if (created == NULL)
    return sync->host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (event)");
  tflaccel_status status = wrap_into(sync, native, created);
  if (status != NULL) {
    vk_event_release(created);
    return status;
  }
  *event = created;
  return NULL;
}
