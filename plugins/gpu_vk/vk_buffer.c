/* gpu_vk buffers. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_buffer_range.h"
#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_error.h"

struct tflaccel_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  unsigned char *mapped;   /* the whole allocation, mapped for the buffer's life, or NULL */
  uint64_t size;           /* as requested */
  VkDeviceSize allocation; /* bytes of the VkBuffer(s): size rounded up to 16 */
  /* Mirrored buffers only (mirror != VK_NULL_HANDLE). */
  VkDevice device;
  VkBuffer mirror;
  VkDeviceMemory mirror_memory;
  unsigned char *mirror_mapped; /* mapped for the buffer's life */
  int32_t mirror_coherent;      /* else flushed after writes, invalidated before reads */
  int32_t state;                /* vk_mirror_state */
  VkCommandPool pool;           /* of upload and download */
  VkCommandBuffer upload, download;
  /* Handed to the application (vk_buffer_hand_out): a run leaves the
   * mirror stale instead of downloading into it; a host read downloads. */
  int32_t download_on_demand;
  int32_t borrowed; /* buffer and memory are the application's (vk_buffer_wrap) */
  /* External memory (vk_external_memory.h): memory was allocated
   * exportable as an opaque fd, of allocation_bytes; exported once
   * handed out as one. */
  int32_t exportable, exported;
  VkDeviceSize allocation_bytes;
};

#define HOST_ACCESS (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

/* Bytes an exportable allocation has beyond its buffer: importers may pad
 * the buffers they make over it (llvmpipe adds 48 bytes to each, and
 * refuses memory that does not hold them). */
#define EXPORT_SLACK 64
#define HOST_CACHED VK_MEMORY_PROPERTY_HOST_CACHED_BIT

/* Memory properties each kind asks for, best first; the next is tried when
 * no type of one has room. Host buffers: cached first, as the host reads
 * results from them (a discrete GPU's uncached host memory reads slowly)
 * and the device reaches them alike. Mirrors: cached, coherent or not (the
 * host reads them; flushes and invalidations are cheap next to uncached
 * reads), then any coherent. Device buffers: device-local, else anything. */
static const VkMemoryPropertyFlags host_preferences[] = {HOST_ACCESS | HOST_CACHED, HOST_ACCESS};
static const VkMemoryPropertyFlags mirror_preferences[] = {
    HOST_ACCESS | HOST_CACHED, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | HOST_CACHED, HOST_ACCESS};
static const VkMemoryPropertyFlags device_preferences[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};

