/* gpu_vk's external memory (vk_external_memory.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_external_fd.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_external_memory.h"

#define PLUGIN "gpu_vk"

static int can_import(const vk_device_context *context) {
  return context->entry->external_memory_fd && context->entry->opaque_fd_importable &&
         !context->entry->opaque_fd_dedicated_only;
}

uint32_t vk_external_memory_types(const vk_device_context *context) {
  return can_import(context) ? 1u << TFLACCEL_BUFFER_OPAQUE_FD : 0;
}

void vk_external_memory_uuids(const vk_device_context *context, tflaccel_native_device *native) {
  memcpy(native->device_uuid, context->entry->device_uuid, sizeof native->device_uuid);
  memcpy(native->driver_uuid, context->entry->driver_uuid, sizeof native->driver_uuid);
}

/* Why this device cannot share opaque fds, or NULL when it can. */
static tflaccel_status opaque_fd_missing(const tflaccel_host_services *host,
                                         const vk_device_context *context, const char *direction) {
  const vk_device_entry *entry = context->entry;
  if (!entry->external_memory_fd)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": %s an opaque fd needs VK_KHR_external_memory_fd, which %s "
                             "does not offer",
                             direction, entry->info.name);
  if (entry->opaque_fd_dedicated_only)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": %s does not share buffers' memory as opaque fds without a "
                             "dedicated allocation, which gpu_vk does not make",
                             entry->info.name);
  return NULL;
}

static tflaccel_status dma_buf_missing(const tflaccel_host_services *host,
                                       const vk_device_context *context) {
  if (!context->entry->external_memory_dma_buf)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": a dma-buf needs VK_EXT_external_memory_dma_buf, which %s "
                             "does not offer",
                             context->entry->info.name);
  return host->status_make(TFLACCEL_UNSUPPORTED,
                           PLUGIN ": %s offers VK_EXT_external_memory_dma_buf, but gpu_vk shares "
                           "opaque fds only (no driver it was tested on has dma-bufs)",
                           context->entry->info.name);
}

tflaccel_status vk_external_memory_export(const tflaccel_host_services *host,
                                          const vk_device_context *context,
                                          tflaccel_buffer *buffer, int32_t type,
                                          tflaccel_native_buffer *native) {
  if (type == TFLACCEL_BUFFER_DMABUF) return dma_buf_missing(host, context);
  if (type != TFLACCEL_BUFFER_OPAQUE_FD)
    return host->status_make(TFLACCEL_UNSUPPORTED, PLUGIN ": exports opaque fds, not type %d",
                             (int)type);
  tflaccel_status status = opaque_fd_missing(host, context, "exporting");
  if (status != NULL) return status;
  if (!context->entry->opaque_fd_exportable || context->get_memory_fd == NULL)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": %s cannot export storage buffers' memory as opaque fds",
                             context->entry->info.name);
  if (!vk_buffer_exportable(buffer))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": only buffers gpu_vk made "
                             "(tflaccel_compiled_model_create_*_device_buffer) can be exported");
  const VkMemoryGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
      .memory = vk_buffer_memory(buffer),
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
  };
  int fd = -1;
  VkResult result = context->get_memory_fd(context->device, &info, &fd);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkGetMemoryFdKHR", result);
  vk_buffer_mark_exported(buffer);
  native->type = TFLACCEL_BUFFER_OPAQUE_FD;
  native->handle = (uint64_t)fd;
  native->memory = vk_buffer_exported_bytes(buffer);
  native->offset = 0;
  native->size = vk_buffer_size(buffer);
  return NULL;
}

tflaccel_status vk_external_memory_import(const tflaccel_host_services *host,
                                          const vk_device_context *context,
                                          vk_memory_kind io_memory,
                                          const tflaccel_native_buffer *native,
                                          tflaccel_buffer **buffer) {
  *buffer = NULL;
  if (native->type == TFLACCEL_BUFFER_DMABUF) return dma_buf_missing(host, context);
  tflaccel_status status = opaque_fd_missing(host, context, "importing");
  if (status != NULL) return status;
  if (!context->entry->opaque_fd_importable)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             PLUGIN ": %s cannot import opaque fds into storage buffers",
                             context->entry->info.name);
  int fd = -1;
  status = gpu_external_fd_check(host, PLUGIN, native, &fd);
  if (status != NULL) return status;

  /* A VkBuffer over [0, offset + size), bound at the allocation's start:
   * the core binds the tensor at native->offset of it. */
  uint64_t end = native->offset + native->size;
  VkDeviceSize bytes = end == 0 ? 16 : (end + 15) / 16 * 16;
  if (bytes > native->memory)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": offset + size rounded up to 16 (%llu bytes) lies beyond the "
                             "fd's allocation of %llu bytes",
                             (unsigned long long)bytes, (unsigned long long)native->memory);
  const VkExternalMemoryBufferCreateInfo external = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
  };
  const VkBufferCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = &external,
      .size = bytes,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkBuffer imported = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(context->device, &create_info, NULL, &imported);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkCreateBuffer (opaque fd)", result);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context->device, imported, &requirements);
  uint32_t type = vk_buffer_memory_type(context, &requirements, io_memory);
  if (requirements.size > native->memory || type == UINT32_MAX) {
    vkDestroyBuffer(context->device, imported, NULL);
    if (type == UINT32_MAX)
      return host->status_make(TFLACCEL_BACKEND_ERROR,
                               PLUGIN ": no Vulkan memory type takes an imported buffer");
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             PLUGIN ": a VkBuffer over offset + size needs %llu bytes, the fd's "
                             "allocation holds %llu",
                             (unsigned long long)requirements.size,
                             (unsigned long long)native->memory);
  }
  int copy = -1;
  status = gpu_external_fd_dup(host, PLUGIN, fd, &copy);
  if (status != NULL) {
    vkDestroyBuffer(context->device, imported, NULL);
    return status;
  }
  /* An opaque fd is imported with the size and type it was exported with. */
  const VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = copy,
  };
  const VkMemoryAllocateInfo allocate = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &import,
      .allocationSize = native->memory,
      .memoryTypeIndex = type,
  };
  VkDeviceMemory memory = VK_NULL_HANDLE;
  result = vkAllocateMemory(context->device, &allocate, NULL, &memory);
  if (result != VK_SUCCESS) {
    close(copy); /* Vulkan owns the fd only after a successful import. */
    vkDestroyBuffer(context->device, imported, NULL);
    return host->status_make(result == VK_ERROR_INVALID_EXTERNAL_HANDLE ? TFLACCEL_INVALID_ARGUMENT
                                                                        : TFLACCEL_BACKEND_ERROR,
                             PLUGIN ": vkAllocateMemory could not import fd %d (%s): an opaque fd "
                             "imports only on the device and driver that exported it, with its "
                             "allocation's size",
                             fd, vk_result_name(result));
  }
  result = vkBindBufferMemory(context->device, imported, memory, 0);
  if (result == VK_SUCCESS) status = vk_buffer_wrap(host, context, imported, memory, end, buffer);
  else status = vk_call_failed(host, "vkBindBufferMemory (opaque fd)", result);
  if (status != NULL) {
    vkDestroyBuffer(context->device, imported, NULL);
    vkFreeMemory(context->device, memory, NULL);
    return status;
  }
  vk_buffer_adopt(*buffer);
  return NULL;
}
