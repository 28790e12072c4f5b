/* CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV (and MediaPipe's
 * Convolution2DTransposeBias) and FULLY_CONNECTED: the ops
 * with weights. TFLite's filter layouts are XNNPACK's (OHWI, 1HWC, [out,in]),
 * so the model's weights are handed over as they are. */
#include "config.h"

#include "plugins/cpu_xnnpack/subgraph_build.h"

/* XNNPACK's 8-bit kernels requantize with a scale below 256. */
#define MAX_REQUANTIZATION_SCALE 256.0f

/* What XNNPACK's weighted ops take: constant weights; float everywhere, or
 * quantized int8 (weights per tensor or per channel) / uint8 (per tensor)
 * activations with an int32 bias. */
static int check_types(xnnp_build *build, const tflaccel_op_desc *op,
                       const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *filter,
                       const tflaccel_tensor_desc *bias, const tflaccel_tensor_desc *output) {
  if (input == NULL || filter == NULL || output == NULL)
    return xnnp_fail(build, "%s lacks its input, filter or output", xnnp_op_name(op));
  if (!xnnp_is_constant(filter) || (bias != NULL && !xnnp_is_constant(bias)))
    return xnnp_fail(build, "%s with non-constant weights", xnnp_op_name(op));
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32) {
    if (filter->dtype != TFLACCEL_DTYPE_FLOAT32 || output->dtype != TFLACCEL_DTYPE_FLOAT32 ||
        (bias != NULL && bias->dtype != TFLACCEL_DTYPE_FLOAT32))
      return xnnp_fail(build, "%s: float32 input with %s weights (hybrid) is left to cpu_ref",
                       xnnp_op_name(op), xnnp_dtype_name(filter->dtype));
    return 1;
  }
  if (!xnnp_is_quantized8(input) || !xnnp_is_quantized8(output) ||
      input->dtype != output->dtype || filter->dtype != input->dtype ||
      filter->quantization.count == 0 || (bias != NULL && bias->dtype != TFLACCEL_DTYPE_INT32))
    return xnnp_fail(build, "%s: %s input, %s weights, %s output is not an XNNPACK combination",
                     xnnp_op_name(op), xnnp_dtype_name(input->dtype),
                     xnnp_dtype_name(filter->dtype), xnnp_dtype_name(output->dtype));
  float product = input->quantization.scales[0];
  for (uint32_t i = 0; i < filter->quantization.count; i++) {
    float scale = product * filter->quantization.scales[i] / output->quantization.scales[0];
    if (!(scale < MAX_REQUANTIZATION_SCALE))
      return xnnp_fail(build, "%s: requantization scale %g is beyond XNNPACK's %g",
                       xnnp_op_name(op), (double)scale, (double)MAX_REQUANTIZATION_SCALE);
  }
  return 1;
}

static int define_values(xnnp_build *build, const tflaccel_op_desc *op, uint32_t input_position,
                         uint32_t filter_position, uint32_t bias_position, uint32_t *input,
                         uint32_t *filter, uint32_t *bias, uint32_t *output) {
  *bias = XNN_INVALID_VALUE_ID;
  if (!xnnp_value(build, op->inputs[input_position], input) ||
      !xnnp_value(build, op->inputs[filter_position], filter) ||
      !xnnp_value(build, op->outputs[0], output))
    return 0;
  if (bias_position < op->input_count && op->inputs[bias_position] != TFLACCEL_NO_TENSOR)
    return xnnp_value(build, op->inputs[bias_position], bias);
  return 1;
}

static int rank_is(xnnp_build *build, const tflaccel_op_desc *op,
                   const tflaccel_tensor_desc *tensor, uint32_t rank, const char *what) {
  if (tensor->rank != rank)
    return xnnp_fail(build, "%s: %s has rank %u, not %u", xnnp_op_name(op), what, tensor->rank,
                     rank);
  return 1;
}

