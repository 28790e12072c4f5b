/* cpu_xnnpack's device, buffers and executables: the pieces plugin.c wires
 * into the device vtable. The plugin runs partitions through XNNPACK's
 * subgraph API (the distribution's libXNNPACK); what XNNPACK cannot run is
 * left to cpu_ref by the partitioner. */
#ifndef TFLACCEL_CPU_XNNPACK_DEVICE_H
#define TFLACCEL_CPU_XNNPACK_DEVICE_H

#include <pthreadpool.h>

#include "plugins/cpu_common/host_buffer.h"
#include "tflaccel/accelerator.h"

/* Thread pools by thread count, created on first use and kept until the
 * device goes (executables are destroyed before their device). */
#define XNNP_MAX_POOLS 8

typedef struct xnnp_pool_slot {
  int32_t thread_count;
  pthreadpool_t pool;
} xnnp_pool_slot;

typedef struct xnnp_device {
  HOST_DEVICE_FIELDS; /* first: plugins/cpu_common/host_buffer.h */
  int32_t thread_override; /* the `threads` option, 0 when unset */
  int32_t fp16_supported;  /* the library and CPU run fp16 inference */
  xnnp_pool_slot pools[XNNP_MAX_POOLS];
  uint32_t pool_count;
} xnnp_device;

/* Host memory (plugins/cpu_common/host_buffer.h). XNNPACK may read up to
 * XNN_EXTRA_BYTES past the end of an input, so buffers made here carry that
 * slack (the device's buffer_slack); imported memory may not, and execute()
 * stages such inputs. */
typedef host_buffer xnnp_buffer;

/* Thread pools (thread_pools.c). NULL with status NULL means "run on the
 * calling thread" (one thread). */
tflaccel_status xnnp_device_pool(xnnp_device *device, int32_t thread_count,
                                 pthreadpool_t *pool);
void xnnp_device_pools_destroy(xnnp_device *device);

/* Op support (op_support.c) and executables (executable.c). */
tflaccel_status xnnp_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                 uint32_t op_index, const tflaccel_compile_options *options,
                                 tflaccel_op_support *support);
tflaccel_status xnnp_compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                             const tflaccel_partition_desc *partition,
                             const tflaccel_compile_options *options,
                             tflaccel_executable **executable);
void xnnp_executable_destroy(tflaccel_device *device, tflaccel_executable *executable);
tflaccel_status xnnp_execute(tflaccel_device *device, tflaccel_executable *executable,
                             const tflaccel_binding *bindings, uint32_t binding_count,
                             tflaccel_event **completion);

#endif