/* What the kernels may do with a buffer, and what a mirror needs. */
#define KERNEL_USAGE                                                       \
  (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
   VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MIRROR_USAGE (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)

VkBuffer vk_buffer_handle(const tflaccel_buffer *buffer) { return buffer->buffer; }

unsigned char *vk_buffer_mapped(const tflaccel_buffer *buffer) { return buffer->mapped; }

uint64_t vk_buffer_size(const tflaccel_buffer *buffer) { return buffer->size; }

int vk_buffer_is_mirrored(const tflaccel_buffer *buffer) {
  return buffer->mirror != VK_NULL_HANDLE;
}

VkBuffer vk_buffer_mirror_handle(const tflaccel_buffer *buffer) { return buffer->mirror; }

uint64_t vk_buffer_allocation_size(const tflaccel_buffer *buffer) { return buffer->allocation; }

vk_mirror_state vk_buffer_mirror_state(const tflaccel_buffer *buffer) {
  return (vk_mirror_state)buffer->state;
}

void vk_buffer_set_mirror_state(tflaccel_buffer *buffer, vk_mirror_state state) {
  buffer->state = (int32_t)state;
}

VkCommandBuffer vk_buffer_upload_commands(const tflaccel_buffer *buffer) { return buffer->upload; }

VkDeviceMemory vk_buffer_memory(const tflaccel_buffer *buffer) { return buffer->memory; }

void vk_buffer_hand_out(tflaccel_buffer *buffer) { buffer->download_on_demand = 1; }

int vk_buffer_downloads_on_demand(const tflaccel_buffer *buffer) {
  return buffer->download_on_demand;
}

VkCommandBuffer vk_buffer_download_commands(const tflaccel_buffer *buffer) {
  return buffer->download;
}

void vk_buffer_keep_copies(tflaccel_buffer *buffer, VkCommandPool pool, VkCommandBuffer upload,
                           VkCommandBuffer download) {
  buffer->pool = pool;
  buffer->upload = upload;
  buffer->download = download;
}

/* The first memory type, in the driver's order (faster types first), that
 * the buffer accepts and that has all of `wanted`, or UINT32_MAX. */
static uint32_t first_type(const vk_device_context *context,
                           const VkMemoryRequirements *requirements, VkMemoryPropertyFlags wanted) {
  const VkPhysicalDeviceMemoryProperties *properties = &context->entry->memory;
  for (uint32_t type = 0; type < properties->memoryTypeCount; ++type)
    if ((requirements->memoryTypeBits & (1u << type)) != 0 &&
        (properties->memoryTypes[type].propertyFlags & wanted) == wanted)
      return type;
  return UINT32_MAX;
}

/* Tries the memory types the buffer accepts that have all of `wanted`, in
 * the driver's order, until one has room: a full heap (a small device-local
 * window, say) should not stop a larger one. */
static VkResult allocate_from(const vk_device_context *context,
                              const VkMemoryRequirements *requirements,
                              VkMemoryPropertyFlags wanted, const void *allocate_next,
                              int *candidates, VkDeviceMemory *memory, uint32_t *chosen) {
  const VkPhysicalDeviceMemoryProperties *properties = &context->entry->memory;
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type = 0; type < properties->memoryTypeCount; ++type) {
    if ((requirements->memoryTypeBits & (1u << type)) == 0) continue;
    if ((properties->memoryTypes[type].propertyFlags & wanted) != wanted) continue;
    ++*candidates;
    const VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = allocate_next,
        .allocationSize = requirements->size,
        .memoryTypeIndex = type,
    };
    last = vk_fault(context->fault, "vkAllocateMemory", GPU_FAULT_MEMORY);
    if (last == VK_SUCCESS) last = vkAllocateMemory(context->device, &allocate, NULL, memory);
    if (last == VK_SUCCESS) {
      *chosen = type;
      return last;
    }
    if (last != VK_ERROR_OUT_OF_DEVICE_MEMORY && last != VK_ERROR_OUT_OF_HOST_MEMORY) break;
  }
  return last;
}

/* Memory by the preferences (best first; the next only when the ones
 * before have no type or no room). *flags: the properties of the type
 * chosen. what names the memory wanted in the message when no type fits. */
static tflaccel_status allocate_memory(const tflaccel_host_services *host,
                                       const vk_device_context *context,
                                       const VkMemoryRequirements *requirements,
                                       const VkMemoryPropertyFlags *preferences,
                                       uint32_t preference_count, const char *what,
                                       const void *allocate_next, VkDeviceMemory *memory,
                                       VkMemoryPropertyFlags *flags) {
  int candidates = 0;
  uint32_t chosen = 0;
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t p = 0; p < preference_count; ++p) {
    last = allocate_from(context, requirements, preferences[p], allocate_next, &candidates, memory,
                         &chosen);
    if (last != VK_ERROR_OUT_OF_DEVICE_MEMORY && last != VK_ERROR_OUT_OF_HOST_MEMORY) break;
  }
  if (last == VK_SUCCESS) {
    *flags = context->entry->memory.memoryTypes[chosen].propertyFlags;
    return NULL;
  }
  *memory = VK_NULL_HANDLE;
  if (candidates == 0)
    return host->status_make(TFLACCEL_BACKEND_ERROR, "no %sVulkan memory type accepts the buffer",
                             what);
  char call[64];
  snprintf(call, sizeof call, "vkAllocateMemory(%llu bytes)",
           (unsigned long long)requirements->size);
  return vk_call_failed(host, call, last);
}

