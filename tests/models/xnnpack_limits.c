#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/models/xnnpack_limits.h"
#include "tflaccel/types.h"

typedef struct xnnpack_limit {
  const char *model;
  uint32_t output;
  double bound;   /* quantized: LSB; float: |error| / max(1, max |reference|) */
  int classifier; /* the top-1 class must be the reference's */
} xnnpack_limit;

/* XNNPACK requantizes in float where TFLite 2.9's integer kernels use fixed
 * point; pose_landmark_lite's output 2 and movenet (quantized inside, float
 * out) differ by summation order and requantization. Each bound is the
 * measured error, which LiteRT 2.3.0's XNNPACK path reproduces exactly. */
static const xnnpack_limit limits[] = {
    {"coral__mobilenet_v1_0.25_128_quant", 0, 6, 1},
    {"coral__tf2_mobilenet_v2_1.0_224_ptq", 0, 6, 1},
    {"tflm__mobilenet_v2_quantized_1x3x224x224", 0, 7, 1},
    {"coral__movenet_single_pose_lightning_ptq", 0, 0.16, 0},
    {"pose_landmark_lite", 2, 1.5e-4, 0},
};

static const xnnpack_limit *find(const char *model, uint32_t output) {
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i)
    if (!strcmp(limits[i].model, model) && limits[i].output == output) return &limits[i];
  return NULL;
}

int xnnpack_limit_applies(const char *model, uint32_t output) {
  return find(model, output) != NULL;
}

static double element(int32_t dtype, const void *data, size_t i) {
  switch (dtype) {
    case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[i];
    case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[i];
    case TFLACCEL_DTYPE_FLOAT32: return ((const float *)data)[i];
    default: return NAN;
  }
}

const char *xnnpack_limit_check(const char *model, uint32_t output, int32_t dtype,
                                const void *ours, const void *reference, size_t count, char *why,
                                size_t why_size) {
  const xnnpack_limit *limit = find(model, output);
  if (limit == NULL || count == 0) {
    snprintf(why, why_size, "no measured XNNPACK limit");
    return why;
  }
  int quantized = dtype == TFLACCEL_DTYPE_UINT8 || dtype == TFLACCEL_DTYPE_INT8;
  double scale = 1.0, worst = 0.0;
  size_t top_ours = 0, top_reference = 0;
  for (size_t i = 0; i < count; ++i) {
    double a = element(dtype, ours, i), b = element(dtype, reference, i);
    if (isnan(a) || isnan(b)) {
      snprintf(why, why_size, "dtype %d is not checked here", dtype);
      return why;
    }
    if (!quantized && fabs(b) > scale) scale = fabs(b);
    if (fabs(a - b) > worst) worst = fabs(a - b);
    if (a > element(dtype, ours, top_ours)) top_ours = i;
    if (b > element(dtype, reference, top_reference)) top_reference = i;
  }
  if (worst > limit->bound * scale) {
    snprintf(why, why_size, "error %.4g is beyond the measured XNNPACK limit %.4g", worst,
             limit->bound * scale);
    return why;
  }
  if (limit->classifier && top_ours != top_reference) {
    snprintf(why, why_size, "top-1 class %zu, the reference's is %zu", top_ours, top_reference);
    return why;
  }
  return NULL;
}

int xnnpack_runs_none_of(const char *model) {
  /* LSTM/SVDF state and int16 activations: no XNNPACK op in this version. */
  static const char *const models[] = {"coral__keras_lstm_mnist_ptq", "tflm__keyword_scrambled",
                                       "tflm__trained_lstm"};
  for (size_t i = 0; i < sizeof models / sizeof models[0]; ++i)
    if (!strcmp(models[i], model)) return 1;
  return 0;
}