static int define_conv_2d(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *filter = xnnp_input(build, op, 1),
                             *bias = xnnp_input(build, op, 2), *output = xnnp_output(build, op, 0);
  if (!check_types(build, op, input, filter, bias, output)) return 0;
  if (!rank_is(build, op, input, 4, "input") || !rank_is(build, op, filter, 4, "filter") ||
      !rank_is(build, op, output, 4, "output"))
    return 0;
  const tflaccel_conv_2d_params *p = &op->params->conv_2d;
  int32_t input_channels = input->dims[3], group_input_channels = filter->dims[3];
  if (group_input_channels <= 0 || input_channels % group_input_channels != 0)
    return xnnp_fail(build, "CONV_2D: %d input channels, filter takes %d", input_channels,
                     group_input_channels);
  uint32_t groups = (uint32_t)(input_channels / group_input_channels);
  if (filter->dims[0] % (int32_t)groups != 0)
    return xnnp_fail(build, "CONV_2D: %d output channels in %u groups", filter->dims[0], groups);
  float output_min, output_max;
  if (!xnnp_activation_range(build, p->fused_activation, &output_min, &output_max)) return 0;
  uint32_t top, bottom, left, right;
  xnnp_padding(p->padding, input->dims[1], output->dims[1], p->stride_h, filter->dims[1],
               p->dilation_h, &top, &bottom);
  xnnp_padding(p->padding, input->dims[2], output->dims[2], p->stride_w, filter->dims[2],
               p->dilation_w, &left, &right);
  uint32_t in, weights, b, out;
  if (!define_values(build, op, 0, 1, 2, &in, &weights, &b, &out)) return 0;
  enum xnn_status status = xnn_define_convolution_2d(
      build->subgraph, top, right, bottom, left, (uint32_t)filter->dims[1],
      (uint32_t)filter->dims[2], (uint32_t)p->stride_h, (uint32_t)p->stride_w,
      (uint32_t)p->dilation_h, (uint32_t)p->dilation_w, groups, (size_t)group_input_channels,
      (size_t)filter->dims[0] / groups, output_min, output_max, in, weights, b, out, 0);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this CONV_2D (status %d)", (int)status);
  return 1;
}

static int define_depthwise_conv_2d(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *filter = xnnp_input(build, op, 1),
                             *bias = xnnp_input(build, op, 2), *output = xnnp_output(build, op, 0);
  if (!check_types(build, op, input, filter, bias, output)) return 0;
  if (!rank_is(build, op, input, 4, "input") || !rank_is(build, op, filter, 4, "filter") ||
      !rank_is(build, op, output, 4, "output"))
    return 0;
  const tflaccel_depthwise_conv_2d_params *p = &op->params->depthwise_conv_2d;
  int32_t input_channels = input->dims[3], output_channels = filter->dims[3];
  if (filter->dims[0] != 1 || input_channels <= 0 || output_channels % input_channels != 0 ||
      output->dims[3] != output_channels)
    return xnnp_fail(build, "DEPTHWISE_CONV_2D: filter [%d,..,%d] for %d input channels",
                     filter->dims[0], output_channels, input_channels);
  float output_min, output_max;
  if (!xnnp_activation_range(build, p->fused_activation, &output_min, &output_max)) return 0;
  uint32_t top, bottom, left, right;
  xnnp_padding(p->padding, input->dims[1], output->dims[1], p->stride_h, filter->dims[1],
               p->dilation_h, &top, &bottom);
  xnnp_padding(p->padding, input->dims[2], output->dims[2], p->stride_w, filter->dims[2],
               p->dilation_w, &left, &right);
  uint32_t in, weights, b, out;
  if (!define_values(build, op, 0, 1, 2, &in, &weights, &b, &out)) return 0;
  enum xnn_status status = xnn_define_depthwise_convolution_2d(
      build->subgraph, top, right, bottom, left, (uint32_t)filter->dims[1],
      (uint32_t)filter->dims[2], (uint32_t)p->stride_h, (uint32_t)p->stride_w,
      (uint32_t)p->dilation_h, (uint32_t)p->dilation_w,
      (uint32_t)(output_channels / input_channels), (size_t)input_channels, output_min,
      output_max, in, weights, b, out, 0);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this DEPTHWISE_CONV_2D (status %d)", (int)status);
  return 1;
}

/* TFLite's TRANSPOSE_CONV: inputs output_shape, weights [O,KH,KW,I], input,
 * optional bias. XNNPACK's deconvolution takes explicit padding plus an
 * adjustment that makes its output size TFLite's. */
static int deconvolution_padding(xnnp_build *build, int32_t padding, int32_t input,
                                 int32_t output, int32_t stride, int32_t kernel,
                                 uint32_t *before, uint32_t *after, uint32_t *adjustment) {
  *adjustment = 0;
  int64_t full = (int64_t)(input - 1) * stride + kernel;
  int64_t total = padding == TFLACCEL_PADDING_SAME && full > output ? full - output : 0;
  *before = (uint32_t)(total / 2);
  *after = (uint32_t)(total - total / 2);
  int64_t adjust = output - (full - total);
  if (adjust < 0 || adjust >= stride)
    return xnnp_fail(build, "transposed convolution: output size %d is not reachable from %d",
                     output, input);
  *adjustment = (uint32_t)adjust;
  return 1;
}

/* TFLite's TRANSPOSE_CONV (inputs output_shape, weights, input, bias) and
 * MediaPipe's Convolution2DTransposeBias (input, weights, bias) are one
 * deconvolution with their inputs in different places. */