tflaccel_status vk_buffer_host_memory_is_device_local(const tflaccel_host_services *host,
                                                      const vk_device_context *context,
                                                      int *device_local) {
  *device_local = 0;
  /* Every buffer of the same usage accepts the same memory types, so a
   * small one stands for all. */
  const VkBufferCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = 16,
      .usage = KERNEL_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkBuffer probe = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(context->device, &create_info, NULL, &probe);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkCreateBuffer", result);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context->device, probe, &requirements);
  vkDestroyBuffer(context->device, probe, NULL);
  uint32_t type = UINT32_MAX;
  for (size_t p = 0; p < sizeof host_preferences / sizeof host_preferences[0]; ++p)
    if ((type = first_type(context, &requirements, host_preferences[p])) != UINT32_MAX) break;
  *device_local = type != UINT32_MAX && (context->entry->memory.memoryTypes[type].propertyFlags &
                                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
  return NULL;
}

/* One VkBuffer of `allocation` bytes with its own memory; *mapped is set
 * (the whole allocation) when mapped is not NULL and the memory chosen has
 * all of map_when. With *exported_bytes not NULL, the memory is made
 * exportable as an opaque fd and its size is stored there. */
static tflaccel_status create_part(const tflaccel_host_services *host,
                                   const vk_device_context *context, VkDeviceSize allocation,
                                   VkBufferUsageFlags usage,
                                   const VkMemoryPropertyFlags *preferences,
                                   uint32_t preference_count, const char *what, VkBuffer *buffer,
                                   VkDeviceMemory *memory, VkMemoryPropertyFlags *flags,
                                   unsigned char **mapped, VkMemoryPropertyFlags map_when,
                                   VkDeviceSize *exported_bytes) {
  const VkExternalMemoryBufferCreateInfo external = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
  };
  const VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
  };
  const VkBufferCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = exported_bytes != NULL ? &external : NULL,
      .size = allocation,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  *flags = 0;
  VkResult result = vk_fault(context->fault, "vkCreateBuffer", GPU_FAULT_MEMORY);
  if (result == VK_SUCCESS) result = vkCreateBuffer(context->device, &create_info, NULL, buffer);
  if (result != VK_SUCCESS) {
    *buffer = VK_NULL_HANDLE;
    return vk_call_failed(host, "vkCreateBuffer", result);
  }
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context->device, *buffer, &requirements);
  if (exported_bytes != NULL) requirements.size += EXPORT_SLACK;
  tflaccel_status status =
      allocate_memory(host, context, &requirements, preferences, preference_count, what,
                      exported_bytes != NULL ? &export_info : NULL, memory, flags);
  if (status != NULL) return status;
  if (exported_bytes != NULL) *exported_bytes = requirements.size;
  result = vkBindBufferMemory(context->device, *buffer, *memory, 0);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkBindBufferMemory", result);
  if (mapped != NULL && (*flags & map_when) == map_when) {
    void *address = NULL;
    result = vk_fault(context->fault, "vkMapMemory", GPU_FAULT_MEMORY);
    if (result == VK_SUCCESS)
      result = vkMapMemory(context->device, *memory, 0, VK_WHOLE_SIZE, 0, &address);
    if (result != VK_SUCCESS) return vk_call_failed(host, "vkMapMemory", result);
    *mapped = address;
  }
  return NULL;
}

static tflaccel_status add_mirror(const tflaccel_host_services *host,
                                  const vk_device_context *context, tflaccel_buffer *created);

static tflaccel_status create_buffer(const tflaccel_host_services *host,
                                    const vk_device_context *context, uint64_t size,
                                    vk_memory_kind kind, int exportable, tflaccel_buffer **buffer) {
  *buffer = NULL;
  /* Vulkan refuses empty buffers, so an empty tensor still gets one; the
   * kernels read tensors as 16-byte vectors, so the last is whole. */
  VkDeviceSize allocation = size == 0 ? 16 : (size + 15) / 16 * 16;
  if (size > context->entry->max_allocation_size ||
      allocation > context->entry->max_allocation_size)
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
  created->allocation = allocation;
  created->exportable = exportable;
  VkDeviceSize *exported_bytes = exportable ? &created->allocation_bytes : NULL;

  tflaccel_status status;
  VkMemoryPropertyFlags flags = 0;
  if (kind == VK_MEMORY_HOST) {
    status =
        create_part(host, context, allocation, KERNEL_USAGE, host_preferences,
                    sizeof host_preferences / sizeof host_preferences[0], "host-visible, coherent ",
                    &created->buffer, &created->memory, &flags, &created->mapped, HOST_ACCESS,
                    exported_bytes);
  } else {
    /* A device buffer is mapped where its memory is host-visible and
     * coherent (nothing flushes the GPU layer's buffers), except with
     * staging=1 and on the kernels' side of a mirrored buffer. */
    int map = kind == VK_MEMORY_DEVICE && !context->stage_device_buffers;
    status =
        create_part(host, context, allocation, KERNEL_USAGE, device_preferences,
                    sizeof device_preferences / sizeof device_preferences[0], "", &created->buffer,
                    &created->memory, &flags, map ? &created->mapped : NULL, HOST_ACCESS,
                    exported_bytes);
  }
  if (status == NULL && kind == VK_MEMORY_MIRRORED) status = add_mirror(host, context, created);
  if (status != NULL) {
    vk_buffer_destroy(host, context, created);
    return status;
  }
  *buffer = created;
  return NULL;
}

