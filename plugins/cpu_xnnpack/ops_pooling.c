/* AVERAGE_POOL_2D, MAX_POOL_2D, and MEAN over height and width (XNNPACK's
 * global average pooling). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

/* Global average pooling of op's rank-4 input into its output: [N,1,1,C]
 * directly, or [N,C] through an internal [N,1,1,C] value and a reshape. */
static int define_global_average(xnnp_build *build, const tflaccel_op_desc *op,
                                 int32_t activation) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *output = xnnp_output(build, op, 0);
  float output_min, output_max;
  if (!xnnp_activation_range(build, activation, &output_min, &output_max)) return 0;
  uint32_t in, out;
  if (!xnnp_value(build, op->inputs[0], &in) || !xnnp_value(build, op->outputs[0], &out))
    return 0;
  uint32_t pooled = out;
  if (output->rank != 4) {
    if (output->rank != 2 || output->dims[0] != input->dims[0] ||
        output->dims[1] != input->dims[3])
      return xnnp_fail(build, "%s: output is neither [N,1,1,C] nor [N,C]", xnnp_op_name(op));
    size_t dims[4] = {(size_t)input->dims[0], 1, 1, (size_t)input->dims[3]};
    enum xnn_status defined;
    if (output->dtype == TFLACCEL_DTYPE_FLOAT32)
      defined = xnn_define_tensor_value(build->subgraph, xnn_datatype_fp32, 4, dims, NULL,
                                        XNN_INVALID_VALUE_ID, 0, &pooled);
    else
      defined = xnn_define_quantized_tensor_value(
          build->subgraph,
          output->dtype == TFLACCEL_DTYPE_INT8 ? xnn_datatype_qint8 : xnn_datatype_quint8,
          output->quantization.zero_points ? output->quantization.zero_points[0] : 0,
          output->quantization.scales[0], 4, dims, NULL, XNN_INVALID_VALUE_ID, 0, &pooled);
    if (defined != xnn_status_success)
      return xnnp_fail(build, "XNNPACK rejects the pooled value of %s (status %d)",
                       xnnp_op_name(op), (int)defined);
  }
  enum xnn_status status = xnn_define_global_average_pooling_2d(build->subgraph, output_min,
                                                                output_max, in, pooled, 0);
  if (status == xnn_status_success && pooled != out) {
    size_t shape[2] = {(size_t)output->dims[0], (size_t)output->dims[1]};
    status = xnn_define_static_reshape(build->subgraph, 2, shape, pooled, out, 0);
  }
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
  return 1;
}

static int define_pool_2d(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *output = xnnp_output(build, op, 0);
  if (input == NULL || output == NULL || input->rank != 4 || output->rank != 4)
    return xnnp_fail(build, "%s needs rank-4 input and output", xnnp_op_name(op));
  const tflaccel_pool_2d_params *p = &op->params->pool_2d;
  int is_max = op->code == TFLACCEL_OP_MAX_POOL_2D;
  if (input->dtype != TFLACCEL_DTYPE_FLOAT32 && !xnnp_is_quantized8(input))
    return xnnp_fail(build, "%s on %s is left to cpu_ref", xnnp_op_name(op),
                     xnnp_dtype_name(input->dtype));
  if (!xnnp_same_type(input, output))
    return xnnp_fail(build, "%s changes the tensor type or quantization", xnnp_op_name(op));
  /* A window over the whole input is a global average, which XNNPACK also
   * runs on 8-bit data (its windowed average pooling is float only). */
  if (!is_max && p->padding == TFLACCEL_PADDING_VALID && p->filter_h == input->dims[1] &&
      p->filter_w == input->dims[2] && output->dims[1] == 1 && output->dims[2] == 1)
    return define_global_average(build, op, p->fused_activation);
  if (input->dtype != TFLACCEL_DTYPE_FLOAT32 && !is_max)
    return xnnp_fail(build, "AVERAGE_POOL_2D on %s is left to cpu_ref",
                     xnnp_dtype_name(input->dtype));
  if (p->filter_h == 1 && p->filter_w == 1 && p->stride_h == 1 && p->stride_w == 1) {
    /* A 1x1 window is a copy; XNNPACK refuses a pooling of size 1. */
    return xnnp_fail(build, "%s with a 1x1 window and stride 1 is left to cpu_ref",
                     xnnp_op_name(op));
  }
  float output_min, output_max;
  if (!xnnp_activation_range(build, p->fused_activation, &output_min, &output_max)) return 0;
  uint32_t top, bottom, left, right;
  xnnp_padding(p->padding, input->dims[1], output->dims[1], p->stride_h, p->filter_h, 1, &top,
               &bottom);
  xnnp_padding(p->padding, input->dims[2], output->dims[2], p->stride_w, p->filter_w, 1, &left,
               &right);
  uint32_t in, out;
  if (!xnnp_value(build, op->inputs[0], &in) || !xnnp_value(build, op->outputs[0], &out))
    return 0;
  enum xnn_status status;
  if (is_max)
    status = xnn_define_max_pooling_2d(build->subgraph, top, right, bottom, left,
                                       (uint32_t)p->filter_h, (uint32_t)p->filter_w,
                                       (uint32_t)p->stride_h, (uint32_t)p->stride_w, 1, 1,
                                       output_min, output_max, in, out, 0);
  else
    /* XNNPACK, like TFLite, averages over the pixels inside the input. */
    status = xnn_define_average_pooling_2d(build->subgraph, top, right, bottom, left,
                                           (uint32_t)p->filter_h, (uint32_t)p->filter_w,
                                           (uint32_t)p->stride_h, (uint32_t)p->stride_w,
                                           output_min, output_max, in, out, 0);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
  return 1;
}

/* MEAN over axes {1, 2} of a rank-4 tensor, with or without keep_dims. */
static int define_mean(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *axes = xnnp_input(build, op, 1),
                             *output = xnnp_output(build, op, 0);
  if (input == NULL || axes == NULL || output == NULL || input->rank != 4)
    return xnnp_fail(build, "MEAN: XNNPACK averages rank-4 tensors over height and width only");
  if (!xnnp_is_constant(axes) || axes->dtype != TFLACCEL_DTYPE_INT32 || axes->data == NULL ||
      axes->byte_size != 2 * sizeof(int32_t))
    return xnnp_fail(build, "MEAN: the axes are not two constant int32 values");
  int32_t axis[2];
  memcpy(axis, axes->data, sizeof axis);
  for (int i = 0; i < 2; i++)
    if (axis[i] < 0) axis[i] += 4;
  if (!((axis[0] == 1 && axis[1] == 2) || (axis[0] == 2 && axis[1] == 1)))
    return xnnp_fail(build, "MEAN over axes (%d, %d): XNNPACK averages height and width only",
                     axis[0], axis[1]);
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32 ? output->dtype != TFLACCEL_DTYPE_FLOAT32
                                             : !(xnnp_is_quantized8(input) &&
                                                 xnnp_is_quantized8(output) &&
                                                 input->dtype == output->dtype))
    return xnnp_fail(build, "MEAN on %s is left to cpu_ref", xnnp_dtype_name(input->dtype));
  return define_global_average(build, op, TFLACCEL_ACT_NONE);
}

int xnnp_define_pooling(xnnp_build *build, const tflaccel_op_desc *op) {
  if (op->code == TFLACCEL_OP_MEAN) return define_mean(build, op);
  return define_pool_2d(build, op);
}
