/* Device buffers of gpu_vk. The buffers the core sees (partition inputs
 * and outputs) are a VkBuffer bound to host-visible, host-coherent memory
 * that stays mapped, so copies to and from the host are plain memory copies
 * (the executor waits for the queue before touching results). The GPU
 * layer's own buffers (arena, weights, parameters) prefer device-local
 * memory; they are mapped too when that memory is also host-visible
 * (software and integrated devices), else filled through a staging copy
 * (vk_backend.h). */
#ifndef TFLACCEL_GPU_VK_VK_BUFFER_H
#define TFLACCEL_GPU_VK_VK_BUFFER_H

#include "plugins/gpu_vk/vk_context.h"
#include "tflaccel/accelerator.h"

typedef enum vk_memory_kind {
  VK_MEMORY_HOST = 0,   /* host-visible, coherent, mapped */
  VK_MEMORY_DEVICE = 1, /* device-local when there is such memory */
} vk_memory_kind;

/* The VkBuffer behind a buffer (for kernels to bind). */
VkBuffer vk_buffer_handle(const tflaccel_buffer *buffer);
/* Its bytes on the host, or NULL when its memory is not host-visible. */
unsigned char *vk_buffer_mapped(const tflaccel_buffer *buffer);
uint64_t vk_buffer_size(const tflaccel_buffer *buffer);

tflaccel_status vk_buffer_create(const tflaccel_host_services *host,
                                 const vk_device_context *context, uint64_t size,
                                 vk_memory_kind kind, tflaccel_buffer **buffer);
void vk_buffer_destroy(const tflaccel_host_services *host, const vk_device_context *context,
                       tflaccel_buffer *buffer);
tflaccel_status vk_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status vk_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

#endif
