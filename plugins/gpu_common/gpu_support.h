/* Which ops the GPU layer runs, and why not the others: the one query that
 * decides delegation for every GPU plugin, answered from the op builders'
 * rules (gpu_op_builder.h); the lowering in gpu_lowering.h handles exactly
 * what this accepts. */
#ifndef TFLACCEL_GPU_COMMON_GPU_SUPPORT_H
#define TFLACCEL_GPU_COMMON_GPU_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/accelerator.h"

/* 1 when graph->ops[op_index] runs on the GPU layer in precision
 * (tflaccel_precision: the exact integers of int32 values depend on it);
 * else 0 with a one-line reason that names plugin_name (no trailing
 * period). */
int gpu_op_supported(const tflaccel_graph_view *graph, uint32_t op_index, int32_t precision,
                     const char *plugin_name, char *reason, size_t reason_size);

/* gpu_op_supported, except that an op declined in precision only because
 * its int32 values pass that precision's exact integers (fp16: 2048) but
 * which runs in fp32 is supported with *required_precision =
 * TFLACCEL_PRECISION_FP32 (its partition then compiles at fp32), reason
 * saying why; else *required_precision is -1 (the precision asked). */
int gpu_op_supported_at(const tflaccel_graph_view *graph, uint32_t op_index, int32_t precision,
                        const char *plugin_name, char *reason, size_t reason_size,
                        int32_t *required_precision);

#endif
