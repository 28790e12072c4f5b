/* cpu_ref's device, buffers and executables: the pieces of the plugin that
 * plugin.c wires into the device vtable. */
#ifndef TFLACCEL_CPU_REF_DEVICE_H
#define TFLACCEL_CPU_REF_DEVICE_H

#include "plugins/cpu_common/host_buffer.h"
#include "tflaccel/accelerator.h"

typedef struct cpu_device {
  HOST_DEVICE_FIELDS; /* first: plugins/cpu_common/host_buffer.h */
  int32_t thread_override; /* the `threads` option, 0 when unset */
} cpu_device;

/* Buffers: host memory (plugins/cpu_common/host_buffer.h). */
typedef host_buffer cpu_buffer;

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
