/* The Vulkan backend of the GPU layer (vk_backend.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_profile.h"
#include "plugins/gpu_common/gpu_work_group.h"
#include "plugins/gpu_vk/vk_backend.h"
#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_event.h"

/* Descriptor sets per pool; a new pool is made when one runs out. */
#define POOL_SETS 256
/* Kernel argument slots (gpu_backend.h): 0 the parameters, 1 their offset,
 * 2.. the tensors. Descriptor binding 0 is the parameters, 1.. the
 * tensors, 1 the output. */
#define SLOT_BASE 1
#define BINDING_OUTPUT 1

/* A mirrored buffer the recorded sequence binds; written: a dispatch
 * writes it (a partition output). */
typedef struct vk_bound_mirror {
  tflaccel_buffer *buffer;
  int32_t written;
} vk_bound_mirror;

struct gpu_kernel_object {
  int32_t kernel, variant;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  tflaccel_buffer *buffers[VK_PIPELINE_BINDINGS]; /* what each binding holds */
  uint8_t narrowed[VK_PIPELINE_BINDINGS];         /* bound to a byte range only */
  int32_t base;                                   /* the push constant */
  uint32_t local[3];                              /* work group of the cached pipeline */
  uint32_t post_list;                             /* and its post-op list */
  VkPipeline pipeline;
};

/* One dispatch: its kernel's pipeline for the fitted work group and the
 * work-group counts, found once. */
typedef struct vk_step {
  gpu_kernel_object *object;
  VkPipeline pipeline;
  uint32_t groups[3];
  int32_t barrier_before; /* the GPU layer's barrier plan */
  int32_t grid_values[GPU_GRID_VALUE_COUNT]; /* pushed after the object's base */
} vk_step;

/* A compiled partition's dispatches and the command buffer they are
 * recorded in: recorded at the first run and again only when a kernel's
 * buffers changed (rebound), replayed by every other run. */
struct gpu_sequence {
  vk_step *steps;
  uint32_t count;
  VkCommandBuffer commands;
  int32_t recorded;
  /* The mirrored buffers the recording binds, each once. */
  vk_bound_mirror *mirrors;
  uint32_t mirror_count, mirror_capacity;
  /* Profiling: a timestamp before the first dispatch and one after each. */
  VkQueryPool timestamps;
};

static vk_backend_device *self_of(void *device) { return device; }

/* vk_backend_drain, for calls that cannot return its failure: logged. */
static void drain_or_log(vk_backend_device *self) {
  tflaccel_status status = vk_backend_drain(self);
  if (status == NULL) return;
  self->host->log(self->host->context, TFLACCEL_LOG_ERROR, "%s", self->host->status_message(status));
  self->host->status_free(status);
}

/* ---- buffers ---- */

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  vk_backend_device *self = self_of(device);
  return vk_buffer_create(self->host, self->context, size, VK_MEMORY_DEVICE, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  vk_backend_device *self = self_of(device);
  drain_or_log(self);
  vk_buffer_destroy(self->host, self->context, buffer);
}

/* Submits command buffers, in order, as one submission with the device's
 * fence, and waits for it. */
static VkResult wait_for_fence(vk_backend_device *self) {
  /* An injected loss leaves the submission running, as a real one may. */
  VkResult injected = vk_fault(self->context->fault, "vkWaitForFences", GPU_FAULT_LOST);
  if (injected != VK_SUCCESS) return injected;
  return vk_fence_wait(self->context->device, self->fence);
}

/* After a failed wait the submission may still run (a driver may report
 * the loss before its queue drains; the fault hook fails the wait without
 * making it): its command buffers, descriptor sets and buffers may be
 * neither freed nor reused, nor its fence reset, until it is done.
 * vkDeviceWaitIdle returns when the device is idle, or
 * VK_ERROR_DEVICE_LOST when it is lost for good; after that the
 * specification lets every object be destroyed (the GPU layer then fails
 * every call but the releases: gpu_plugin.c). The fence is made unsignaled
 * again for a next submission where the device still works. */
static void drain_after_failure(vk_backend_device *self) {
  const tflaccel_host_services *host = self->host;
  VkResult idle = vkDeviceWaitIdle(self->context->device);
  if (idle != VK_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING,
              "vkDeviceWaitIdle after a failed wait: %s (%d); the device is lost",
              vk_result_name(idle), (int)idle);
  VkResult reset = vkResetFences(self->context->device, 1, &self->fence);
  if (reset != VK_SUCCESS && idle == VK_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING, "vkResetFences after a failed wait: %s (%d)",
              vk_result_name(reset), (int)reset);
}

static tflaccel_status submit_and_wait(vk_backend_device *self, uint32_t count,
                                       const VkCommandBuffer *commands) {
  tflaccel_status drained = vk_backend_drain(self);
  if (drained != NULL) return drained;
  const VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = count,
      .pCommandBuffers = commands,
  };
  VkResult result = vk_fault(self->context->fault, "vkQueueSubmit", GPU_FAULT_LOST);
  if (result == VK_SUCCESS) result = vk_sync_queue_submit(&self->sync, &submit, self->fence);
  if (result != VK_SUCCESS) {
    /* A submission that failed with a loss may have left work queued. */
    if (result == VK_ERROR_DEVICE_LOST) drain_after_failure(self);
    return vk_call_failed(self->host, "vkQueueSubmit", result);
  }
  result = wait_for_fence(self);
  if (result != VK_SUCCESS) {
    drain_after_failure(self);
    return vk_call_failed(self->host, "vkWaitForFences", result);
  }
  VkResult reset = vkResetFences(self->context->device, 1, &self->fence);
  if (reset != VK_SUCCESS) return vk_call_failed(self->host, "vkResetFences", reset);
  return NULL;
}

/* Copies data into a buffer in device-only memory through a host-visible
 * staging buffer, and makes the copy visible to later dispatches. */
