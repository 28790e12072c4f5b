#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/runtime/tensor_buffer.h"

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

tflaccel_status tflaccel_tensor_buffer_create(int32_t dtype, uint32_t rank, const int32_t *shape,
                                              tflaccel_tensor_buffer **buffer_out) {
  if (buffer_out == NULL || (rank > 0 && shape == NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer: NULL argument");
  *buffer_out = NULL;
  size_t bytes = 0;
  tflaccel_status status = buffer_byte_size(dtype, rank, shape, &bytes);
  if (status != NULL) return status;
  tflaccel_tensor_buffer *buffer = calloc(1, sizeof *buffer);
  if (buffer == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer: out of memory");
  if (posix_memalign(&buffer->data, 64, bytes ? bytes : 1) != 0) {
    free(buffer);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer: cannot allocate %zu bytes",
                                bytes);
  }
  memset(buffer->data, 0, bytes ? bytes : 1);
  buffer->owns_data = 1;
  buffer->dtype = dtype;
  buffer->rank = rank;
  if (rank) memcpy(buffer->shape, shape, sizeof *shape * rank);
  buffer->byte_size = bytes;
  *buffer_out = buffer;
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
  tflaccel_tensor_buffer *buffer = calloc(1, sizeof *buffer);
  if (buffer == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "tensor buffer: out of memory");
  buffer->data = data;
  buffer->owns_data = 0;
  buffer->dtype = dtype;
  buffer->rank = rank;
  if (rank) memcpy(buffer->shape, shape, sizeof *shape * rank);
  buffer->byte_size = bytes;
  *buffer_out = buffer;
  return NULL;
}

void tflaccel_tensor_buffer_destroy(tflaccel_tensor_buffer *buffer) {
  if (buffer == NULL) return;
  if (buffer->owns_data) free(buffer->data);
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

tflaccel_status tflaccel_tensor_buffer_write(tflaccel_tensor_buffer *buffer, const void *data,
                                             size_t size) {
  if (buffer == NULL || (data == NULL && size > 0))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer write: NULL argument");
  if (size != buffer->byte_size)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer write: %zu bytes given, the tensor holds %zu", size,
                                buffer->byte_size);
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
  if (size) memcpy(data, buffer->data, size);
  return NULL;
}
