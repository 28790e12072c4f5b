/* gpu_vk buffers. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_error.h"

struct tflaccel_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  unsigned char *mapped; /* the whole allocation, mapped for the buffer's life, or NULL */
  uint64_t size;         /* as requested */
};

#define HOST_ACCESS (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

VkBuffer vk_buffer_handle(const tflaccel_buffer *buffer) { return buffer->buffer; }

unsigned char *vk_buffer_mapped(const tflaccel_buffer *buffer) { return buffer->mapped; }

uint64_t vk_buffer_size(const tflaccel_buffer *buffer) { return buffer->size; }

/* Tries the memory types the buffer accepts that have all of `wanted`, in
 * the driver's order (faster types first), until one has room: a full heap
 * (a small device-local window, say) should not stop a larger one. */
static VkResult allocate_from(const vk_device_context *context,
                              const VkMemoryRequirements *requirements,
                              VkMemoryPropertyFlags wanted, int *candidates, VkDeviceMemory *memory,
                              uint32_t *chosen) {
  const VkPhysicalDeviceMemoryProperties *properties = &context->entry->memory;
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type = 0; type < properties->memoryTypeCount; ++type) {
    if ((requirements->memoryTypeBits & (1u << type)) == 0) continue;
    if ((properties->memoryTypes[type].propertyFlags & wanted) != wanted) continue;
    ++*candidates;
    const VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements->size,
        .memoryTypeIndex = type,
    };
    last = vkAllocateMemory(context->device, &allocate, NULL, memory);
    if (last == VK_SUCCESS) {
      *chosen = type;
      return last;
    }
    if (last != VK_ERROR_OUT_OF_DEVICE_MEMORY && last != VK_ERROR_OUT_OF_HOST_MEMORY) break;
  }
  return last;
}

/* Host buffers take host-visible, coherent memory, cached where there is
 * such; device buffers device-local memory, else any the buffer accepts. *host_access says
 * whether the memory chosen can be mapped. */
static tflaccel_status allocate_memory(const tflaccel_host_services *host,
                                       const vk_device_context *context,
                                       const VkMemoryRequirements *requirements,
                                       vk_memory_kind kind, VkDeviceMemory *memory,
                                       int *host_access) {
  int candidates = 0;
  uint32_t chosen = 0;
  VkResult last;
  if (kind == VK_MEMORY_HOST) {
    /* Cached first: the host reads results from it (a discrete GPU's
     * uncached host memory reads slowly), and the device reaches it alike. */
    last = allocate_from(context, requirements, HOST_ACCESS | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                         &candidates, memory, &chosen);
    if (last != VK_SUCCESS)
      last = allocate_from(context, requirements, HOST_ACCESS, &candidates, memory, &chosen);
  } else {
    last = allocate_from(context, requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &candidates,
                         memory, &chosen);
    if (last == VK_ERROR_OUT_OF_DEVICE_MEMORY || last == VK_ERROR_OUT_OF_HOST_MEMORY)
      last = allocate_from(context, requirements, 0, &candidates, memory, &chosen);
  }
  if (last == VK_SUCCESS) {
    VkMemoryPropertyFlags flags = context->entry->memory.memoryTypes[chosen].propertyFlags;
    *host_access = (flags & HOST_ACCESS) == HOST_ACCESS;
    return NULL;
  }
  *memory = VK_NULL_HANDLE;
  if (candidates == 0)
    return host->status_make(TFLACCEL_BACKEND_ERROR, "no %sVulkan memory type accepts the buffer",
                             kind == VK_MEMORY_HOST ? "host-visible, coherent " : "");
  char call[64];
  snprintf(call, sizeof call, "vkAllocateMemory(%llu bytes)",
           (unsigned long long)requirements->size);
  return vk_call_failed(host, call, last);
}

tflaccel_status vk_buffer_create(const tflaccel_host_services *host,
                                 const vk_device_context *context, uint64_t size,
                                 vk_memory_kind kind, tflaccel_buffer **buffer) {
  *buffer = NULL;
  /* Vulkan refuses empty buffers, so an empty tensor still gets one; the
   * kernels read tensors as 16-byte vectors, so the last is whole. */
  VkDeviceSize allocation = size == 0 ? 16 : (size + 15) / 16 * 16;
  if (size > context->entry->max_allocation_size || allocation > context->entry->max_allocation_size)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "gpu_vk buffer of %llu bytes exceeds the device's largest "
                             "allocation (%llu bytes)",
                             (unsigned long long)size,
                             (unsigned long long)context->entry->max_allocation_size);
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk buffer: out of memory");
  memset(created, 0, sizeof *created);
  created->size = size;

  const VkBufferCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = allocation,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  tflaccel_status status = NULL;
  int host_access = 0;
  VkResult result = vkCreateBuffer(context->device, &create_info, NULL, &created->buffer);
  if (result != VK_SUCCESS) {
    created->buffer = VK_NULL_HANDLE;
    status = vk_call_failed(host, "vkCreateBuffer", result);
  }
  if (status == NULL) {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(context->device, created->buffer, &requirements);
    status = allocate_memory(host, context, &requirements, kind, &created->memory, &host_access);
  }
  if (status == NULL) {
    result = vkBindBufferMemory(context->device, created->buffer, created->memory, 0);
    if (result != VK_SUCCESS) status = vk_call_failed(host, "vkBindBufferMemory", result);
  }
  if (status == NULL && host_access &&
      !(kind == VK_MEMORY_DEVICE && context->stage_device_buffers)) {
    void *mapped = NULL;
    result = vkMapMemory(context->device, created->memory, 0, VK_WHOLE_SIZE, 0, &mapped);
    if (result != VK_SUCCESS)
      status = vk_call_failed(host, "vkMapMemory", result);
    else
      created->mapped = mapped;
  }
  if (status != NULL) {
    vk_buffer_destroy(host, context, created);
    return status;
  }
  *buffer = created;
  return NULL;
}

void vk_buffer_destroy(const tflaccel_host_services *host, const vk_device_context *context,
                       tflaccel_buffer *buffer) {
  if (buffer == NULL) return;
  /* Freeing the memory unmaps it. */
  if (buffer->buffer != VK_NULL_HANDLE) vkDestroyBuffer(context->device, buffer->buffer, NULL);
  if (buffer->memory != VK_NULL_HANDLE) vkFreeMemory(context->device, buffer->memory, NULL);
  host->free(host->context, buffer);
}

/* Rejects ranges that do not lie inside the buffer (overflow-safe). */
static tflaccel_status check_range(const tflaccel_host_services *host,
                                   const tflaccel_buffer *buffer, uint64_t offset, uint64_t size,
                                   const char *what) {
  if (buffer->mapped == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_vk buffer %s: the buffer lives in device-only memory", what);
  if (offset > buffer->size || size > buffer->size - offset)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_vk buffer %s of %llu bytes at offset %llu is outside the "
                             "%llu-byte buffer",
                             what, (unsigned long long)size, (unsigned long long)offset,
                             (unsigned long long)buffer->size);
  return NULL;
}

tflaccel_status vk_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "write");
  if (status != NULL || size == 0) return status;
  memcpy(buffer->mapped + offset, source, (size_t)size);
  return NULL;
}

tflaccel_status vk_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "read");
  if (status != NULL || size == 0) return status;
  memcpy(destination, buffer->mapped + offset, (size_t)size);
  return NULL;
}
