/* cpu_ref's device, buffers and executables: the pieces of the plugin that
 * plugin.c wires into the device vtable. */
#ifndef TFLACCEL_CPU_REF_DEVICE_H
#define TFLACCEL_CPU_REF_DEVICE_H

#include "tflaccel/accelerator.h"

typedef struct cpu_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const tflaccel_host_services *host;
  int32_t thread_override; /* the `threads` option, 0 when unset */
} cpu_device;

/* Buffers: host memory, 64-byte aligned, or memory the application lent. */
typedef struct cpu_buffer {
  unsigned char *data;
  uint64_t size;
  int owned; /* 0 for imported host pointers */
} cpu_buffer;

tflaccel_status cpu_buffer_create(tflaccel_device *device, uint64_t size,
                                  tflaccel_buffer **buffer);
void cpu_buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer);
tflaccel_status cpu_buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                 uint64_t offset, const void *source, uint64_t size);
tflaccel_status cpu_buffer_read(tflaccel_device *device, tflaccel_buffer *buffer, uint64_t offset,
                                void *destination, uint64_t size);
void *cpu_buffer_map(tflaccel_device *device, tflaccel_buffer *buffer);
tflaccel_status cpu_buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                  uint64_t size, tflaccel_buffer **buffer);
tflaccel_status cpu_buffer_copy(tflaccel_device *device, tflaccel_buffer *destination,
                                uint64_t destination_offset, tflaccel_buffer *source,
                                uint64_t source_offset, uint64_t size);

/* Executables (executable.c). */
tflaccel_status cpu_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                uint32_t op_index, const tflaccel_compile_options *options,
                                tflaccel_op_support *support);
tflaccel_status cpu_compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                            const tflaccel_partition_desc *partition,
                            const tflaccel_compile_options *options,
                            tflaccel_executable **executable);
void cpu_executable_destroy(tflaccel_device *device, tflaccel_executable *executable);
tflaccel_status cpu_execute(tflaccel_device *device, tflaccel_executable *executable,
                            const tflaccel_binding *bindings, uint32_t binding_count,
                            tflaccel_event **completion);
tflaccel_status cpu_reset_state(tflaccel_device *device, tflaccel_executable *executable);

#endif
