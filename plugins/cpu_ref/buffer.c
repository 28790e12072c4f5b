/* cpu_ref buffers: plain host memory. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/device.h"

#define BUFFER_ALIGNMENT 64

static const tflaccel_host_services *device_host(tflaccel_device *device) {
  return ((cpu_device *)device)->host;
}

/* offset + size within a buffer of buffer_size bytes, without overflow. */
static int range_fits(uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return offset <= buffer_size && size <= buffer_size - offset;
}

static tflaccel_status out_of_range(const tflaccel_host_services *host, const char *what,
                                    uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                           "cpu_ref %s: bytes [%llu, +%llu) are outside the %llu-byte buffer",
                           what, (unsigned long long)offset, (unsigned long long)size,
                           (unsigned long long)buffer_size);
}

tflaccel_status cpu_buffer_create(tflaccel_device *device, uint64_t size,
                                  tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  *buffer_out = NULL;
  if (size > (uint64_t)SIZE_MAX - BUFFER_ALIGNMENT)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: a %llu-byte buffer is too large",
                             (unsigned long long)size);
  cpu_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory for a buffer");
  buffer->data = host->alloc(host->context, (size_t)size, BUFFER_ALIGNMENT);
  if (buffer->data == NULL) {
    host->free(host->context, buffer);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "cpu_ref: no memory for a %llu-byte buffer",
                             (unsigned long long)size);
  }
  buffer->size = size;
  buffer->owned = 1;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

void cpu_buffer_destroy(tflaccel_device *device, tflaccel_buffer *handle) {
  if (handle == NULL) return;
  const tflaccel_host_services *host = device_host(device);
  cpu_buffer *buffer = (cpu_buffer *)handle;
  if (buffer->owned) host->free(host->context, buffer->data);
  host->free(host->context, buffer);
}

tflaccel_status cpu_buffer_write(tflaccel_device *device, tflaccel_buffer *handle,
                                 uint64_t offset, const void *source, uint64_t size) {
  cpu_buffer *buffer = (cpu_buffer *)handle;
  if (buffer == NULL || (source == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_ref buffer_write: NULL buffer or source");
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device_host(device), "buffer_write", offset, size, buffer->size);
  if (size > 0) memcpy(buffer->data + offset, source, (size_t)size);
  return NULL;
}

tflaccel_status cpu_buffer_read(tflaccel_device *device, tflaccel_buffer *handle, uint64_t offset,
                                void *destination, uint64_t size) {
  cpu_buffer *buffer = (cpu_buffer *)handle;
  if (buffer == NULL || (destination == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_ref buffer_read: NULL buffer or destination");
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device_host(device), "buffer_read", offset, size, buffer->size);
  if (size > 0) memcpy(destination, buffer->data + offset, (size_t)size);
  return NULL;
}

void *cpu_buffer_map(tflaccel_device *device, tflaccel_buffer *handle) {
  (void)device;
  return handle != NULL ? ((cpu_buffer *)handle)->data : NULL;
}

tflaccel_status cpu_buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                  uint64_t size, tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  *buffer_out = NULL;
  if (type != TFLACCEL_EXTERNAL_HOST_POINTER)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "cpu_ref imports host pointers only, not external buffer type %d",
                             type);
  if (handle == NULL && size > 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_ref buffer_import: NULL pointer");
  cpu_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory for a buffer");
  buffer->data = handle;
  buffer->size = size;
  buffer->owned = 0;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

tflaccel_status cpu_buffer_copy(tflaccel_device *device, tflaccel_buffer *destination_handle,
                                uint64_t destination_offset, tflaccel_buffer *source_handle,
                                uint64_t source_offset, uint64_t size) {
  cpu_buffer *destination = (cpu_buffer *)destination_handle;
  cpu_buffer *source = (cpu_buffer *)source_handle;
  if (destination == NULL || source == NULL)
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "cpu_ref buffer_copy: NULL buffer");
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