tflaccel_status vk_buffer_create(const tflaccel_host_services *host,
                                 const vk_device_context *context, uint64_t size,
                                 vk_memory_kind kind, tflaccel_buffer **buffer) {
  return create_buffer(host, context, size, kind, 0, buffer);
}

tflaccel_status vk_buffer_create_exportable(const tflaccel_host_services *host,
                                            const vk_device_context *context, uint64_t size,
                                            vk_memory_kind kind, tflaccel_buffer **buffer) {
  const vk_device_entry *entry = context->entry;
  int exportable = context->get_memory_fd != NULL && entry->opaque_fd_exportable &&
                   !entry->opaque_fd_dedicated_only;
  return create_buffer(host, context, size, kind, exportable, buffer);
}

int vk_buffer_exportable(const tflaccel_buffer *buffer) { return buffer->exportable; }

VkDeviceSize vk_buffer_exported_bytes(const tflaccel_buffer *buffer) {
  return buffer->allocation_bytes;
}

void vk_buffer_mark_exported(tflaccel_buffer *buffer) {
  buffer->exported = 1;
  buffer->download_on_demand = 1;
}

int vk_buffer_is_exported(const tflaccel_buffer *buffer) { return buffer->exported; }

void vk_buffer_adopt(tflaccel_buffer *buffer) { buffer->borrowed = 0; }

uint32_t vk_buffer_memory_type(const vk_device_context *context,
                               const VkMemoryRequirements *requirements, vk_memory_kind kind) {
  const VkMemoryPropertyFlags *preferences = kind == VK_MEMORY_HOST ? host_preferences
                                                                    : device_preferences;
  size_t count = kind == VK_MEMORY_HOST ? sizeof host_preferences / sizeof host_preferences[0]
                                        : sizeof device_preferences / sizeof device_preferences[0];
  for (size_t p = 0; p < count; ++p) {
    uint32_t type = first_type(context, requirements, preferences[p]);
    if (type != UINT32_MAX) return type;
  }
  return UINT32_MAX;
}

tflaccel_status vk_buffer_wrap(const tflaccel_host_services *host, const vk_device_context *context,
                               VkBuffer application_buffer, VkDeviceMemory memory, uint64_t size,
                               tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (application_buffer == VK_NULL_HANDLE)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_vk: VK_NULL_HANDLE is not a VkBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context->device, application_buffer, &requirements);
  VkDeviceSize allocation = size == 0 ? 16 : (size + 15) / 16 * 16;
  /* The memory a VkBuffer needs is at least its size: one that needs less
   * than the tensor's bytes cannot hold them. */
  if (requirements.size < allocation)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_vk: the VkBuffer needs %llu bytes of memory, so it cannot hold "
                             "%llu (offset + size, rounded up to 16)",
                             (unsigned long long)requirements.size, (unsigned long long)allocation);
  tflaccel_buffer *created = host->alloc(host->context, sizeof *created, _Alignof(tflaccel_buffer));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk buffer: out of memory");
  memset(created, 0, sizeof *created);
  created->buffer = application_buffer;
  created->memory = memory;
  created->borrowed = 1;
  created->size = size;
  created->allocation = allocation;
  created->download_on_demand = 1;
  tflaccel_status status = add_mirror(host, context, created);
  if (status != NULL) {
    vk_buffer_destroy(host, context, created);
    return status;
  }
  /* The application's memory holds the bytes, not the fresh mirror, and the
   * application may write it at any time: host reads and writes go through
   * to it, as an exported buffer's do (a read returned the empty mirror). */
  created->state = VK_MIRROR_DEVICE_NEWER;
  vk_buffer_mark_exported(created);
  *buffer = created;
  return NULL;
}

