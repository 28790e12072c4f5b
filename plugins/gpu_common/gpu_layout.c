/* The BHWC4 layout (gpu_layout.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_layout.h"

gpu_shape gpu_shape_of_dims(uint32_t rank, const int32_t *dims) {
  int32_t padded[GPU_MAX_RANK] = {1, 1, 1, 1};
  uint32_t first = rank <= GPU_MAX_RANK ? GPU_MAX_RANK - rank : 0;
  for (uint32_t d = first; d < GPU_MAX_RANK; ++d) padded[d] = dims[d - first];
  gpu_shape shape = {padded[0], padded[1], padded[2], padded[3], 0};
  shape.s = (shape.c + GPU_SLICE - 1) / GPU_SLICE;
  return shape;
}

gpu_shape gpu_shape_of(const tflaccel_tensor_desc *tensor) {
  return gpu_shape_of_dims(tensor->rank, tensor->dims);
}

void gpu_shape_dims(gpu_shape shape, int32_t dims[4]) {
  dims[0] = shape.b;
  dims[1] = shape.h;
  dims[2] = shape.w;
  dims[3] = shape.c;
}
