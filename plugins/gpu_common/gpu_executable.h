/* A compiled partition on a device: the program (gpu_program.h) with its
 * buffers and kernels created through a backend. Shared by every GPU
 * plugin: their compile() and execute() are these two calls. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EXECUTABLE_H
#define TFLACCEL_GPU_COMMON_GPU_EXECUTABLE_H

#include "plugins/gpu_common/gpu_backend.h"
#include "tflaccel/accelerator.h"

typedef struct gpu_executable gpu_executable;

/* Lowers the partition and creates everything it needs on the device:
 * weights are uploaded here, once. Ops the GPU layer declines make it fail
 * with TFLACCEL_UNSUPPORTED and the reason supports_op gives. */
tflaccel_status gpu_executable_create(const gpu_backend *backend, const tflaccel_graph_view *graph,
                                      const tflaccel_partition_desc *partition,
                                      const tflaccel_compile_options *options,
                                      gpu_executable **executable);
void gpu_executable_destroy(gpu_executable *executable);

/* Queues every dispatch after waits (events of the device) and returns
 * with *done, the event of their end (the backend's sequence_submit, which
 * the caller checked is there). */
tflaccel_status gpu_executable_submit(gpu_executable *executable, const tflaccel_binding *bindings,
                                      uint32_t binding_count, tflaccel_event *const *waits,
                                      uint32_t wait_count, tflaccel_event **done);
/* Queues every dispatch, then waits once for all of them. */
tflaccel_status gpu_executable_run(gpu_executable *executable, const tflaccel_binding *bindings,
                                   uint32_t binding_count);

/* Restores the variable tensors to their initial values (gpu_state.h);
 * nothing to do without any. Runs are synchronous, so no run is using
 * them. */
tflaccel_status gpu_executable_reset_state(gpu_executable *executable);

/* Reports every dispatch with its GPU time over the runs so far; nothing
 * unless the backend times dispatches (plugin option profile = 1). The
 * destroy-time log of the times is left out then. */
void gpu_executable_profile(gpu_executable *executable, tflaccel_kernel_time_fn report,
                            void *context);

/* Dispatches one run queues (for benchmarks and tests). */
uint32_t gpu_executable_dispatch_count(const gpu_executable *executable);

#endif