/* The host-visible mirror of a buffer whose kernels' side is made. */
static tflaccel_status add_mirror(const tflaccel_host_services *host,
                                  const vk_device_context *context, tflaccel_buffer *created) {
  VkMemoryPropertyFlags flags = 0;
  created->device = context->device;
  created->state = VK_MIRROR_CURRENT;
  tflaccel_status status =
      create_part(host, context, created->allocation, MIRROR_USAGE, mirror_preferences,
                  sizeof mirror_preferences / sizeof mirror_preferences[0], "host-visible ",
                  &created->mirror, &created->mirror_memory, &flags, &created->mirror_mapped,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, NULL);
  created->mirror_coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  return status;
}

void vk_buffer_destroy(const tflaccel_host_services *host, const vk_device_context *context,
                       tflaccel_buffer *buffer) {
  if (buffer == NULL) return;
  VkDevice device = context->device;
  VkCommandBuffer copies[2] = {buffer->upload, buffer->download};
  if (buffer->pool != VK_NULL_HANDLE && copies[0] != VK_NULL_HANDLE)
    vkFreeCommandBuffers(device, buffer->pool, 2, copies);
  /* Freeing the memory unmaps it. */
  if (buffer->mirror != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer->mirror, NULL);
  if (buffer->mirror_memory != VK_NULL_HANDLE) vkFreeMemory(device, buffer->mirror_memory, NULL);
  if (buffer->buffer != VK_NULL_HANDLE && !buffer->borrowed) vkDestroyBuffer(device, buffer->buffer, NULL);
  if (buffer->memory != VK_NULL_HANDLE && !buffer->borrowed) vkFreeMemory(device, buffer->memory, NULL);
  host->free(host->context, buffer);
}

/* Where the host's copies go: the mapping, or a mirrored buffer's mirror. */
static unsigned char *host_bytes(const tflaccel_buffer *buffer) {
  return buffer->mirror != VK_NULL_HANDLE ? buffer->mirror_mapped : buffer->mapped;
}

/* Rejects copies the host cannot make: a buffer without host bytes, or a
 * range outside it. */
static tflaccel_status check_range(const tflaccel_host_services *host,
                                   const tflaccel_buffer *buffer, uint64_t offset, uint64_t size,
                                   const char *what) {
  if (host_bytes(buffer) == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_vk buffer %s: the buffer lives in device-only memory", what);
  return gpu_check_buffer_range(host, "gpu_vk", buffer->size, offset, size, what);
}

/* The whole mirror: ranges of a non-coherent mapping must be whole atoms,
 * and the whole mapping always is. */
static VkMappedMemoryRange whole_mirror(const tflaccel_buffer *buffer) {
  return (VkMappedMemoryRange){.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                               .memory = buffer->mirror_memory,
                               .offset = 0,
                               .size = VK_WHOLE_SIZE};
}

tflaccel_status vk_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "write");
  if (status != NULL || size == 0) return status;
  memcpy(host_bytes(buffer) + offset, source, (size_t)size);
  if (buffer->mirror == VK_NULL_HANDLE) return NULL;
  if (!buffer->mirror_coherent) {
    /* The upload's submission reads what the flush made visible. */
    const VkMappedMemoryRange range = whole_mirror(buffer);
    VkResult result = vkFlushMappedMemoryRanges(buffer->device, 1, &range);
    if (result != VK_SUCCESS) return vk_call_failed(host, "vkFlushMappedMemoryRanges", result);
  }
  buffer->state = VK_MIRROR_HOST_NEWER;
  return NULL;
}

tflaccel_status vk_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size) {
  tflaccel_status status = check_range(host, buffer, offset, size, "read");
  if (status != NULL || size == 0) return status;
  if (buffer->mirror != VK_NULL_HANDLE && !buffer->mirror_coherent) {
    /* Drops stale cache lines: a download may have written the mirror. */
    const VkMappedMemoryRange range = whole_mirror(buffer);
    VkResult result = vkInvalidateMappedMemoryRanges(buffer->device, 1, &range);
    if (result != VK_SUCCESS) return vk_call_failed(host, "vkInvalidateMappedMemoryRanges", result);
  }
  memcpy(destination, host_bytes(buffer) + offset, (size_t)size);
  return NULL;
}
