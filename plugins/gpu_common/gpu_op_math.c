/* Shared shape arithmetic (gpu_op_math.h). */
#include "config.h"

#include <float.h>
#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/gpu_common/gpu_op_math.h"

int gpu_activation_range(int32_t activation, float *low, float *high) {
  switch (activation) {
    case TFLACCEL_ACT_NONE:
      *low = -FLT_MAX;
      *high = FLT_MAX;
      return 1;
    case TFLACCEL_ACT_RELU:
      *low = 0.0f;
      *high = FLT_MAX;
      return 1;
    case TFLACCEL_ACT_RELU_N1_TO_1:
      *low = -1.0f;
      *high = 1.0f;
      return 1;
    case TFLACCEL_ACT_RELU6:
      *low = 0.0f;
      *high = 6.0f;
      return 1;
    default: *low = *high = 0.0f; return 0;
  }
}

int gpu_broadcasts_into(gpu_shape operand, gpu_shape out) {
  return (operand.b == out.b || operand.b == 1) && (operand.h == out.h || operand.h == 1) &&
         (operand.w == out.w || operand.w == 1) && (operand.c == out.c || operand.c == 1);
}

const tflaccel_tensor_desc *gpu_op_input(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op, uint32_t index) {
  if (index >= op->input_count) return NULL;
  uint32_t tensor = op->inputs[index];
  if (tensor == TFLACCEL_NO_TENSOR || tensor >= graph->tensor_count) return NULL;
  return &graph->tensors[tensor];
}

const tflaccel_tensor_desc *gpu_op_output(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op, uint32_t index) {
  if (index >= op->output_count) return NULL;
  uint32_t tensor = op->outputs[index];
  if (tensor == TFLACCEL_NO_TENSOR || tensor >= graph->tensor_count) return NULL;
  return &graph->tensors[tensor];
}

void gpu_tconv_describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        gpu_tconv_shape *shape) {
  memset(shape, 0, sizeof *shape);
  int custom = op->code == TFLACCEL_OP_CUSTOM;
  if (custom) {
    shape->input = 0;
    shape->weights = 1;
    shape->bias = 2;
    shape->padding = op->params->transpose_conv_bias.padding;
    shape->stride_h = op->params->transpose_conv_bias.stride_h;
    shape->stride_w = op->params->transpose_conv_bias.stride_w;
    shape->activation = TFLACCEL_ACT_NONE;
  } else {
    shape->weights = 1;
    shape->input = 2;
    shape->bias = 3;
    shape->padding = op->params->transpose_conv.padding;
    shape->stride_h = op->params->transpose_conv.stride_h;
    shape->stride_w = op->params->transpose_conv.stride_w;
    shape->activation = op->params->transpose_conv.fused_activation;
  }
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, shape->input);
  const tflaccel_tensor_desc *weights = gpu_op_input(graph, op, shape->weights);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input == NULL || weights == NULL || output == NULL || input->rank != 4 ||
      weights->rank != 4 || output->rank != 4 || shape->stride_h < 1 || shape->stride_w < 1)
    return;
  if (custom) {
    shape->pad_top = transpose_conv_bias_total_padding(shape->padding, input->dims[1],
                                                       weights->dims[1], shape->stride_h) /
                     2;
    shape->pad_left = transpose_conv_bias_total_padding(shape->padding, input->dims[2],
                                                        weights->dims[2], shape->stride_w) /
                      2;
  } else {
    shape->pad_top = transpose_conv_padding_before(shape->padding, output->dims[1],
                                                   weights->dims[1], shape->stride_h);
    shape->pad_left = transpose_conv_padding_before(shape->padding, output->dims[2],
                                                    weights->dims[2], shape->stride_w);
  }
}
