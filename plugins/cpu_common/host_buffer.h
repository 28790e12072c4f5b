/* Buffers in host memory, the same for every CPU plugin (cpu_ref,
 * cpu_xnnpack): 64-byte aligned memory the plugin owns, or memory the
 * application lent (imported host pointers). Their functions are the
 * plugins' buffer_* entries of the device vtable, which reach what they need
 * through the device's common first fields (HOST_DEVICE_FIELDS). */
#ifndef TFLACCEL_CPU_COMMON_HOST_BUFFER_H
#define TFLACCEL_CPU_COMMON_HOST_BUFFER_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* The first fields of a CPU plugin's device: the core's device, the host
 * services, the plugin's name for messages, and how many readable bytes the
 * buffers it creates carry past their end (XNNPACK reads up to
 * XNN_EXTRA_BYTES past an input; cpu_ref needs none). */
#define HOST_DEVICE_FIELDS                                                        \
  tflaccel_device base; /* first: the core sees a tflaccel_device */              \
  const tflaccel_host_services *host;                                             \
  const char *plugin_name;                                                        \
  uint64_t buffer_slack

typedef struct host_device {
  HOST_DEVICE_FIELDS;
} host_device;

typedef struct host_buffer {
  unsigned char *data;
  uint64_t size;  /* what the caller asked for */
  uint64_t slack; /* readable bytes after data + size (0 for imported memory) */
  int owned;      /* 0 for imported host pointers */
} host_buffer;

tflaccel_status host_buffer_create(tflaccel_device *device, uint64_t size,
                                   tflaccel_buffer **buffer);
void host_buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer);
tflaccel_status host_buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                  uint64_t offset, const void *source, uint64_t size);
tflaccel_status host_buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                 uint64_t offset, void *destination, uint64_t size);
void *host_buffer_map(tflaccel_device *device, tflaccel_buffer *buffer);
tflaccel_status host_buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                   uint64_t size, tflaccel_buffer **buffer);
tflaccel_status host_buffer_copy(tflaccel_device *device, tflaccel_buffer *destination,
                                 uint64_t destination_offset, tflaccel_buffer *source,
                                 uint64_t source_offset, uint64_t size);

#endif
