/* Device buffers of gpu_vk: a VkBuffer bound to host-visible, host-coherent
 * memory that stays mapped, so copies to and from the host are plain memory
 * copies (the executor waits for the queue before touching results). */
#ifndef TFLACCEL_GPU_VK_VK_BUFFER_H
#define TFLACCEL_GPU_VK_VK_BUFFER_H

#include "plugins/gpu_vk/vk_context.h"
#include "tflaccel/accelerator.h"

/* The VkBuffer behind a buffer (for kernels to bind). */
VkBuffer vk_buffer_handle(const tflaccel_buffer *buffer);

tflaccel_status vk_buffer_create(const tflaccel_host_services *host,
                                 const vk_device_context *context, uint64_t size,
                                 tflaccel_buffer **buffer);
void vk_buffer_destroy(const tflaccel_host_services *host, const vk_device_context *context,
                       tflaccel_buffer *buffer);
tflaccel_status vk_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status vk_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

#endif
