/* Lowering a partition into a gpu_program: layout, fusion, buffer planning
 * and the dispatch list. */
#ifndef TFLACCEL_GPU_COMMON_GPU_LOWERING_H
#define TFLACCEL_GPU_COMMON_GPU_LOWERING_H

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

/* The storage mode (gpu_storage_mode) a partition is lowered for. */
int32_t gpu_lowering_storage(const gpu_backend *backend, const tflaccel_compile_options *options);

/* Fills program (initialised by this call; release it with
 * gpu_program_release even on failure). */
tflaccel_status gpu_lower_partition(const gpu_backend *backend, const tflaccel_graph_view *graph,
                                    const tflaccel_partition_desc *partition,
                                    const tflaccel_compile_options *options, gpu_program *program);

#endif
