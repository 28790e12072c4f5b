/* cpu_xnnpack buffers: host memory with XNN_EXTRA_BYTES of readable slack. */
#include "config.h"

#include <string.h>

#include <xnnpack.h>

#include "plugins/cpu_xnnpack/xnn_device.h"

#define BUFFER_ALIGNMENT 64

static const tflaccel_host_services *device_host(tflaccel_device *device) {
  return ((xnnp_device *)device)->host;
}

/* offset + size within a buffer of buffer_size bytes, without overflow. */
static int range_fits(uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return offset <= buffer_size && size <= buffer_size - offset;
}

static tflaccel_status out_of_range(const tflaccel_host_services *host, const char *what,
                                    uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                           "cpu_xnnpack %s: bytes [%llu, +%llu) are outside the %llu-byte buffer",
                           what, (unsigned long long)offset, (unsigned long long)size,
                           (unsigned long long)buffer_size);
}

tflaccel_status xnnp_buffer_create(tflaccel_device *device, uint64_t size,
                                  tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  *buffer_out = NULL;
  if (size > (uint64_t)SIZE_MAX - BUFFER_ALIGNMENT - XNN_EXTRA_BYTES)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: a %llu-byte buffer is too large",
                             (unsigned long long)size);
  xnnp_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory for a buffer");
  buffer->data = host->alloc(host->context, (size_t)size + XNN_EXTRA_BYTES, BUFFER_ALIGNMENT);
  if (buffer->data == NULL) {
    host->free(host->context, buffer);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "cpu_xnnpack: no memory for a %llu-byte buffer",
                             (unsigned long long)size);
  }
  buffer->size = size;
  buffer->slack = XNN_EXTRA_BYTES;
  buffer->owned = 1;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

void xnnp_buffer_destroy(tflaccel_device *device, tflaccel_buffer *handle) {
  if (handle == NULL) return;
  const tflaccel_host_services *host = device_host(device);
  xnnp_buffer *buffer = (xnnp_buffer *)handle;
  if (buffer->owned) host->free(host->context, buffer->data);
  host->free(host->context, buffer);
}

tflaccel_status xnnp_buffer_write(tflaccel_device *device, tflaccel_buffer *handle,
                                 uint64_t offset, const void *source, uint64_t size) {
  xnnp_buffer *buffer = (xnnp_buffer *)handle;
  if (buffer == NULL || (source == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_xnnpack buffer_write: NULL buffer or source");
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device_host(device), "buffer_write", offset, size, buffer->size);
  if (size > 0) memcpy(buffer->data + offset, source, (size_t)size);
  return NULL;
}

tflaccel_status xnnp_buffer_read(tflaccel_device *device, tflaccel_buffer *handle, uint64_t offset,
                                void *destination, uint64_t size) {
  xnnp_buffer *buffer = (xnnp_buffer *)handle;
  if (buffer == NULL || (destination == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_xnnpack buffer_read: NULL buffer or destination");
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device_host(device), "buffer_read", offset, size, buffer->size);
  if (size > 0) memcpy(destination, buffer->data + offset, (size_t)size);
  return NULL;
}

void *xnnp_buffer_map(tflaccel_device *device, tflaccel_buffer *handle) {
  (void)device;
  return handle != NULL ? ((xnnp_buffer *)handle)->data : NULL;
}

tflaccel_status xnnp_buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                  uint64_t size, tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  *buffer_out = NULL;
  if (type != TFLACCEL_EXTERNAL_HOST_POINTER)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "cpu_xnnpack imports host pointers only, not external buffer type %d",
                             type);
  if (handle == NULL && size > 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_xnnpack buffer_import: NULL pointer");
  xnnp_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory for a buffer");
  buffer->data = handle;
  buffer->size = size;
  buffer->slack = 0;
  buffer->owned = 0;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

tflaccel_status xnnp_buffer_copy(tflaccel_device *device, tflaccel_buffer *destination_handle,
                                uint64_t destination_offset, tflaccel_buffer *source_handle,
                                uint64_t source_offset, uint64_t size) {
  xnnp_buffer *destination = (xnnp_buffer *)destination_handle;
  xnnp_buffer *source = (xnnp_buffer *)source_handle;
  if (destination == NULL || source == NULL)
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_xnnpack buffer_copy: NULL buffer");
  if (!range_fits(source_offset, size, source->size))
    return out_of_range(device_host(device), "buffer_copy source", source_offset, size,
                        source->size);
  if (!range_fits(destination_offset, size, destination->size))
    return out_of_range(device_host(device), "buffer_copy destination", destination_offset,
                        size, destination->size);
  /* memmove: both ranges may lie in the same buffer. */
  if (size > 0)
    memmove(destination->data + destination_offset, source->data + source_offset, (size_t)size);
  return NULL;
}
