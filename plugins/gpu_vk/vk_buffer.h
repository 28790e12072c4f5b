/* Device buffers of gpu_vk. The buffers the core sees (partition inputs
 * and outputs) are, where the device's host-visible memory is also
 * device-local (software and integrated devices), a VkBuffer bound to
 * host-visible, host-coherent memory that stays mapped, so copies to and
 * from the host are plain memory copies (the executor waits for the queue
 * before touching results). Where it is not (discrete GPUs: the kernels
 * would reach it across the bus), such a buffer is mirrored: a device-local
 * VkBuffer the kernels bind and a mapped host-visible one of the same size
 * (cached where there is such memory) that the host copies into and out
 * of; the backend copies between the two (vk_backend.h) and each buffer
 * notes which side is newer. The GPU layer's own buffers (arena, weights,
 * parameters) prefer device-local memory; they are mapped too when that
 * memory is also host-visible, else filled through a staging copy
 * (vk_backend.h). */
#ifndef TFLACCEL_GPU_VK_VK_BUFFER_H
#define TFLACCEL_GPU_VK_VK_BUFFER_H

#include "plugins/gpu_vk/vk_context.h"
#include "tflaccel/accelerator.h"

typedef enum vk_memory_kind {
  VK_MEMORY_HOST = 0,     /* host-visible, coherent, mapped */
  VK_MEMORY_DEVICE = 1,   /* device-local when there is such memory */
  VK_MEMORY_MIRRORED = 2, /* VK_MEMORY_DEVICE for kernels + a mapped host-visible mirror */
} vk_memory_kind;

/* Which side of a mirrored buffer holds its bytes. */
typedef enum vk_mirror_state {
  VK_MIRROR_CURRENT = 0,      /* both the same (or neither written yet) */
  VK_MIRROR_HOST_NEWER = 1,   /* the host wrote the mirror: upload before kernels read */
  VK_MIRROR_DEVICE_NEWER = 2, /* kernels wrote the device side: download before the host reads */
} vk_mirror_state;

/* The VkBuffer behind a buffer (for kernels to bind: a mirrored buffer's
 * device-local side). */
VkBuffer vk_buffer_handle(const tflaccel_buffer *buffer);
/* Its bytes on the host, or NULL when its memory is not host-visible (and
 * for mirrored buffers, whose host bytes are the mirror's). */
unsigned char *vk_buffer_mapped(const tflaccel_buffer *buffer);
uint64_t vk_buffer_size(const tflaccel_buffer *buffer);
/* The memory bound to vk_buffer_handle's VkBuffer. */
VkDeviceMemory vk_buffer_memory(const tflaccel_buffer *buffer);

/* Buffers handed to the application (its kernels may read and write the
 * device side): a run that writes a mirrored one leaves its mirror stale
 * (VK_MIRROR_DEVICE_NEWER) rather than downloading into it each run; a
 * host read downloads then. */
void vk_buffer_hand_out(tflaccel_buffer *buffer);
int vk_buffer_downloads_on_demand(const tflaccel_buffer *buffer);

/* A buffer around the application's VkBuffer (made on this VkDevice with
 * storage and transfer usage, holding size bytes rounded up to 16) and its
 * memory, which stay the application's; with a host-visible mirror of its
 * own for host reads and writes (downloaded on demand). */
tflaccel_status vk_buffer_wrap(const tflaccel_host_services *host, const vk_device_context *context,
                               VkBuffer application_buffer, VkDeviceMemory memory, uint64_t size,
                               tflaccel_buffer **buffer);

/* ---- external memory (vk_external_memory.h) ---- */

/* vk_buffer_create for a buffer handed to the application: its kernels'
 * side is allocated exportable as an opaque fd where the device allows
 * (VK_KHR_external_memory_fd, exportable, not dedicated-only). */
tflaccel_status vk_buffer_create_exportable(const tflaccel_host_services *host,
                                            const vk_device_context *context, uint64_t size,
                                            vk_memory_kind kind, tflaccel_buffer **buffer);
int vk_buffer_exportable(const tflaccel_buffer *buffer);
/* Bytes of its exportable allocation (the size an importer gives). */
VkDeviceSize vk_buffer_exported_bytes(const tflaccel_buffer *buffer);
/* Its memory is shared (went out as an fd, or is the application's own,
 * vk_buffer_wrap): host copies reach the device side at once
 * (vk_backend_buffer_write/read), as another API or the application reads
 * and writes it there. */
void vk_buffer_mark_exported(tflaccel_buffer *buffer);
int vk_buffer_is_exported(const tflaccel_buffer *buffer);
/* A vk_buffer_wrap'ed VkBuffer and memory become the buffer's own (an
 * import): destroyed with it. */
void vk_buffer_adopt(tflaccel_buffer *buffer);
/* The memory type a buffer of kind with these requirements takes first
 * (an import must name the exporter's type; same device, same choice),
 * or UINT32_MAX. */
uint32_t vk_buffer_memory_type(const vk_device_context *context,
                               const VkMemoryRequirements *requirements, vk_memory_kind kind);

/* Whether VK_MEMORY_HOST buffers of this device would live in device-local
 * memory (the first memory type such a buffer would take has
 * DEVICE_LOCAL). Where not, the core's buffers are better mirrored. */
tflaccel_status vk_buffer_host_memory_is_device_local(const tflaccel_host_services *host,
                                                      const vk_device_context *context,
                                                      int *device_local);

tflaccel_status vk_buffer_create(const tflaccel_host_services *host,
                                 const vk_device_context *context, uint64_t size,
                                 vk_memory_kind kind, tflaccel_buffer **buffer);
/* No submission may still use the buffer (every one is waited for). */
void vk_buffer_destroy(const tflaccel_host_services *host, const vk_device_context *context,
                       tflaccel_buffer *buffer);
/* Host copies. A mirrored buffer's go to and from its mirror (flushed or
 * invalidated when its memory is not coherent); a write marks it
 * VK_MIRROR_HOST_NEWER. Whether the mirror holds the newest bytes is the
 * caller's business (vk_backend_buffer_read/write). */
tflaccel_status vk_buffer_write(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                                uint64_t offset, const void *source, uint64_t size);
tflaccel_status vk_buffer_read(const tflaccel_host_services *host, tflaccel_buffer *buffer,
                               uint64_t offset, void *destination, uint64_t size);

/* ---- mirrored buffers ---- */

int vk_buffer_is_mirrored(const tflaccel_buffer *buffer);
VkBuffer vk_buffer_mirror_handle(const tflaccel_buffer *buffer);
/* Bytes of each of its VkBuffers: the size rounded up to 16. */
uint64_t vk_buffer_allocation_size(const tflaccel_buffer *buffer);
vk_mirror_state vk_buffer_mirror_state(const tflaccel_buffer *buffer);
void vk_buffer_set_mirror_state(tflaccel_buffer *buffer, vk_mirror_state state);
/* The command buffers copying mirror -> device and device -> mirror,
 * recorded once by the backend and kept here; VK_NULL_HANDLE until then. */
VkCommandBuffer vk_buffer_upload_commands(const tflaccel_buffer *buffer);
VkCommandBuffer vk_buffer_download_commands(const tflaccel_buffer *buffer);
/* Hands both to the buffer, which frees them (into pool) when destroyed. */
void vk_buffer_keep_copies(tflaccel_buffer *buffer, VkCommandPool pool, VkCommandBuffer upload,
                           VkCommandBuffer download);

#endif
