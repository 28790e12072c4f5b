/* Which elementwise ops a dispatch applies as post-ops, and their codes in
 * the kernels (gpu_kernel_catalog.h): read both by the elementwise op
 * builder (ops/elementwise.c) and by the fusion of elementwise consumers
 * into their producer's dispatch (gpu_emit.c). */
#ifndef TFLACCEL_GPU_COMMON_GPU_POST_OP_H
#define TFLACCEL_GPU_COMMON_GPU_POST_OP_H

#include <stdint.h>

/* The post-op code (gpu_unary_code, gpu_binary_code) of an elementwise op
 * code, 0 when it has none. */
int32_t gpu_post_unary_code(int32_t op_code);
int32_t gpu_post_binary_code(int32_t op_code);

#endif