static tflaccel_status upload_staged(vk_backend_device *self, tflaccel_buffer *buffer,
                                     const void *data, uint64_t size) {
  tflaccel_buffer *staging = NULL;
  tflaccel_status status =
      vk_buffer_create(self->host, self->context, size, VK_MEMORY_HOST, &staging);
  if (status != NULL) return status;
  status = vk_buffer_write(self->host, staging, 0, data, size);
  VkCommandBuffer commands = self->transfer_commands;
  if (status == NULL) {
    VkResult result = vkResetCommandBuffer(commands, 0);
    const VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (result == VK_SUCCESS) result = vkBeginCommandBuffer(commands, &begin);
    if (result == VK_SUCCESS) {
      const VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = size};
      vkCmdCopyBuffer(commands, vk_buffer_handle(staging), vk_buffer_handle(buffer), 1, &region);
      const VkMemoryBarrier barrier = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
      };
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
      result = vkEndCommandBuffer(commands);
    }
    if (result != VK_SUCCESS)
      status = vk_call_failed(self->host, "recording a staging copy", result);
  }
  if (status == NULL) status = submit_and_wait(self, 1, &commands);
  vk_buffer_destroy(self->host, self->context, staging);
  return status;
}

static tflaccel_status buffer_upload(void *device, tflaccel_buffer *buffer, const void *data,
                                     uint64_t size) {
  vk_backend_device *self = self_of(device);
  if (size > vk_buffer_size(buffer))
    return self->host->status_make(
        TFLACCEL_INTERNAL, "gpu_vk: upload of %llu bytes into a %llu-byte buffer",
        (unsigned long long)size, (unsigned long long)vk_buffer_size(buffer));
  if (size == 0) return NULL;
  tflaccel_status drained = vk_backend_drain(self);
  if (drained != NULL) return drained;
  unsigned char *mapped = vk_buffer_mapped(buffer);
  if (mapped != NULL) {
    /* Coherent memory: the next queue submission sees the bytes. */
    memcpy(mapped, data, (size_t)size);
    return NULL;
  }
  return upload_staged(self, buffer, data, size);
}

/* ---- mirrored buffers ---- */

static void global_barrier(VkCommandBuffer commands, VkPipelineStageFlags source_stage,
                           VkAccessFlags source_access, VkPipelineStageFlags destination_stage,
                           VkAccessFlags destination_access) {
  const VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = source_access,
      .dstAccessMask = destination_access,
  };
  vkCmdPipelineBarrier(commands, source_stage, destination_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}

/* Records one whole-buffer copy, replayable: first waiting for earlier
 * dispatches and copies (their writes, and their reads of what it
 * overwrites); a download then makes its writes visible to the host. */
static VkResult record_copy(VkCommandBuffer commands, VkBuffer source, VkBuffer destination,
                            VkDeviceSize size, int download) {
  const VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VkResult result = vkBeginCommandBuffer(commands, &begin);
  if (result != VK_SUCCESS) return result;
  global_barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = size};
  vkCmdCopyBuffer(commands, source, destination, 1, &region);
  if (download)
    global_barrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  return vkEndCommandBuffer(commands);
}

/* Records a mirrored buffer's upload and download, once. */
static tflaccel_status prepare_copies(vk_backend_device *self, tflaccel_buffer *buffer) {
  if (vk_buffer_upload_commands(buffer) != VK_NULL_HANDLE) return NULL;
  const VkCommandBufferAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = self->command_pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 2,
  };
  VkCommandBuffer copies[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkResult result = vk_fault(self->context->fault, "vkAllocateCommandBuffers", GPU_FAULT_MEMORY);
  if (result == VK_SUCCESS) result = vkAllocateCommandBuffers(self->context->device, &info, copies);
  if (result != VK_SUCCESS)
    return vk_call_failed(self->host, "vkAllocateCommandBuffers (buffer copies)", result);
  VkBuffer device_side = vk_buffer_handle(buffer), mirror = vk_buffer_mirror_handle(buffer);
  VkDeviceSize size = vk_buffer_allocation_size(buffer);
  result = record_copy(copies[0], mirror, device_side, size, 0);
  if (result == VK_SUCCESS) result = record_copy(copies[1], device_side, mirror, size, 1);
  if (result != VK_SUCCESS) {
    vkFreeCommandBuffers(self->context->device, self->command_pool, 2, copies);
    return vk_call_failed(self->host, "recording a buffer's copies", result);
  }
  vk_buffer_keep_copies(buffer, self->command_pool, copies[0], copies[1]);
  return NULL;
}

/* Brings a mirrored buffer's device bytes into its mirror now. */
static tflaccel_status download_now(vk_backend_device *self, tflaccel_buffer *buffer) {
  tflaccel_status status = prepare_copies(self, buffer);
  if (status != NULL) return status;
  VkCommandBuffer download = vk_buffer_download_commands(buffer);
  status = submit_and_wait(self, 1, &download);
  if (status == NULL) vk_buffer_set_mirror_state(buffer, VK_MIRROR_CURRENT);
  return status;
}

/* Sends a mirrored buffer's host bytes to its device side now. */
static tflaccel_status upload_now(vk_backend_device *self, tflaccel_buffer *buffer) {
  tflaccel_status status = prepare_copies(self, buffer);
  if (status != NULL) return status;
  VkCommandBuffer upload = vk_buffer_upload_commands(buffer);
  status = submit_and_wait(self, 1, &upload);
  if (status == NULL) vk_buffer_set_mirror_state(buffer, VK_MIRROR_CURRENT);
  return status;
}

