/* The one place that decides how a tensor lies in GPU memory.
 *
 * Layout "BHWC4": a tensor of any rank <= 4 is first seen as 4-D by padding
 * its shape with leading 1s ([C] -> [1,1,1,C], [N,C] -> [1,1,N,C]), then
 * stored as B*H*W pixels of S = ceil(C / 4) slices of 4 channels each, the
 * slices of one pixel adjacent: element (b, y, x, c) is at
 *   (((b * H + y) * W + x) * S + c / 4) * 4 + c % 4.
 * Channels past C in the last slice are kept at zero by every kernel, so a
 * slice can be read whole and multiplied by zero weights safely.
 *
 * This is TFLite's PHWC4 with the slice index innermost instead of
 * outermost: a [B,H,W,C] tensor with C a multiple of 4 then has exactly the
 * dense NHWC layout the core hands over, so float32 partition inputs and
 * outputs with such shapes are bound as they are, with no conversion pass
 * (most tensors of the MediaPipe models). */
#ifndef TFLACCEL_GPU_COMMON_GPU_LAYOUT_H
#define TFLACCEL_GPU_COMMON_GPU_LAYOUT_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

#define GPU_MAX_RANK 4
#define GPU_SLICE 4

typedef struct gpu_shape {
  int32_t b, h, w, c; /* the 4-D view */
  int32_t s;          /* slices: ceil(c / 4) */
} gpu_shape;

/* The 4-D view of dims[0..rank) (rank <= 4). */
gpu_shape gpu_shape_of_dims(uint32_t rank, const int32_t *dims);
gpu_shape gpu_shape_of(const tflaccel_tensor_desc *tensor);

static inline int64_t gpu_shape_pixels(gpu_shape shape) {
  return (int64_t)shape.b * shape.h * shape.w;
}
/* Elements the layout stores, padding included. */
static inline int64_t gpu_shape_stored_elements(gpu_shape shape) {
  return gpu_shape_pixels(shape) * shape.s * GPU_SLICE;
}
static inline int64_t gpu_shape_elements(gpu_shape shape) {
  return gpu_shape_pixels(shape) * shape.c;
}
/* The dense NHWC layout and the slice layout are the same bytes. */
static inline int gpu_shape_is_dense(gpu_shape shape) {
  return shape.c % GPU_SLICE == 0;
}

/* Dims [0..4) of the 4-D view, as an array. */
void gpu_shape_dims(gpu_shape shape, int32_t dims[4]);

#endif
