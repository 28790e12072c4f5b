/* TFLite's sliding-window geometry along one spatial axis: output sizes and
 * padding of CONV_2D, DEPTHWISE_CONV_2D, pooling and transposed convolution
 * (facts library). padding is TFLACCEL_PADDING_SAME or _VALID (ops.h).
 *
 * Every function returns -1 for arguments that describe no window: an
 * unknown padding, a negative size, a filter, stride or dilation below 1, or
 * a result beyond int32. A stored dilation of 0 means 1 (the schema's
 * default); callers map it before asking. */
#ifndef TFLACCEL_CORE_FACTS_CONV_GEOMETRY_H
#define TFLACCEL_CORE_FACTS_CONV_GEOMETRY_H

#include <stdint.h>

/* Outputs of a window of `filter` taps `dilation` apart moved by `stride`
 * over `in` inputs: SAME ceil(in / stride); VALID the positions where the
 * dilated filter fits whole, 0 when it does not fit at all. */
int32_t conv_output_size(int32_t padding, int32_t in, int32_t filter, int32_t stride,
                         int32_t dilation);

/* Inputs of padding TFLite puts before the first input so that `out`
 * outputs cover `in` inputs: half the total shortfall, rounded down, 0 when
 * there is none (VALID). out is the output size the op has. */
int32_t conv_padding_before(int32_t in, int32_t out, int32_t filter, int32_t stride,
                            int32_t dilation);

/* TRANSPOSE_CONV (builtin): its padding before is that of the forward
 * convolution from its output size `out` (TFLite's ComputePaddingHeightWidth
 * with the output as input). */
int32_t transpose_conv_padding_before(int32_t padding, int32_t out, int32_t filter,
                                      int32_t stride);

/* Convolution2DTransposeBias (MediaPipe's custom op): total padding of one
 * axis, SAME: max(0, filter - (in - 1) % stride - 1), VALID: 0. in >= 1. */
int32_t transpose_conv_bias_total_padding(int32_t padding, int32_t in, int32_t filter,
                                          int32_t stride);
/* Its output size: stride * (in - 1) + filter - total padding; -1 unless
 * that is at least 1. in >= 1. */
int32_t transpose_conv_bias_output_size(int32_t padding, int32_t in, int32_t filter,
                                        int32_t stride);

#endif
