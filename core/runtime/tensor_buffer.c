#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/runtime/tensor_buffer.h"
#include "core/runtime/tensor_event.h"

/* Checks dtype, rank and shape and computes the byte size they need. */
static tflaccel_status buffer_byte_size(int32_t dtype, uint32_t rank, const int32_t *shape,
                                        size_t *bytes_out) {
  size_t element_size = dtype_size(dtype);
  if (element_size == 0)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "tensor buffer: dtype %s (%d) has no fixed size",
                                dtype_name(dtype), (int)dtype);
  if (rank > TENSOR_BUFFER_MAX_RANK)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "tensor buffer: rank %u exceeds %d", rank,
                                TENSOR_BUFFER_MAX_RANK);
  size_t bytes = element_size;
  for (uint32_t d = 0; d < rank; ++d) {
    if (shape[d] < 0)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: dimension %u is %d",
                                  d, (int)shape[d]);
    if (shape[d] != 0 && bytes > SIZE_MAX / (size_t)shape[d])
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: size overflows");
    bytes *= (size_t)shape[d];
  }
  *bytes_out = bytes;
  return NULL;
}

tflaccel_status tensor_buffer_alloc(int32_t dtype, uint32_t rank, const int32_t *shape,
                                    tflaccel_tensor_buffer **buffer_out) {
  if (buffer_out == NULL || (rank > 0 && shape == NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: NULL argument");
  *buffer_out = NULL;
  size_t bytes = 0;
  tflaccel_status status = buffer_byte_size(dtype, rank, shape, &bytes);
  if (status != NULL) return status;
  tflaccel_tensor_buffer *buffer = calloc(1, sizeof *buffer);
  if (buffer == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer: out of memory");
  if (pthread_mutex_init(&buffer->event_lock, NULL) != 0) {
    free(buffer);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "tensor buffer: cannot make a mutex");
  }
  buffer->type = TFLACCEL_BUFFER_HOST;
  buffer->dtype = dtype;
  buffer->rank = rank;
  if (rank) memcpy(buffer->shape, shape, sizeof *shape * rank);
  buffer->byte_size = bytes;
  *buffer_out = buffer;
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_create(int32_t dtype, uint32_t rank, const int32_t *shape,
                                              tflaccel_tensor_buffer **buffer_out) {
  tflaccel_status status = tensor_buffer_alloc(dtype, rank, shape, buffer_out);
  if (status != NULL) return status;
  tflaccel_tensor_buffer *buffer = *buffer_out;
  size_t bytes = buffer->byte_size;
  if (posix_memalign(&buffer->data, 64, bytes ? bytes : 1) != 0) {
    buffer->data = NULL;
    tflaccel_tensor_buffer_destroy(buffer);
    *buffer_out = NULL;
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer: cannot allocate %zu bytes",
                                bytes);
  }
  memset(buffer->data, 0, bytes ? bytes : 1);
  buffer->owns_data = 1;
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_wrap_host(int32_t dtype, uint32_t rank,
                                                 const int32_t *shape, void *data, size_t size,
                                                 tflaccel_tensor_buffer **buffer_out) {
  if (buffer_out == NULL || (rank > 0 && shape == NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: NULL argument");
  *buffer_out = NULL;
  size_t bytes = 0;
  tflaccel_status status = buffer_byte_size(dtype, rank, shape, &bytes);
  if (status != NULL) return status;
  if (size != bytes)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer: %zu bytes given, a %s tensor of this shape holds %zu",
                                size, dtype_name(dtype), bytes);
  if (data == NULL && bytes > 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: NULL data");
  status = tensor_buffer_alloc(dtype, rank, shape, buffer_out);
  if (status != NULL) return status;
  (*buffer_out)->data = data;
  (*buffer_out)->owns_data = 0;
  return NULL;
}

void tflaccel_tensor_buffer_destroy(tflaccel_tensor_buffer *buffer) {
  if (buffer == NULL) return;
  if (buffer->device_buffer != NULL) {
    registry_device_lock(buffer->plugin);
    buffer->device->vtable->buffer_destroy(buffer->device, buffer->device_buffer);
    registry_device_unlock(buffer->plugin);
  }
  free(buffer->lock_copy);
  if (buffer->owns_data) free(buffer->data);
  tflaccel_tensor_event_destroy(buffer->event);
  pthread_mutex_destroy(&buffer->event_lock);
  free(buffer);
}

int32_t tflaccel_tensor_buffer_dtype(const tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->dtype : -1;
}
uint32_t tflaccel_tensor_buffer_rank(const tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->rank : 0;
}
const int32_t *tflaccel_tensor_buffer_shape(const tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->shape : NULL;
}
size_t tflaccel_tensor_buffer_byte_size(const tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->byte_size : 0;
}
void *tflaccel_tensor_buffer_data(tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->data : NULL;
}

/* Blocking copies between host memory and a device buffer's tensor bytes. */
static tflaccel_status device_copy(const tflaccel_tensor_buffer *buffer, void *host, int to_device) {
  const tflaccel_device_vtable *vtable = buffer->device->vtable;
  registry_device_lock(buffer->plugin);
  tflaccel_status status =
      to_device ? vtable->buffer_write(buffer->device, buffer->device_buffer, buffer->offset, host,
                                       buffer->byte_size)
                : vtable->buffer_read(buffer->device, buffer->device_buffer, buffer->offset, host,
                                      buffer->byte_size);
  registry_device_unlock(buffer->plugin);
  return status != NULL ? tflaccel_status_annotate(status, "tensor buffer %s",
                                                   to_device ? "write" : "read")
                        : NULL;
}

tflaccel_status tflaccel_tensor_buffer_write(tflaccel_tensor_buffer *buffer, const void *data,
                                             size_t size) {
  if (buffer == NULL || (data == NULL && size > 0))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer write: NULL argument");
  if (size != buffer->byte_size)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer write: %zu bytes given, the tensor holds %zu", size,
                                buffer->byte_size);
  if (buffer->lock_mode != 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer write: the buffer is locked");
  /* Waits for the run writing it; whether that run failed does not matter
   * to bytes about to be replaced. */
  tflaccel_status_free(tensor_buffer_wait_event(buffer));
  if (buffer->type != TFLACCEL_BUFFER_HOST) return size ? device_copy(buffer, (void *)data, 1) : NULL;
  if (size) memcpy(buffer->data, data, size);
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_read(const tflaccel_tensor_buffer *buffer, void *data,
                                            size_t size) {
  if (buffer == NULL || (data == NULL && size > 0))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer read: NULL argument");
  if (size != buffer->byte_size)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer read: %zu bytes asked, the tensor holds %zu", size,
                                buffer->byte_size);
  tflaccel_status status = tensor_buffer_wait_event(buffer);
  if (status != NULL) return status;
  if (buffer->type != TFLACCEL_BUFFER_HOST) return size ? device_copy(buffer, data, 0) : NULL;
  if (size) memcpy(data, buffer->data, size);
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_lock(tflaccel_tensor_buffer *buffer, int32_t mode,
                                            void **data) {
  if (buffer == NULL || data == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer lock: NULL argument");
  *data = NULL;
  if (mode < TFLACCEL_LOCK_READ || mode > TFLACCEL_LOCK_READ_WRITE)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer lock: mode %d is not READ (1), WRITE (2) or READ_WRITE (3)",
                                (int)mode);
  if (buffer->lock_mode != 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer lock: locked already");
  /* A run that failed to write the buffer fails a read; a write-only lock
   * replaces the bytes anyway. */
  tflaccel_status status = tensor_buffer_wait_event(buffer);
  if (status != NULL && (mode & TFLACCEL_LOCK_READ)) return status;
  tflaccel_status_free(status);
  if (buffer->type == TFLACCEL_BUFFER_HOST) {
    buffer->lock_mode = mode;
    *data = buffer->data;
    return NULL;
  }
  if (buffer->lock_copy == NULL &&
      posix_memalign(&buffer->lock_copy, 64, buffer->byte_size ? buffer->byte_size : 1) != 0) {
    buffer->lock_copy = NULL;
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer lock: cannot allocate %zu bytes",
                                buffer->byte_size);
  }
  if ((mode & TFLACCEL_LOCK_READ) && buffer->byte_size) {
    status = device_copy(buffer, buffer->lock_copy, 0);
    if (status != NULL) return status;
  }
  buffer->lock_mode = mode;
  *data = buffer->lock_copy;
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_unlock(tflaccel_tensor_buffer *buffer) {
  if (buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer unlock: NULL buffer");
  if (buffer->lock_mode == 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer unlock: not locked");
  int32_t mode = buffer->lock_mode;
  buffer->lock_mode = 0;
  if (buffer->type == TFLACCEL_BUFFER_HOST || !(mode & TFLACCEL_LOCK_WRITE) || !buffer->byte_size)
    return NULL;
  return device_copy(buffer, buffer->lock_copy, 1);
}
