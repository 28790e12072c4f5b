/* gpu_gl's external memory: an opaque fd of another API's memory (gpu_vk's
 * exported buffers) imported as a GL memory object (GL_EXT_memory_object_fd)
 * whose storage backs a new GL buffer (glBufferStorageMemEXT). The fd must
 * come from the same physical device and driver: GL_DEVICE_UUID_EXT and
 * GL_DRIVER_UUID_EXT (tflaccel_native_device's device_uuid, driver_uuid)
 * equal the exporter's. The driver is not asked for dma-bufs (GLES has no
 * import of them into buffers): refused naming what is missing. All calls
 * run on the device's GL thread. */
#ifndef TFLACCEL_GPU_GL_GL_MEMORY_OBJECT_H
#define TFLACCEL_GPU_GL_GL_MEMORY_OBJECT_H

#include <stdint.h>

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

typedef struct gl_memory_objects {
  int32_t offered; /* GL_EXT_memory_object and GL_EXT_memory_object_fd, entry points found */
  uint8_t device_uuid[GL_UUID_SIZE_EXT]; /* zero without GL_EXT_memory_object */
  uint8_t driver_uuid[GL_UUID_SIZE_EXT];
  PFNGLCREATEMEMORYOBJECTSEXTPROC create;
  PFNGLDELETEMEMORYOBJECTSEXTPROC destroy;
  PFNGLIMPORTMEMORYFDEXTPROC import_fd;
  PFNGLBUFFERSTORAGEMEMEXTPROC buffer_storage;
} gl_memory_objects;

/* With the device's context current: what the driver offers. */
void gl_memory_objects_init(gl_memory_objects *objects);

/* A buffer of the memory behind native's fd (TFLACCEL_BUFFER_OPAQUE_FD;
 * a DMABUF is refused naming what is missing); the GL buffer and memory
 * object are the buffer's own, the fd a dup()'s. renderer names the
 * driver in messages. */
tflaccel_status gl_memory_object_import(const tflaccel_host_services *host,
                                        const gl_memory_objects *objects, const char *renderer,
                                        const tflaccel_native_buffer *native,
                                        tflaccel_buffer **buffer);

#endif