tflaccel_status vk_backend_buffer_write(vk_backend_device *device, tflaccel_buffer *buffer,
                                        uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status drained = vk_backend_drain(device);
  if (drained != NULL) return drained;
  /* The upload copies the whole mirror: a partial write must not bring
   * stale bytes around it back over newer device ones. */
  int partial = offset != 0 || size < vk_buffer_size(buffer);
  /* An exported buffer's device side may have been written by another
   * API, and is read there: a host copy goes through at once. */
  int exported = vk_buffer_is_mirrored(buffer) && vk_buffer_is_exported(buffer);
  if (vk_buffer_is_mirrored(buffer) &&
      (vk_buffer_mirror_state(buffer) == VK_MIRROR_DEVICE_NEWER || exported) && partial) {
    tflaccel_status status = download_now(device, buffer);
    if (status != NULL) return status;
  }
  tflaccel_status status = vk_buffer_write(device->host, buffer, offset, source, size);
  if (status == NULL && exported) status = upload_now(device, buffer);
  return status;
}

tflaccel_status vk_backend_buffer_read(vk_backend_device *device, tflaccel_buffer *buffer,
                                       uint64_t offset, void *destination, uint64_t size) {
  tflaccel_status drained = vk_backend_drain(device);
  if (drained != NULL) return drained;
  if (vk_buffer_is_mirrored(buffer) &&
      (vk_buffer_mirror_state(buffer) == VK_MIRROR_DEVICE_NEWER || vk_buffer_is_exported(buffer))) {
    tflaccel_status status = download_now(device, buffer);
    if (status != NULL) return status;
  }
  return vk_buffer_read(device->host, buffer, offset, destination, size);
}

/* ---- kernels ---- */

static tflaccel_status allocate_set(vk_backend_device *self, VkDescriptorPool *pool,
                                    VkDescriptorSet *set) {
  const tflaccel_host_services *host = self->host;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (self->pool_count > 0) {
      VkDescriptorSetAllocateInfo info = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
          .descriptorPool = self->pools[self->pool_count - 1],
          .descriptorSetCount = 1,
          .pSetLayouts = &self->pipelines.set_layout,
      };
      VkResult result =
          vk_fault(self->context->fault, "vkAllocateDescriptorSets", GPU_FAULT_MEMORY);
      if (result == VK_SUCCESS) result = vkAllocateDescriptorSets(self->context->device, &info, set);
      if (result == VK_SUCCESS) {
        *pool = info.descriptorPool;
        return NULL;
      }
      if (result != VK_ERROR_OUT_OF_POOL_MEMORY && result != VK_ERROR_FRAGMENTED_POOL)
        return vk_call_failed(host, "vkAllocateDescriptorSets", result);
    }
    /* No pool yet, or the last is full: a new one. */
    if (!gpu_array_reserve(host, (void **)&self->pools, &self->pool_capacity, self->pool_count + 1,
                           sizeof *self->pools, _Alignof(VkDescriptorPool)))
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (pools)");
    const VkDescriptorPoolSize sizes = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        .descriptorCount = POOL_SETS * VK_PIPELINE_BINDINGS};
    const VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
        .maxSets = POOL_SETS,
        .poolSizeCount = 1,
        .pPoolSizes = &sizes,
    };
    VkResult result = vk_fault(self->context->fault, "vkCreateDescriptorPool", GPU_FAULT_MEMORY);
    if (result == VK_SUCCESS)
      result = vkCreateDescriptorPool(self->context->device, &info, NULL,
                                      &self->pools[self->pool_count]);
    if (result != VK_SUCCESS) return vk_call_failed(host, "vkCreateDescriptorPool", result);
    self->pool_count++;
  }
  return host->status_make(TFLACCEL_BACKEND_ERROR,
                           "gpu_vk: a fresh descriptor pool could not give a set");
}

static tflaccel_status kernel_create(void *device, int32_t storage, int32_t kernel,
                                     const int32_t *params, gpu_kernel_object **object) {
  (void)params; /* built per post-op list instead (gpu_step.post_list) */
  vk_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *object = NULL;
  if (storage < 0 || storage >= GPU_STORAGE_MODE_COUNT || kernel < 0 ||
      kernel >= GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_vk: kernel %d in storage mode %d", (int)kernel,
                             (int)storage);
  gpu_kernel_object *created =
      host->alloc(host->context, sizeof *created, _Alignof(gpu_kernel_object));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (kernel)");
  memset(created, 0, sizeof *created);
  created->kernel = kernel;
  created->variant = self->variants[storage];
  tflaccel_status status = allocate_set(self, &created->pool, &created->set);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  *object = created;
  return NULL;
}

static void kernel_destroy(void *device, gpu_kernel_object *object) {
  vk_backend_device *self = self_of(device);
  if (object == NULL) return;
  drain_or_log(self);
  VkDevice handle = self->context->device;
  VkResult result = vkFreeDescriptorSets(handle, object->pool, 1, &object->set);
  if (result != VK_SUCCESS)
    self->host->log(self->host->context, TFLACCEL_LOG_WARNING,
                    "vkFreeDescriptorSets failed: %s (%d)", vk_result_name(result), (int)result);
  self->host->free(self->host->context, object);
}

/* Points the binding's descriptor at range bytes of its buffer from offset
 * (VK_WHOLE_SIZE: to the end). Never while a submission uses the set:
 * sequence_run always waits, and records again after a change. */
static void point_binding(vk_backend_device *self, gpu_kernel_object *object, uint32_t binding,
                          uint64_t offset, uint64_t range) {
  drain_or_log(self); /* no set may change while a submission uses it */
  const VkDescriptorBufferInfo info = {
      .buffer = vk_buffer_handle(object->buffers[binding]), .offset = offset, .range = range};
  const VkWriteDescriptorSet write = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = object->set,
      .dstBinding = binding,
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &info,
  };
  vkUpdateDescriptorSets(self->context->device, 1, &write, 0, NULL);
  object->narrowed[binding] = range != VK_WHOLE_SIZE;
}

