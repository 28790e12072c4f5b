/* The float view's facts (gpu_quant.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_quant.h"

int gpu_quant_range(int32_t dtype, int32_t *qmin, int32_t *qmax) {
  switch (dtype) {
    case TFLACCEL_DTYPE_UINT8: *qmin = 0, *qmax = 255; return 1;
    case TFLACCEL_DTYPE_INT8: *qmin = -128, *qmax = 127; return 1;
    case TFLACCEL_DTYPE_INT16: *qmin = -32768, *qmax = 32767; return 1;
    default: return 0;
  }
}

static int scale_usable(float scale) { return isfinite(scale) && scale > 0.0f; }

int gpu_is_quantized_activation(const tflaccel_tensor_desc *tensor) {
  int32_t qmin, qmax;
  const tflaccel_quantization *q = &tensor->quantization;
  if (!gpu_quant_range(tensor->dtype, &qmin, &qmax) || q->count != 1 || q->scales == NULL ||
      q->zero_points == NULL)
    return 0;
  return scale_usable(q->scales[0]) && q->zero_points[0] >= qmin && q->zero_points[0] <= qmax;
}

static int64_t element_count(const tflaccel_tensor_desc *tensor) {
  int64_t count = 1;
  for (uint32_t d = 0; d < tensor->rank; ++d) count *= tensor->dims[d];
  return count;
}

/* The scale index of element index: per tensor, per axis, or per element
 * (a 1-D bias whose quantized_dimension names another tensor's axis, as
 * TensorFlow Lite accepts), or -1 when the scales fit none of these. */
static int64_t channel_of(const tflaccel_tensor_desc *tensor, int64_t index) {
  const tflaccel_quantization *q = &tensor->quantization;
  if (q->count == 1) return 0;
  int32_t axis = q->quantized_dimension;
  if (axis >= 0 && (uint32_t)axis < tensor->rank && tensor->dims[axis] == (int64_t)q->count) {
    int64_t inner = 1;
    for (uint32_t d = (uint32_t)axis + 1; d < tensor->rank; ++d) inner *= tensor->dims[d];
    return (index / inner) % tensor->dims[axis];
  }
  if (element_count(tensor) == (int64_t)q->count) return index;
  return -1;
}

int gpu_is_quantized_constant(const tflaccel_tensor_desc *tensor) {
  const tflaccel_quantization *q = &tensor->quantization;
  int32_t dtype = tensor->dtype;
  if (dtype != TFLACCEL_DTYPE_UINT8 && dtype != TFLACCEL_DTYPE_INT8 &&
      dtype != TFLACCEL_DTYPE_INT16 && dtype != TFLACCEL_DTYPE_INT32)
    return 0;
  if (!(tensor->flags & TFLACCEL_TENSOR_CONSTANT) || tensor->data == NULL || q->count == 0 ||
      q->scales == NULL || q->zero_points == NULL)
    return 0;
  if (tensor->data_size < (uint64_t)element_count(tensor) * dtype_size(dtype)) return 0;
  if (channel_of(tensor, 0) < 0) return 0;
  for (uint32_t i = 0; i < q->count; ++i)
    if (!scale_usable(q->scales[i]) && q->scales[i] != 0.0f) return 0;
  return 1;
}

int gpu_is_quantized_int32(const tflaccel_tensor_desc *tensor) {
  const tflaccel_quantization *q = &tensor->quantization;
  return tensor->dtype == TFLACCEL_DTYPE_INT32 && q->count == 1 && q->scales != NULL &&
         q->zero_points != NULL && scale_usable(q->scales[0]) && q->zero_points[0] == 0;
}

void gpu_quantized_int32_grid(const tflaccel_tensor_desc *tensor, int32_t grid[4]) {
  float scale = tensor->quantization.scales[0];
  memcpy(&grid[0], &scale, 4);
  grid[1] = 0;
  grid[2] = INT32_MIN;
  grid[3] = 2147483520; /* 2^31 - 128 */
}

int32_t gpu_dense_kind_of(int32_t dtype) {
  switch (dtype) {
    case TFLACCEL_DTYPE_UINT8: return GPU_DENSE_UINT8;
    case TFLACCEL_DTYPE_INT8: return GPU_DENSE_INT8;
    case TFLACCEL_DTYPE_INT16: return GPU_DENSE_INT16;
    default: return GPU_DENSE_FLOAT32;
  }
}

float gpu_constant_value(const tflaccel_tensor_desc *tensor, int64_t index) {
  const char *data = tensor->data;
  int32_t q;
  switch (tensor->dtype) {
    case TFLACCEL_DTYPE_UINT8: q = ((const uint8_t *)data)[index]; break;
    case TFLACCEL_DTYPE_INT8: q = ((const int8_t *)data)[index]; break;
    case TFLACCEL_DTYPE_INT16: {
      int16_t v;
      memcpy(&v, data + index * 2, 2);
      q = v;
      break;
    }
    case TFLACCEL_DTYPE_INT32: memcpy(&q, data + index * 4, 4); break;
    default: {
      float value;
      memcpy(&value, data + index * 4, 4);
      return value;
    }
  }
  const tflaccel_quantization *quant = &tensor->quantization;
  if (quant->count == 0) return (float)q;
  int64_t channel = channel_of(tensor, index);
  if (channel < 0) channel = 0; /* gpu_is_quantized_constant declined these */
  /* In double, as TFLite's DEQUANTIZE of an int32 bias would round once. */
  return (float)((double)((int64_t)q - quant->zero_points[channel]) * quant->scales[channel]);
}

int gpu_same_quantization(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b) {
  const tflaccel_quantization *qa = &a->quantization, *qb = &b->quantization;
  if (a->dtype != b->dtype || qa->count != qb->count) return 0;
  for (uint32_t i = 0; i < qa->count; ++i)
    if (qa->scales[i] != qb->scales[i] || qa->zero_points[i] != qb->zero_points[i]) return 0;
  return 1;
}