static int define_transpose_conv(xnnp_build *build, const tflaccel_op_desc *op) {
  int mediapipe = op->code == TFLACCEL_OP_CUSTOM;
  uint32_t input_position = mediapipe ? 0 : 2, bias_position = mediapipe ? 2 : 3;
  const tflaccel_tensor_desc *input = xnnp_input(build, op, input_position),
                             *filter = xnnp_input(build, op, 1),
                             *bias = xnnp_input(build, op, bias_position),
                             *output = xnnp_output(build, op, 0);
  if (!check_types(build, op, input, filter, bias, output)) return 0;
  if (!rank_is(build, op, input, 4, "input") || !rank_is(build, op, filter, 4, "filter") ||
      !rank_is(build, op, output, 4, "output"))
    return 0;
  int32_t padding, stride_w, stride_h, activation = TFLACCEL_ACT_NONE;
  if (mediapipe) {
    const tflaccel_transpose_conv_bias_params *p = &op->params->transpose_conv_bias;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
  } else {
    const tflaccel_transpose_conv_params *p = &op->params->transpose_conv;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
    activation = p->fused_activation;
  }
  if (stride_w < 1 || stride_h < 1)
    return xnnp_fail(build, "%s: stride %dx%d", xnnp_op_name(op), stride_h, stride_w);
  if (filter->dims[3] != input->dims[3] || filter->dims[0] != output->dims[3])
    return xnnp_fail(build, "%s: filter channels do not match input and output",
                     xnnp_op_name(op));
  float output_min, output_max;
  if (!xnnp_activation_range(build, activation, &output_min, &output_max)) return 0;
  uint32_t top, bottom, left, right, adjust_h, adjust_w;
  if (!deconvolution_padding(build, padding, input->dims[1], output->dims[1], stride_h,
                             filter->dims[1], &top, &bottom, &adjust_h) ||
      !deconvolution_padding(build, padding, input->dims[2], output->dims[2], stride_w,
                             filter->dims[2], &left, &right, &adjust_w))
    return 0;
  uint32_t in, weights, b, out;
  if (!define_values(build, op, input_position, 1, bias_position, &in, &weights, &b, &out))
    return 0;
  enum xnn_status status = xnn_define_deconvolution_2d(
      build->subgraph, top, right, bottom, left, adjust_h, adjust_w, (uint32_t)filter->dims[1],
      (uint32_t)filter->dims[2], (uint32_t)stride_h, (uint32_t)stride_w, 1, 1, 1,
      (size_t)input->dims[3], (size_t)output->dims[3], output_min, output_max, in, weights, b,
      out, 0);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
  return 1;
}

static int define_fully_connected(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *filter = xnnp_input(build, op, 1),
                             *bias = xnnp_input(build, op, 2), *output = xnnp_output(build, op, 0);
  if (!check_types(build, op, input, filter, bias, output)) return 0;
  const tflaccel_fully_connected_params *p = &op->params->fully_connected;
  if (p->weights_format != 0)
    return xnnp_fail(build, "FULLY_CONNECTED with shuffled weights is left to cpu_ref");
  if (filter->rank != 2 || input->rank < 1 || output->rank < 1 ||
      input->dims[input->rank - 1] != filter->dims[1] ||
      output->dims[output->rank - 1] != filter->dims[0])
    return xnnp_fail(build, "FULLY_CONNECTED: shapes are not [..,K] x [N,K] -> [..,N]");
  /* Same rank: XNNPACK keeps the leading dims; otherwise TFLite flattened
   * them to [batch, N]. */
  uint32_t flags = 0;
  if (output->rank != input->rank) {
    if (output->rank != 2)
      return xnnp_fail(build, "FULLY_CONNECTED: rank %u input to rank %u output", input->rank,
                       output->rank);
    flags = XNN_FLAG_TENSORFLOW_RESHAPE_2D;
  }
  float output_min, output_max;
  if (!xnnp_activation_range(build, p->fused_activation, &output_min, &output_max)) return 0;
  uint32_t in, weights, b, out;
  if (!define_values(build, op, 0, 1, 2, &in, &weights, &b, &out)) return 0;
  enum xnn_status status = xnn_define_fully_connected(build->subgraph, output_min, output_max, in,
                                                      weights, b, out, flags);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this FULLY_CONNECTED (status %d)", (int)status);
  return 1;
}

int xnnp_define_convolution(xnnp_build *build, const tflaccel_op_desc *op) {
  switch (op->code) {
    case TFLACCEL_OP_CONV_2D:
      return define_conv_2d(build, op);
    case TFLACCEL_OP_DEPTHWISE_CONV_2D:
      return define_depthwise_conv_2d(build, op);
    case TFLACCEL_OP_TRANSPOSE_CONV:
    case TFLACCEL_OP_CUSTOM: /* Convolution2DTransposeBias, per op_table.c */
      return define_transpose_conv(build, op);
    case TFLACCEL_OP_FULLY_CONNECTED:
      return define_fully_connected(build, op);
    default:
      return xnnp_fail(build, "%s is not a convolution", xnnp_op_name(op));
  }
}