static tflaccel_status kernel_set_buffer(void *device, gpu_kernel_object *object, uint32_t slot,
                                         tflaccel_buffer *buffer) {
  vk_backend_device *self = self_of(device);
  if (slot == SLOT_BASE || slot > GPU_MAX_ARGS + 1)
    return self->host->status_make(TFLACCEL_INTERNAL, "gpu_vk: buffer for argument slot %u",
                                   (unsigned)slot);
  uint32_t binding = slot == 0 ? 0 : slot - 1;
  if (object->buffers[binding] == buffer && !object->narrowed[binding]) return NULL;
  /* The descriptor covers the whole allocation: the size rounded up to 16. */
  uint64_t size = (vk_buffer_size(buffer) + 15) / 16 * 16;
  if (size > self->context->entry->limits.maxStorageBufferRange)
    return self->host->status_make(
        TFLACCEL_UNSUPPORTED, "gpu_vk: a %llu-byte buffer exceeds the device's storage range (%u)",
        (unsigned long long)size, (unsigned)self->context->entry->limits.maxStorageBufferRange);
  object->buffers[binding] = buffer;
  point_binding(self, object, binding, 0, VK_WHOLE_SIZE);
  return NULL;
}

/* Points the binding's descriptor at just the tensor's bytes, so that the
 * validation layers know what each dispatch touches (gpu_backend.h). */
static tflaccel_status kernel_set_range(void *device, gpu_kernel_object *object, uint32_t slot,
                                        uint64_t offset, uint64_t size, int32_t *narrowed) {
  vk_backend_device *self = self_of(device);
  *narrowed = 0;
  if (slot == SLOT_BASE || slot > GPU_MAX_ARGS + 1 || size == 0 || offset + size < offset)
    return self->host->status_make(TFLACCEL_INTERNAL, "gpu_vk: range for argument slot %u",
                                   (unsigned)slot);
  uint32_t binding = slot == 0 ? 0 : slot - 1;
  const tflaccel_buffer *buffer = object->buffers[binding];
  uint64_t alignment = self->context->entry->limits.minStorageBufferOffsetAlignment;
  if (buffer == NULL || offset + size > vk_buffer_size(buffer) ||
      (alignment > 0 && offset % alignment != 0))
    return NULL; /* keeps the whole buffer */
  point_binding(self, object, binding, offset, size);
  *narrowed = 1;
  return NULL;
}

static tflaccel_status kernel_set_int(void *device, gpu_kernel_object *object, uint32_t slot,
                                      int32_t value) {
  vk_backend_device *self = self_of(device);
  if (slot != SLOT_BASE)
    return self->host->status_make(TFLACCEL_INTERNAL, "gpu_vk: int for argument slot %u",
                                   (unsigned)slot);
  object->base = value;
  return NULL;
}

/* Fits the preferred work group to the device (gpu_work_group.h). */
static void fit_group(const vk_backend_device *self, const uint32_t local[3], uint32_t group[3]) {
  const VkPhysicalDeviceLimits *limits = &self->context->entry->limits;
  const uint64_t max_size[3] = {limits->maxComputeWorkGroupSize[0],
                                limits->maxComputeWorkGroupSize[1],
                                limits->maxComputeWorkGroupSize[2]};
  gpu_fit_work_group(local, max_size, limits->maxComputeWorkGroupInvocations, group);
}

/* The object's pipeline for the work group that local fits to and the
 * post-op list. */
static tflaccel_status get_pipeline(vk_backend_device *self, gpu_kernel_object *object,
                                    const uint32_t local[3], uint32_t post_list,
                                    uint32_t group[3]) {
  fit_group(self, local, group);
  if (object->pipeline != VK_NULL_HANDLE && memcmp(object->local, group, 3 * sizeof *group) == 0 &&
      object->post_list == post_list)
    return NULL;
  tflaccel_status status = vk_pipeline_get(&self->pipelines, object->kernel, object->variant, group,
                                           post_list, &object->pipeline);
  if (status != NULL) return status;
  memcpy(object->local, group, 3 * sizeof *group);
  object->post_list = post_list;
  return NULL;
}

/* The step's pipeline for the fitted work group (built here, when the
 * partition is compiled) and its work-group counts. */
static tflaccel_status fit_step(vk_backend_device *self, const gpu_step *step, vk_step *fitted) {
  const VkPhysicalDeviceLimits *limits = &self->context->entry->limits;
  uint32_t group[3];
  tflaccel_status status = get_pipeline(self, step->kernel, step->local, step->post_list, group);
  if (status != NULL) return status;
  fitted->object = step->kernel;
  fitted->pipeline = step->kernel->pipeline;
  fitted->barrier_before = step->barrier_before;
  memcpy(fitted->grid_values, step->grid_values, sizeof step->grid_values);
  for (int i = 0; i < 3; ++i) {
    fitted->groups[i] = (step->global[i] + group[i] - 1) / group[i];
    if (fitted->groups[i] == 0) fitted->groups[i] = 1;
    if (fitted->groups[i] > limits->maxComputeWorkGroupCount[i])
      return self->host->status_make(TFLACCEL_UNSUPPORTED,
                                     "gpu_vk: %s needs %u work groups along dimension %d, the "
                                     "device allows %u",
                                     gpu_kernel_name(step->kernel->kernel), fitted->groups[i], i,
                                     limits->maxComputeWorkGroupCount[i]);
  }
  return NULL;
}

/* ---- recording and replaying ---- */

/* Whether the object's kernel writes binding b (gpu_kernel_catalog.h). */
static int writes_binding(const gpu_kernel_object *object, int b) {
  return gpu_kernel_writes_glsl_binding(object->kernel, (uint32_t)b);
}

static void memory_barrier(VkCommandBuffer commands, VkPipelineStageFlags destination_stage,
                           VkAccessFlags destination_access) {
  const VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = destination_access,
  };
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, destination_stage, 0, 1,
                       &barrier, 0, NULL, 0, NULL);
}

/* after_uploads: the sequence binds mirrored buffers, whose uploads may
 * come before it in the submission. */
