/* TRANSPOSE_CONV and MediaPipe's Convolution2DTransposeBias custom op: one
 * kernel (gpu_transpose_conv2d); gpu_tconv_describe reads either op's
 * parameters. */
#include "config.h"

#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_tconv(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  gpu_tconv_shape shape;
  gpu_tconv_describe(graph, op, &shape);
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, shape.input);
  const tflaccel_tensor_desc *weights = gpu_op_input(graph, op, shape.weights);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, shape.bias);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input == NULL || weights == NULL)
    return gpu_decline(check, "%s needs input and weights", check->name);
  if (op->code == TFLACCEL_OP_CUSTOM && bias == NULL)
    return gpu_decline(check, "%s needs a bias", check->name);
  if (input->rank != 4 || weights->rank != 4 || output->rank != 4)
    return gpu_decline(check, "%s needs 4-D input, weights and output", check->name);
  if (!gpu_check_constant_float(check, weights, "weights", -1)) return 0;
  if (bias != NULL && !gpu_check_constant_float(check, bias, "bias", weights->dims[0])) return 0;
  if (!gpu_check_activation(check, shape.activation)) return 0;
  if (shape.stride_h < 1 || shape.stride_w < 1)
    return gpu_decline(check, "%s: strides must be positive", check->name);
  if (shape.padding != TFLACCEL_PADDING_SAME && shape.padding != TFLACCEL_PADDING_VALID)
    return gpu_decline(check, "%s: unknown padding %d", check->name, (int)shape.padding);
  if (weights->dims[3] != input->dims[3] || output->dims[3] != weights->dims[0] ||
      output->dims[0] != input->dims[0])
    return gpu_decline(check, "%s: weights, input and output channels do not match", check->name);
  if (op->code == TFLACCEL_OP_TRANSPOSE_CONV) {
    const tflaccel_tensor_desc *out_shape = gpu_op_input(graph, op, 0);
    if (out_shape == NULL || out_shape->dtype != TFLACCEL_DTYPE_INT32 ||
        gpu_tensor_element_count(out_shape) != 4)
      return gpu_decline(check, "TRANSPOSE_CONV output_shape must be 4 int32 values");
    if (gpu_tensor_is_constant(out_shape))
      for (int i = 0; i < 4; ++i)
        if (gpu_index_value(out_shape, i) != output->dims[i])
          return gpu_decline(check, "TRANSPOSE_CONV output_shape differs from the output tensor");
  } else {
    if (output->dims[1] != transpose_conv_bias_output_size(shape.padding, input->dims[1],
                                                           weights->dims[1], shape.stride_h) ||
        output->dims[2] != transpose_conv_bias_output_size(shape.padding, input->dims[2],
                                                           weights->dims[2], shape.stride_w))
      return gpu_decline(check, "%s: output size does not follow from input and strides",
                         check->name);
  }
  return 1;
}

static tflaccel_status lower_transpose_conv(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_tconv_shape shape;
  gpu_tconv_describe(lw->graph, op, &shape);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, shape.input);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, shape.weights);
  const tflaccel_tensor_desc *bias = gpu_op_input(lw->graph, op, shape.bias);
  int32_t out_c = weights->dims[0], kh = weights->dims[1], kw = weights->dims[2];
  uint64_t packed, bias_offset;
  tflaccel_status status =
      lower_pack_conv_weights(lw, weights, out_c, kh, kw, weights->dims[3], &packed);
  if (status == NULL) status = lower_pack_bias(lw, bias, out_c, &bias_offset);
  uint32_t d = 0;
  if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_TRANSPOSE_CONV2D, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, op->inputs[shape.input]);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, packed);
  lower_bind_constants(lw, d, 3, bias_offset);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  int32_t values[] = {input->dims[1],
                      input->dims[2],
                      lw->tensors[op->inputs[shape.input]].shape.s,
                      kh,
                      kw,
                      shape.stride_h,
                      shape.stride_w,
                      shape.pad_top,
                      shape.pad_left};
  memcpy(k, values, sizeof values);
  lower_add_activation(lw, d, shape.activation);
  return lower_finish(lw, d, 4, op->outputs[0]);
}

static const gpu_op_builder transpose_conv_builders[] = {
    {GPU_OP_BUILTIN(TRANSPOSE_CONV), .min_inputs = 3, .max_inputs = 4, .outputs = 1,
     .index_inputs = 1u << 0 /* output_shape */, .supports = check_tconv,
     .lower = lower_transpose_conv},
    {.code = TFLACCEL_OP_CUSTOM,
     .custom_code = GPU_CUSTOM_TRANSPOSE_CONV_BIAS,
     .min_inputs = 3,
     .max_inputs = 3,
     .outputs = 1,
     .supports = check_tconv,
     .lower = lower_transpose_conv},
};
const gpu_op_family gpu_ops_transpose_conv = {
    transpose_conv_builders, sizeof transpose_conv_builders / sizeof transpose_conv_builders[0]};
