/* STRIDED_SLICE with TensorFlow's semantics (begin/end/ellipsis/new-axis/
 * shrink-axis masks, negative indices and strides, offset), reduced to a
 * box over the input: per input dim a start, a stride and a size. */
#ifndef TFLACCEL_GPU_COMMON_GPU_SLICE_H
#define TFLACCEL_GPU_COMMON_GPU_SLICE_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

#define GPU_SLICE_MAX_SPEC 8

typedef struct gpu_slice_box {
  uint32_t rank; /* the input's */
  int64_t start[GPU_SLICE_MAX_SPEC], stride[GPU_SLICE_MAX_SPEC], size[GPU_SLICE_MAX_SPEC];
  uint32_t final_rank; /* the output shape the slice gives */
  int64_t final_dims[2 * GPU_SLICE_MAX_SPEC];
} gpu_slice_box;

/* Plans the op's slice from its constant begin/end/strides; on failure
 * writes a reason (without the plugin name) and returns 0. */
int gpu_slice_plan(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, gpu_slice_box *box,
                   char *reason, size_t reason_size);

/* Element i of a constant int32 or int64 tensor. */
int64_t gpu_index_value(const tflaccel_tensor_desc *tensor, int64_t i);

#endif