static void record_dispatches(const vk_backend_device *self, const gpu_sequence *sequence,
                              VkCommandBuffer commands, int after_uploads) {
  VkPipeline bound = VK_NULL_HANDLE;
  if (after_uploads)
    global_barrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (sequence->timestamps != VK_NULL_HANDLE) {
    /* The buffer is replayed every run: its queries start over each time.
     * The first timestamp waits for what came before in the submission
     * (uploads), so that only dispatches are timed. */
    vkCmdResetQueryPool(commands, sequence->timestamps, 0, sequence->count + 1);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, sequence->timestamps, 0);
  }
  for (uint32_t i = 0; i < sequence->count; ++i) {
    const vk_step *step = &sequence->steps[i];
    const gpu_kernel_object *object = step->object;
    if (step->barrier_before)
      memory_barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (step->pipeline != bound) {
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, step->pipeline);
      bound = step->pipeline;
    }
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, self->pipelines.layout, 0, 1,
                            &object->set, 0, NULL);
    /* prelude_vulkan.glsl's push constants: the parameter offset, then
     * the grid values. */
    int32_t push[1 + GPU_GRID_VALUE_COUNT];
    push[0] = object->base;
    memcpy(push + 1, step->grid_values, sizeof step->grid_values);
    vkCmdPushConstants(commands, self->pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof push, push);
    vkCmdDispatch(commands, step->groups[0], step->groups[1], step->groups[2]);
    /* Once this and every earlier dispatch are done. */
    if (sequence->timestamps != VK_NULL_HANDLE)
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, sequence->timestamps,
                          i + 1);
  }
  /* The host reads results after the fence. */
  memory_barrier(commands, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

/* Lists the mirrored buffers the sequence binds, with their copies
 * recorded, and makes room for sequence_run's submission. */
static tflaccel_status list_mirrors(vk_backend_device *self, gpu_sequence *sequence) {
  const tflaccel_host_services *host = self->host;
  sequence->mirror_count = 0;
  for (uint32_t i = 0; i < sequence->count; ++i) {
    const gpu_kernel_object *object = sequence->steps[i].object;
    for (int b = 0; b < VK_PIPELINE_BINDINGS; ++b) {
      tflaccel_buffer *buffer = object->buffers[b];
      if (!vk_buffer_is_mirrored(buffer)) continue;
      vk_bound_mirror *found = NULL;
      for (uint32_t m = 0; m < sequence->mirror_count && found == NULL; ++m)
        if (sequence->mirrors[m].buffer == buffer) found = &sequence->mirrors[m];
      if (found == NULL) {
        if (!gpu_array_reserve(host, (void **)&sequence->mirrors, &sequence->mirror_capacity,
                               sequence->mirror_count + 1, sizeof *sequence->mirrors,
                               _Alignof(vk_bound_mirror)))
          return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (mirrors)");
        tflaccel_status status = prepare_copies(self, buffer);
        if (status != NULL) return status;
        found = &sequence->mirrors[sequence->mirror_count++];
        found->buffer = buffer;
        found->written = 0;
      }
      if (writes_binding(object, b)) found->written = 1;
    }
  }
  /* At most an upload and a download per buffer, around the sequence. */
  uint32_t needed = 2 * sequence->mirror_count + 1;
  if (self->submission_capacity < needed) {
    VkCommandBuffer *grown =
        host->alloc(host->context, needed * sizeof *grown, _Alignof(VkCommandBuffer));
    if (grown == NULL)
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (submission)");
    if (self->submission != NULL) host->free(host->context, self->submission);
    self->submission = grown;
    self->submission_capacity = needed;
  }
  return NULL;
}

/* Records the sequence into its command buffer, with the kernels' buffers
 * as they are bound now. */
static tflaccel_status record(vk_backend_device *self, gpu_sequence *sequence) {
  const tflaccel_host_services *host = self->host;
  sequence->recorded = 0; /* invalid until recorded in full */
  for (uint32_t i = 0; i < sequence->count; ++i) {
    const gpu_kernel_object *object = sequence->steps[i].object;
    for (int b = 0; b < VK_PIPELINE_BINDINGS; ++b)
      if (object->buffers[b] == NULL)
        return host->status_make(TFLACCEL_INTERNAL, "gpu_vk: %s dispatched with binding %d unset",
                                 gpu_kernel_name(object->kernel), b);
  }
  tflaccel_status listed_status = list_mirrors(self, sequence);
  if (listed_status != NULL) return listed_status;
  VkResult result = vkResetCommandBuffer(sequence->commands, 0);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkResetCommandBuffer", result);
  const VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  result = vk_fault(self->context->fault, "vkBeginCommandBuffer", GPU_FAULT_MEMORY);
  if (result == VK_SUCCESS) result = vkBeginCommandBuffer(sequence->commands, &begin);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkBeginCommandBuffer", result);
  record_dispatches(self, sequence, sequence->commands, sequence->mirror_count > 0);
  result = vkEndCommandBuffer(sequence->commands);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkEndCommandBuffer", result);
  sequence->recorded = 1;
  return NULL;
}

static void sequence_destroy(void *device, gpu_sequence *sequence) {
  vk_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  if (sequence == NULL) return;
  drain_or_log(self);
  VkDevice handle = self->context->device;
  if (sequence->commands != VK_NULL_HANDLE)
    vkFreeCommandBuffers(handle, self->command_pool, 1, &sequence->commands);
  if (sequence->timestamps != VK_NULL_HANDLE)
    vkDestroyQueryPool(handle, sequence->timestamps, NULL);
  if (sequence->mirrors != NULL) host->free(host->context, sequence->mirrors);
  if (sequence->steps != NULL) host->free(host->context, sequence->steps);
  host->free(host->context, sequence);
}

/* Fits every step and makes the command buffer (and, profiling, the
 * timestamp pool); recording waits for the first run, when the partition's
 * inputs and outputs are bound. */
static tflaccel_status sequence_create(void *device, const gpu_step *steps, uint32_t count,
                                       gpu_sequence **sequence) {
  vk_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *sequence = NULL;
  gpu_sequence *created = host->alloc(host->context, sizeof *created, _Alignof(gpu_sequence));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (sequence)");
  memset(created, 0, sizeof *created);
  created->steps =
      host->alloc(host->context, (count ? count : 1) * sizeof *created->steps, _Alignof(vk_step));
  tflaccel_status status =
      created->steps == NULL
          ? host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (sequence)")
          : NULL;
  created->count = count;
  for (uint32_t i = 0; status == NULL && i < count; ++i)
    status = fit_step(self, &steps[i], &created->steps[i]);
  if (status == NULL) {
    const VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = self->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkResult result =
        vk_fault(self->context->fault, "vkAllocateCommandBuffers", GPU_FAULT_MEMORY);
    if (result == VK_SUCCESS)
      result = vkAllocateCommandBuffers(self->context->device, &info, &created->commands);
    if (result != VK_SUCCESS) {
      created->commands = VK_NULL_HANDLE;
      status = vk_call_failed(host, "vkAllocateCommandBuffers", result);
    }
  }
  if (status == NULL && self->profiling) {
    const VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = count + 1,
    };
    VkResult result = vk_fault(self->context->fault, "vkCreateQueryPool", GPU_FAULT_MEMORY);
    if (result == VK_SUCCESS)
      result = vkCreateQueryPool(self->context->device, &info, NULL, &created->timestamps);
    if (result != VK_SUCCESS) {
      created->timestamps = VK_NULL_HANDLE;
      status = vk_call_failed(host, "vkCreateQueryPool", result);
    }
  }
  if (status != NULL) {
    sequence_destroy(device, created);
    return status;
  }
  *sequence = created;
  return NULL;
}

