/* gpu_vk's view of Vulkan: a headless instance (no surface extensions), the
 * physical devices that have a compute queue, and the per-device objects
 * (VkDevice and its compute queue) that buffers and, later, kernels use. */
#ifndef TFLACCEL_GPU_VK_VK_CONTEXT_H
#define TFLACCEL_GPU_VK_VK_CONTEXT_H

#include <vulkan/vulkan.h>

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_vk/vk_debug.h"
#include "plugins/gpu_vk/vk_semaphore.h"
#include "tflaccel/accelerator.h"

typedef struct vk_device_entry {
  VkPhysicalDevice physical;
  uint32_t compute_family;          /* a queue family with VK_QUEUE_COMPUTE_BIT */
  uint32_t timestamp_valid_bits;    /* of that family's timestamps; 0: none */
  int32_t storage_buffer_16bit;     /* storageBuffer16BitAccess */
  int32_t shader_float16;           /* shaderFloat16 (VK_KHR_shader_float16_int8) */
  VkDeviceSize max_allocation_size; /* maxMemoryAllocationSize */
  VkPhysicalDeviceLimits limits;
  VkPhysicalDeviceMemoryProperties memory;
  tflaccel_device_info info;
  /* External memory (vk_external_memory.h): VK_KHR_external_memory_fd is
   * offered (then enabled) and what it allows for the buffers gpu_vk makes
   * (vkGetPhysicalDeviceExternalBufferProperties, OPAQUE_FD); whether
   * VK_EXT_external_memory_dma_buf is offered; the device's and driver's
   * UUIDs (VkPhysicalDeviceIDProperties). */
  int32_t external_memory_fd;
  int32_t opaque_fd_exportable, opaque_fd_importable, opaque_fd_dedicated_only;
  int32_t external_memory_dma_buf;
  uint8_t device_uuid[VK_UUID_SIZE];
  uint8_t driver_uuid[VK_UUID_SIZE];
  vk_sync_support sync; /* semaphores and fd sync objects (vk_semaphore.h) */
} vk_device_entry;

/* What the plugin options ask of the instance and its devices. */
typedef struct vk_instance_options {
  vk_debug *debug;           /* non-NULL: validation layer and messenger (vk_debug_init done) */
  int32_t use_16bit_storage; /* 0: never use storageBuffer16BitAccess (fallback tests) */
  int32_t use_float16;       /* 0: never use shaderFloat16 */
} vk_instance_options;

typedef struct vk_instance_context {
  VkInstance instance;
  vk_debug *debug;          /* borrowed from the options; NULL without validation */
  vk_device_entry *entries; /* host->alloc'ed; count entries */
  uint32_t count;
} vk_instance_context;

/* Creates a Vulkan 1.1 instance and lists the physical devices of Vulkan 1.1
 * or later that can compute: discrete GPUs first, then integrated, other,
 * virtual and CPU (software) devices. No driver, or no such device, is
 * TFLACCEL_UNAVAILABLE with the reason. */
tflaccel_status vk_instance_context_create(const tflaccel_host_services *host,
                                           const vk_instance_options *options,
                                           vk_instance_context *context);
void vk_instance_context_release(const tflaccel_host_services *host, vk_instance_context *context);

typedef struct vk_device_context {
  const vk_device_entry *entry; /* borrowed from the instance context */
  VkDevice device;
  VkQueue queue;                /* queue 0 of entry->compute_family */
  int32_t stage_device_buffers; /* never map device-local buffers: tests the staging path */
  /* The fault hook of the device's calls (gpu_fault.h); owned by the
   * device, NULL before it is set. A pointer, so that calls through a
   * const context still count. */
  gpu_fault *fault;
  /* vkGetMemoryFdKHR where entry->external_memory_fd, else NULL. */
  PFN_vkGetMemoryFdKHR get_memory_fd;
} vk_device_context;

/* Creates the logical device with the 16-bit features the entry reports. */
tflaccel_status vk_device_context_create(const tflaccel_host_services *host,
                                         const vk_device_entry *entry, vk_device_context *context);
void vk_device_context_release(const tflaccel_host_services *host, vk_device_context *context);

#endif
