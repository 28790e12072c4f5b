/* gpu_vk's external memory: buffers it hands out are allocated exportable
 * (vk_buffer_create_exportable) and exported as opaque fds
 * (VK_KHR_external_memory_fd, vkGetMemoryFdKHR); an application's opaque
 * fd is imported (VkImportMemoryFdInfoKHR) into a VkBuffer bound at offset
 * 0 of the whole allocation. An opaque fd imports only on the device and
 * driver that made it (the same VkPhysicalDeviceIDProperties UUIDs). No
 * dma-buf: VK_EXT_external_memory_dma_buf is offered by no driver gpu_vk
 * was tested on, and is refused naming it. */
#ifndef TFLACCEL_GPU_VK_VK_EXTERNAL_MEMORY_H
#define TFLACCEL_GPU_VK_VK_EXTERNAL_MEMORY_H

#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_context.h"
#include "tflaccel/accelerator.h"

/* The buffer types beyond Vulkan buffers that vk_external_memory_import
 * takes on this device (a mask of 1u << tflaccel_buffer_type). */
uint32_t vk_external_memory_types(const vk_device_context *context);

/* The native fd of buffer's memory (accelerator.h's buffer_export); marks
 * the buffer exported. */
tflaccel_status vk_external_memory_export(const tflaccel_host_services *host,
                                          const vk_device_context *context,
                                          tflaccel_buffer *buffer, int32_t type,
                                          tflaccel_native_buffer *native);

/* A buffer of the memory behind native's fd (TFLACCEL_BUFFER_OPAQUE_FD or
 * DMABUF), its memory type chosen as a buffer of io_memory would be (the
 * exporter's choice on the same device). */
tflaccel_status vk_external_memory_import(const tflaccel_host_services *host,
                                          const vk_device_context *context,
                                          vk_memory_kind io_memory,
                                          const tflaccel_native_buffer *native,
                                          tflaccel_buffer **buffer);

/* The device's and driver's UUIDs for tflaccel_native_device. */
void vk_external_memory_uuids(const vk_device_context *context, tflaccel_native_device *native);

#endif