/* The times of the sequence's dispatches, from the timestamps it wrote in
 * the submission that has just finished. */
static tflaccel_status read_timestamps(vk_backend_device *self, const gpu_sequence *sequence) {
  uint32_t dispatches = sequence->count;
  const tflaccel_host_services *host = self->host;
  uint32_t queries = dispatches + 1;
  if (self->time_capacity < queries) {
    uint64_t *ticks = host->alloc(host->context, queries * sizeof *ticks, _Alignof(uint64_t));
    double *times = host->alloc(host->context, queries * sizeof *times, _Alignof(double));
    if (ticks == NULL || times == NULL) {
      if (ticks != NULL) host->free(host->context, ticks);
      if (times != NULL) host->free(host->context, times);
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (timestamps)");
    }
    if (self->ticks != NULL) host->free(host->context, self->ticks);
    if (self->times_us != NULL) host->free(host->context, self->times_us);
    self->ticks = ticks;
    self->times_us = times;
    self->time_capacity = queries;
  }
  VkResult result = vkGetQueryPoolResults(
      self->context->device, sequence->timestamps, 0, queries, queries * sizeof *self->ticks,
      self->ticks, sizeof *self->ticks, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkGetQueryPoolResults", result);
  /* Only the valid bits count; masking the difference survives a wrap. */
  uint32_t bits = self->context->entry->timestamp_valid_bits;
  uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  double period_ns = self->context->entry->limits.timestampPeriod;
  for (uint32_t i = 0; i < dispatches; ++i) {
    uint64_t ticks = (self->ticks[i + 1] - self->ticks[i]) & mask;
    self->times_us[i] = (double)ticks * period_ns / 1000.0;
  }
  self->time_count = dispatches;
  return NULL;
}

/* The command buffers of one run of the sequence into self->submission:
 * it goes between the copies of its mirrored buffers (uploads of those the
 * host wrote, downloads of those it writes). */
static uint32_t list_submission(vk_backend_device *self, const gpu_sequence *sequence) {
  uint32_t count = 0;
  for (uint32_t m = 0; m < sequence->mirror_count; ++m)
    if (vk_buffer_mirror_state(sequence->mirrors[m].buffer) == VK_MIRROR_HOST_NEWER)
      self->submission[count++] = vk_buffer_upload_commands(sequence->mirrors[m].buffer);
  self->submission[count++] = sequence->commands;
  for (uint32_t m = 0; m < sequence->mirror_count; ++m) {
    if (!sequence->mirrors[m].written || vk_buffer_downloads_on_demand(sequence->mirrors[m].buffer))
      continue;
    self->submission[count++] = vk_buffer_download_commands(sequence->mirrors[m].buffer);
    /* Until the wait says the download is done. */
    vk_buffer_set_mirror_state(sequence->mirrors[m].buffer, VK_MIRROR_DEVICE_NEWER);
  }
  return count;
}

/* After a run of the sequence finished: mirror and device agree again. */
static void settle_mirrors(const gpu_sequence *sequence) {
  /* Uploaded (the host-newer ones) or downloaded (the written ones). */
  /* The application's written buffers: their mirrors wait for a read. */
  for (uint32_t m = 0; m < sequence->mirror_count; ++m) {
    tflaccel_buffer *buffer = sequence->mirrors[m].buffer;
    if (sequence->mirrors[m].written && vk_buffer_downloads_on_demand(buffer))
      vk_buffer_set_mirror_state(buffer, VK_MIRROR_DEVICE_NEWER);
    else if (sequence->mirrors[m].written || vk_buffer_mirror_state(buffer) == VK_MIRROR_HOST_NEWER)
      vk_buffer_set_mirror_state(buffer, VK_MIRROR_CURRENT);
  }
}

/* One run as one submission, waited for. */
static tflaccel_status submit_run(vk_backend_device *self, const gpu_sequence *sequence) {
  tflaccel_status status = vk_backend_drain(self);
  if (status != NULL) return status;
  uint32_t count = list_submission(self, sequence);
  status = submit_and_wait(self, count, self->submission);
  if (status == NULL) settle_mirrors(sequence);
  return status;
}

/* ---- asynchronous runs (vk_event.h) ---- */

tflaccel_status vk_backend_drain(vk_backend_device *self) {
  vk_event *pending = self->pending;
  if (pending == NULL) return NULL;
  VkResult result = vk_fault(self->context->fault, "vkWaitForFences", GPU_FAULT_LOST);
  if (result == VK_SUCCESS) result = vk_event_wait_fence(pending);
  self->pending = NULL;
  tflaccel_status status = NULL;
  if (result != VK_SUCCESS) {
    /* As after a failed synchronous wait: nothing is freed or reused
     * until the device is idle or lost for good. */
    VkResult idle = vkDeviceWaitIdle(self->context->device);
    if (idle != VK_SUCCESS)
      self->host->log(self->host->context, TFLACCEL_LOG_WARNING,
                      "vkDeviceWaitIdle after a failed wait: %s (%d); the device is lost",
                      vk_result_name(idle), (int)idle);
    status = vk_call_failed(self->host, "vkWaitForFences", result);
  } else {
    settle_mirrors(self->pending_sequence);
  }
  self->pending_sequence = NULL;
  vk_event_release(pending);
  return status;
}

/* Waits for the previous run (one in flight per device: the sequence's
 * command buffer and the run's buffers are reused) and, on the CPU, for
 * the waits the queue cannot wait for (a VkFence), then submits the run,
 * waiting in the queue for the semaphores among waits, with a new fence
 * and the next timeline value: its event (vk_semaphore.h). */
static tflaccel_status sequence_submit(void *device, gpu_sequence *sequence, int32_t rebound,
                                       tflaccel_event *const *waits, uint32_t wait_count,
                                       tflaccel_event **done) {
  vk_backend_device *self = self_of(device);
  *done = NULL;
  tflaccel_status status = vk_backend_drain(self);
  if (status == NULL) status = vk_sync_wait_on_cpu(&self->sync, waits, wait_count);
  if (status == NULL && (!sequence->recorded || rebound)) status = record(self, sequence);
  vk_event *event = NULL;
  if (status == NULL) status = vk_event_create(&self->fences, &self->sync, &event);
  if (status == NULL) status = vk_sync_prepare_event(&self->sync, event);
  if (status != NULL) {
    vk_event_release(event);
    return status;
  }
  uint32_t count = list_submission(self, sequence);
  VkResult result = vk_sync_submit_run(&self->sync, self->context->fault, self->submission, count,
                                       waits, wait_count, event);
  if (result != VK_SUCCESS) {
    /* A submission that failed with a loss may have left work queued. */
    if (result == VK_ERROR_DEVICE_LOST) {
      VkResult idle = vkDeviceWaitIdle(self->context->device);
      (void)idle; /* lost either way: the error below says so */
    }
    vk_event_release(event);
    return vk_call_failed(self->host, "vkQueueSubmit", result);
  }
  self->pending = vk_event_retain(event);
  self->pending_sequence = sequence;
  *done = vk_event_handle(event);
  return NULL;
}

static tflaccel_status event_wait(void *device, tflaccel_event *event) {
  (void)device;
  return vk_event_wait(vk_event_of(event));
}

static tflaccel_status event_query(void *device, tflaccel_event *event, int32_t *signalled) {
  (void)device;
  return vk_event_query(vk_event_of(event), signalled);
}

static void event_destroy(void *device, tflaccel_event *event) {
  (void)device;
  vk_event_release(vk_event_of(event));
}

static tflaccel_status event_native(void *device, tflaccel_event *event, int32_t type,
                                    tflaccel_native_event *native) {
  (void)device;
  return vk_event_native(vk_event_of(event), type, native);
}

static tflaccel_status event_wrap(void *device, const tflaccel_native_event *native,
                                  tflaccel_event **event) {
  vk_backend_device *self = self_of(device);
  vk_event *wrapped = NULL;
  tflaccel_status status = vk_event_import(&self->sync, native, &wrapped);
  *event = vk_event_handle(wrapped);
  return status;
}

static tflaccel_status sequence_run(void *device, gpu_sequence *sequence, int32_t rebound) {
  vk_backend_device *self = self_of(device);
  self->time_count = 0;
  /* A queued run may still use the command buffer recorded again here. */
  tflaccel_status status = vk_backend_drain(self);
  if (status == NULL && (!sequence->recorded || rebound)) status = record(self, sequence);
  if (status == NULL) status = submit_run(self, sequence);
  if (status == NULL && sequence->timestamps != VK_NULL_HANDLE)
    status = read_timestamps(self, sequence);
  return status;
}

static tflaccel_status profile_read(void *device, double *microseconds, uint32_t capacity,
                                    uint32_t *count) {
  const vk_backend_device *self = self_of(device);
  gpu_profile_copy_times(self->times_us, self->time_count, microseconds, capacity, count);
  return NULL;
}

/* ---- set-up ---- */

/* The partition's entry in the compiled-model cache (vk_pipeline.h). */
static void cache_begin(void *device, gpu_disk_cache_key_builder *key, int32_t storage,
                        const tflaccel_compile_options *options) {
  (void)storage; /* in the pipelines' variants */
  vk_pipeline_partition_begin(&self_of(device)->pipelines, key, options);
}

static void cache_end(void *device, int32_t compiled) {
  vk_pipeline_partition_end(&self_of(device)->pipelines, compiled);
}

static const gpu_backend_ops vk_backend_ops = {
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_upload = buffer_upload,
    .kernel_create = kernel_create,
    .kernel_destroy = kernel_destroy,
    .kernel_set_buffer = kernel_set_buffer,
    .kernel_set_int = kernel_set_int,
    .kernel_set_range = kernel_set_range,
    .sequence_create = sequence_create,
    .sequence_destroy = sequence_destroy,
    .sequence_run = sequence_run,
    .profile_read = profile_read,
    .cache_begin = cache_begin,
    .cache_end = cache_end,
    .sequence_submit = sequence_submit,
    .event_wait = event_wait,
    .event_query = event_query,
    .event_destroy = event_destroy,
    .event_native = event_native,
    .event_wrap = event_wrap,
};

tflaccel_status vk_backend_init(const tflaccel_host_services *host,
                                const vk_device_context *context, int32_t profiling,
                                vk_backend_device *device, gpu_backend *backend) {
  memset(device, 0, sizeof *device);
  memset(backend, 0, sizeof *backend);
  device->host = host;
  device->context = context;
  const vk_device_entry *entry = context->entry;
  if (entry->limits.maxPerStageDescriptorStorageBuffers < VK_PIPELINE_BINDINGS ||
      entry->limits.maxBoundDescriptorSets < 1)
    return host->status_make(
        TFLACCEL_UNSUPPORTED, "gpu_vk: %s binds %u storage buffers per stage, the kernels need %d",
        entry->info.name, entry->limits.maxPerStageDescriptorStorageBuffers, VK_PIPELINE_BINDINGS);
  /* Without timestampComputeAndGraphics, timestamps depend on the queue
   * family: its valid bits say. */
  if (profiling && (entry->timestamp_valid_bits == 0 || entry->limits.timestampPeriod <= 0.0f))
    return host->status_make(
        TFLACCEL_UNSUPPORTED,
        "gpu_vk option profile=1: %s cannot time dispatches (queue family %u has %u timestamp "
        "bits, timestampComputeAndGraphics %u, timestampPeriod %g)",
        entry->info.name, entry->compute_family, entry->timestamp_valid_bits,
        (unsigned)entry->limits.timestampComputeAndGraphics, (double)entry->limits.timestampPeriod);
  device->profiling = profiling != 0;
  tflaccel_status status = vk_pipeline_set_init(host, context, &device->pipelines);
  if (status != NULL) return status;
  const VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = entry->compute_family,
  };
  VkResult result = vkCreateCommandPool(context->device, &pool_info, NULL, &device->command_pool);
  if (result != VK_SUCCESS) {
    device->command_pool = VK_NULL_HANDLE;
    vk_backend_release(device);
    return vk_call_failed(host, "vkCreateCommandPool", result);
  }
  const VkCommandBufferAllocateInfo transfer_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = device->command_pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
  };
  result = vkAllocateCommandBuffers(context->device, &transfer_info, &device->transfer_commands);
  if (result != VK_SUCCESS) {
    device->transfer_commands = VK_NULL_HANDLE;
    vk_backend_release(device);
    return vk_call_failed(host, "vkAllocateCommandBuffers", result);
  }
  const VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  result = vkCreateFence(context->device, &fence_info, NULL, &device->fence);
  if (result != VK_SUCCESS) {
    device->fence = VK_NULL_HANDLE;
    vk_backend_release(device);
    return vk_call_failed(host, "vkCreateFence", result);
  }
  tflaccel_status pooled = vk_fence_pool_init(host, context->device, &device->fences);
  if (pooled == NULL)
    pooled = vk_sync_init(host, context->device, context->queue, &entry->sync, entry->info.name,
                          &device->fences, &device->sync);
  if (pooled != NULL) {
    vk_backend_release(device);
    return pooled;
  }
  /* Half storage as float16_t where the device stores it, else packed in
   * uints; half arithmetic only with both features (has_half_math). */
  int native_half = entry->storage_buffer_16bit != 0;
  device->variants[GPU_STORAGE_FLOAT32] = VK_SHADER_FP32;
  device->variants[GPU_STORAGE_HALF] = native_half ? VK_SHADER_HALF_16BIT : VK_SHADER_HALF_PACKED;
  device->variants[GPU_STORAGE_HALF_MATH] = VK_SHADER_HALF_MATH;

  backend->host = host;
  backend->plugin_name = "gpu_vk";
  backend->device = device;
  backend->ops = &vk_backend_ops;
  backend->caps.has_half_math = native_half && entry->shader_float16;
  backend->caps.features =
      GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_DEPTHWISE_POINTWISE | GPU_FEATURE_LSTM_GATES |
      GPU_FEATURE_ORDERED_EXPAND | GPU_FEATURE_MEDIAPIPE_TRANSFORMS | GPU_FEATURE_SVDF |
      GPU_FEATURE_GATHER_ND | GPU_FEATURE_INPUT_WORDS | GPU_FEATURE_WORDS_BETWEEN;
  backend->caps.max_group_items =
      entry->limits.maxComputeWorkGroupInvocations < entry->limits.maxComputeWorkGroupSize[0]
          ? entry->limits.maxComputeWorkGroupInvocations
          : entry->limits.maxComputeWorkGroupSize[0];
  backend->caps.binding_alignment = 16; /* whole vectors (kernels/glsl/common.glsl) */
  /* Tensors start on 16 bytes: a slice, and an even number of halves. */
  backend->caps.buffer_alignment = 16;
  backend->caps.profiling = device->profiling;
  return NULL;
}

void vk_backend_release(vk_backend_device *device) {
  const tflaccel_host_services *host = device->host;
  if (host == NULL) return;
  drain_or_log(device);
  VkDevice handle = device->context->device;
  vk_sync_release(&device->sync);
  vk_fence_pool_release(&device->fences);
  if (device->fence != VK_NULL_HANDLE) vkDestroyFence(handle, device->fence, NULL);
  /* Destroying the pool frees its command buffers. */
  if (device->command_pool != VK_NULL_HANDLE)
    vkDestroyCommandPool(handle, device->command_pool, NULL);
  for (uint32_t i = 0; i < device->pool_count; ++i)
    vkDestroyDescriptorPool(handle, device->pools[i], NULL);
  if (device->pools != NULL) host->free(host->context, device->pools);
  if (device->submission != NULL) host->free(host->context, device->submission);
  if (device->ticks != NULL) host->free(host->context, device->ticks);
  if (device->times_us != NULL) host->free(host->context, device->times_us);
  vk_pipeline_set_release(&device->pipelines);
  memset(device, 0, sizeof *device);
}
