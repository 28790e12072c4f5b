#include "config.h"

#include <math.h>

#include "core/facts/dtype.h"
#include "core/tflite/quantization_check.h"

/* The zero points a dtype can hold; 0 for dtypes without a range check
 * (floats: a quantized float tensor's parameters only describe it). */
static int zero_point_range(int32_t dtype, int64_t *low, int64_t *high) {
  switch (dtype) {
  case TFLACCEL_DTYPE_INT8: *low = INT8_MIN; *high = INT8_MAX; return 1;
  case TFLACCEL_DTYPE_UINT8: *low = 0; *high = UINT8_MAX; return 1;
  case TFLACCEL_DTYPE_INT16: *low = INT16_MIN; *high = INT16_MAX; return 1;
  case TFLACCEL_DTYPE_UINT16: *low = 0; *high = UINT16_MAX; return 1;
  case TFLACCEL_DTYPE_INT4: *low = -8; *high = 7; return 1;
  default: return 0;
  }
}

tflaccel_status quantization_check(const model_tensor *tensor) {
  const tflaccel_quantization *q = &tensor->quantization;
  if (q->count == 0) return NULL;
  for (uint32_t i = 0; i < q->count; ++i) {
    double scale = q->scales[i];
    if (!isfinite(scale) || !(scale >= QUANTIZATION_MIN_SCALE && scale <= QUANTIZATION_MAX_SCALE))
      return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                  "quantization scale %u (%g) is not a finite number in [%g, %g]",
                                  i, scale, QUANTIZATION_MIN_SCALE, QUANTIZATION_MAX_SCALE);
  }
  int64_t low, high;
  if (zero_point_range(tensor->dtype, &low, &high))
    for (uint32_t i = 0; i < q->count; ++i)
      if (q->zero_points[i] < low || q->zero_points[i] > high)
        return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "quantization zero point %u (%d) is outside the %s range "
                                    "[%lld, %lld]",
                                    i, (int)q->zero_points[i], dtype_name(tensor->dtype),
                                    (long long)low, (long long)high);
  if (q->count == 1) return NULL;
  /* Per-axis: one scale per element along quantized_dimension. Converters
   * copy the filter's axis (3) onto a per-channel bias vector, and TFLite
   * reads such a bias by channel: a rank-1 tensor's one axis is the axis. */
  int32_t axis = q->quantized_dimension;
  if (tensor->rank == 1) axis = 0;
  if (axis < 0 || (uint32_t)axis >= tensor->rank)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "per-axis quantization on dimension %d of a rank-%u tensor", axis,
                                tensor->rank);
  int32_t extent = tensor->shape[axis];
  if (extent != -1 && (uint32_t)extent != q->count)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "per-axis quantization has %u scales, but dimension %d has %d "
                                "elements",
                                q->count, axis, extent);
  return NULL;
}
