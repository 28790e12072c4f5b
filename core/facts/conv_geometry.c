/* Window arithmetic in int64, so that no int32 argument can overflow it;
 * results beyond int32 are refused (-1). */
#include "config.h"

#include "core/facts/conv_geometry.h"
#include "tflaccel/ops.h"

static int valid_padding(int32_t padding) {
  return padding == TFLACCEL_PADDING_SAME || padding == TFLACCEL_PADDING_VALID;
}

static int32_t as_result(int64_t value) {
  return value >= 0 && value <= INT32_MAX ? (int32_t)value : -1;
}

/* (filter - 1) * dilation + 1: at most about 2^62, no overflow. */
static int64_t dilated_filter(int32_t filter, int32_t dilation) {
  return ((int64_t)filter - 1) * dilation + 1;
}

int32_t conv_output_size(int32_t padding, int32_t in, int32_t filter, int32_t stride,
                         int32_t dilation) {
  if (!valid_padding(padding) || in < 0 || filter < 1 || stride < 1 || dilation < 1) return -1;
  if (padding == TFLACCEL_PADDING_SAME) return as_result(((int64_t)in + stride - 1) / stride);
  int64_t dilated = dilated_filter(filter, dilation);
  if (in < dilated) return 0;
  return as_result((in - dilated + stride) / stride);
}

int32_t conv_padding_before(int32_t in, int32_t out, int32_t filter, int32_t stride,
                            int32_t dilation) {
  if (in < 0 || out < 0 || filter < 1 || stride < 1 || dilation < 1) return -1;
  int64_t total = ((int64_t)out - 1) * stride + dilated_filter(filter, dilation) - in;
  return total > 0 ? as_result(total / 2) : 0;
}

int32_t transpose_conv_padding_before(int32_t padding, int32_t out, int32_t filter,
                                      int32_t stride) {
  int32_t forward_out = conv_output_size(padding, out, filter, stride, 1);
  if (forward_out < 0) return -1;
  return conv_padding_before(out, forward_out, filter, stride, 1);
}

int32_t transpose_conv_bias_total_padding(int32_t padding, int32_t in, int32_t filter,
                                          int32_t stride) {
  if (!valid_padding(padding) || in < 1 || filter < 1 || stride < 1) return -1;
  if (padding != TFLACCEL_PADDING_SAME) return 0;
  int32_t total = filter - (in - 1) % stride - 1;
  return total > 0 ? total : 0;
}

int32_t transpose_conv_bias_output_size(int32_t padding, int32_t in, int32_t filter,
                                        int32_t stride) {
  int32_t total = transpose_conv_bias_total_padding(padding, in, filter, stride);
  if (total < 0) return -1;
  int64_t out = (int64_t)stride * (in - 1) + filter - total;
  return out >= 1 ? as_result(out) : -1;
}
