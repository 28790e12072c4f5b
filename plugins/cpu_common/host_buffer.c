/* Host-memory buffers of the CPU plugins (host_buffer.h). */
#include "config.h"

#include <string.h>

#include "plugins/cpu_common/host_buffer.h"

#define BUFFER_ALIGNMENT 64

static const host_device *common_of(tflaccel_device *device) { return (const host_device *)device; }

static const tflaccel_host_services *device_host(tflaccel_device *device) {
  return common_of(device)->host;
}

/* offset + size within a buffer of buffer_size bytes, without overflow. */
static int range_fits(uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return offset <= buffer_size && size <= buffer_size - offset;
}

static tflaccel_status out_of_range(tflaccel_device *device, const char *what, uint64_t offset,
                                    uint64_t size, uint64_t buffer_size) {
  return device_host(device)->status_make(
      TFLACCEL_INVALID_ARGUMENT, "%s %s: bytes [%llu, +%llu) are outside the %llu-byte buffer",
      common_of(device)->plugin_name, what, (unsigned long long)offset, (unsigned long long)size,
      (unsigned long long)buffer_size);
}

tflaccel_status host_buffer_create(tflaccel_device *device, uint64_t size,
                                   tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  const char *plugin = common_of(device)->plugin_name;
  uint64_t slack = common_of(device)->buffer_slack;
  *buffer_out = NULL;
  if (size > (uint64_t)SIZE_MAX - BUFFER_ALIGNMENT - slack)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: a %llu-byte buffer is too large", plugin,
                             (unsigned long long)size);
  host_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: no memory for a buffer", plugin);
  buffer->data = host->alloc(host->context, (size_t)(size + slack), BUFFER_ALIGNMENT);
  if (buffer->data == NULL) {
    host->free(host->context, buffer);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: no memory for a %llu-byte buffer", plugin,
                             (unsigned long long)size);
  }
  buffer->size = size;
  buffer->slack = slack;
  buffer->owned = 1;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

void host_buffer_destroy(tflaccel_device *device, tflaccel_buffer *handle) {
  if (handle == NULL) return;
  const tflaccel_host_services *host = device_host(device);
  host_buffer *buffer = (host_buffer *)handle;
  if (buffer->owned) host->free(host->context, buffer->data);
  host->free(host->context, buffer);
}

tflaccel_status host_buffer_write(tflaccel_device *device, tflaccel_buffer *handle, uint64_t offset,
                                  const void *source, uint64_t size) {
  host_buffer *buffer = (host_buffer *)handle;
  if (buffer == NULL || (source == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "%s buffer_write: NULL buffer or source",
                                            common_of(device)->plugin_name);
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device, "buffer_write", offset, size, buffer->size);
  if (size > 0) memcpy(buffer->data + offset, source, (size_t)size);
  return NULL;
}

tflaccel_status host_buffer_read(tflaccel_device *device, tflaccel_buffer *handle, uint64_t offset,
                                 void *destination, uint64_t size) {
  host_buffer *buffer = (host_buffer *)handle;
  if (buffer == NULL || (destination == NULL && size > 0))
    return device_host(device)->status_make(TFLACCEL_INVALID_ARGUMENT,
                                            "%s buffer_read: NULL buffer or destination",
                                            common_of(device)->plugin_name);
  if (!range_fits(offset, size, buffer->size))
    return out_of_range(device, "buffer_read", offset, size, buffer->size);
  if (size > 0) memcpy(destination, buffer->data + offset, (size_t)size);
  return NULL;
}

void *host_buffer_map(tflaccel_device *device, tflaccel_buffer *handle) {
  (void)device;
  return handle != NULL ? ((host_buffer *)handle)->data : NULL;
}

tflaccel_status host_buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                   uint64_t size, tflaccel_buffer **buffer_out) {
  const tflaccel_host_services *host = device_host(device);
  const char *plugin = common_of(device)->plugin_name;
  *buffer_out = NULL;
  if (type != TFLACCEL_EXTERNAL_HOST_POINTER)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "%s imports host pointers only, not external buffer type %d", plugin,
                             type);
  if (handle == NULL && size > 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s buffer_import: NULL pointer", plugin);
  host_buffer *buffer = host->alloc(host->context, sizeof *buffer, 0);
  if (buffer == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: no memory for a buffer", plugin);
  buffer->data = handle;
  buffer->size = size;
  buffer->slack = 0;
  buffer->owned = 0;
  *buffer_out = (tflaccel_buffer *)buffer;
  return NULL;
}

tflaccel_status host_buffer_copy(tflaccel_device *device, tflaccel_buffer *destination_handle,
                                 uint64_t destination_offset, tflaccel_buffer *source_handle,
                                 uint64_t source_offset, uint64_t size) {
  host_buffer *destination = (host_buffer *)destination_handle;
  host_buffer *source = (host_buffer *)source_handle;
  if (destination == NULL || source == NULL)
    return device_host(device)->status_make(
        TFLACCEL_INVALID_ARGUMENT, "%s buffer_copy: NULL buffer", common_of(device)->plugin_name);
  if (!range_fits(source_offset, size, source->size))
    return out_of_range(device, "buffer_copy source", source_offset, size, source->size);
  if (!range_fits(destination_offset, size, destination->size))
    return out_of_range(device, "buffer_copy destination", destination_offset, size,
                        destination->size);
  /* memmove: both ranges may lie in the same buffer. */
  if (size > 0)
    memmove(destination->data + destination_offset, source->data + source_offset, (size_t)size);
  return NULL;
}
