/* Tensor buffers handed to tflaccel_compiled_model_run: host memory, or a
 * buffer of an accelerator's device (device_buffer.c). */
#ifndef TFLACCEL_CORE_RUNTIME_TENSOR_BUFFER_H
#define TFLACCEL_CORE_RUNTIME_TENSOR_BUFFER_H

#include <pthread.h>

#include "core/registry/registry.h"
#include "tflaccel/accelerator.h"
#include "tflaccel/tflaccel.h"

#define TENSOR_BUFFER_MAX_RANK 8

struct tflaccel_tensor_buffer {
  int32_t dtype;
  uint32_t rank;
  int32_t shape[TENSOR_BUFFER_MAX_RANK];
  size_t byte_size;
  void *data; /* host bytes (64-byte aligned when owned); NULL for device buffers */
  int owns_data; /* 0: the caller's memory (tflaccel_tensor_buffer_wrap_host) */

  /* Device buffers (type != TFLACCEL_BUFFER_HOST): the tensor's bytes are
   * [offset, offset + byte_size) of device_buffer, a buffer of plugin's
   * device, made by it (managed) or wrapping the application's object. */
  int32_t type; /* tflaccel_buffer_type */
  plugin_entry *plugin;
  tflaccel_device *device;
  tflaccel_buffer *device_buffer;
  uint64_t offset;
  tflaccel_native_buffer native;
  void *lock_copy;    /* host bytes while locked (device buffers) */
  int32_t lock_mode;  /* 0 while unlocked */

  /* The buffer's event (event.c); guarded by event_lock, as the
   * application and a queued run's thread both reach it. */
  pthread_mutex_t event_lock;
  tflaccel_tensor_event *event;
};

/* Fills a new buffer's common fields (dtype, rank, shape, byte_size after
 * checking them). */
tflaccel_status tensor_buffer_alloc(int32_t dtype, uint32_t rank, const int32_t *shape,
                                    tflaccel_tensor_buffer **buffer);

#endif
