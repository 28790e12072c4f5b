/* Which builder defines which TFLite op: the list of ops cpu_xnnpack may
 * run. Anything else is refused here and runs on cpu_ref. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

typedef int (*xnnp_define_fn)(xnnp_build *build, const tflaccel_op_desc *op);

/* MediaPipe's custom transposed convolution, which LiteRT's XNNPACK
 * delegate runs too. */
#define MEDIAPIPE_TRANSPOSE_CONV_BIAS "Convolution2DTransposeBias"

static xnnp_define_fn builder_for(const tflaccel_op_desc *op) {
  if (op->code == TFLACCEL_OP_CUSTOM)
    return op->custom_code != NULL && !strcmp(op->custom_code, MEDIAPIPE_TRANSPOSE_CONV_BIAS)
               ? xnnp_define_convolution
               : NULL;
  switch (op->code) {
    case TFLACCEL_OP_CONV_2D:
    case TFLACCEL_OP_DEPTHWISE_CONV_2D:
    case TFLACCEL_OP_TRANSPOSE_CONV:
    case TFLACCEL_OP_FULLY_CONNECTED:
      return xnnp_define_convolution;
    case TFLACCEL_OP_AVERAGE_POOL_2D:
    case TFLACCEL_OP_MAX_POOL_2D:
    case TFLACCEL_OP_MEAN:
      return xnnp_define_pooling;
    case TFLACCEL_OP_ADD:
    case TFLACCEL_OP_SUB:
    case TFLACCEL_OP_MUL:
    case TFLACCEL_OP_DIV:
    case TFLACCEL_OP_MAXIMUM:
    case TFLACCEL_OP_MINIMUM:
    case TFLACCEL_OP_SQUARED_DIFFERENCE:
      return xnnp_define_binary;
    case TFLACCEL_OP_RELU:
    case TFLACCEL_OP_RELU6:
    case TFLACCEL_OP_RELU_N1_TO_1:
    case TFLACCEL_OP_RELU_0_TO_1:
    case TFLACCEL_OP_LOGISTIC:
    case TFLACCEL_OP_HARD_SWISH:
    case TFLACCEL_OP_LEAKY_RELU:
    case TFLACCEL_OP_ELU:
    case TFLACCEL_OP_PRELU:
    case TFLACCEL_OP_ABS:
    case TFLACCEL_OP_NEG:
    case TFLACCEL_OP_FLOOR:
    case TFLACCEL_OP_CEIL:
    case TFLACCEL_OP_ROUND:
    case TFLACCEL_OP_SQRT:
    case TFLACCEL_OP_SQUARE:
      return xnnp_define_unary;
    case TFLACCEL_OP_CONCATENATION:
      return xnnp_define_concatenation;
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_PAD:
    case TFLACCEL_OP_RESIZE_BILINEAR:
    case TFLACCEL_OP_DEPTH_TO_SPACE:
    case TFLACCEL_OP_SOFTMAX:
    case TFLACCEL_OP_QUANTIZE:
    case TFLACCEL_OP_DEQUANTIZE:
      return xnnp_define_data_movement;
    default:
      return NULL;
  }
}

int xnnp_check_op_lists(xnnp_build *build, const tflaccel_op_desc *op) {
  if ((op->input_count > 0 && op->inputs == NULL) || op->output_count != 1 ||
      op->outputs == NULL || op->params == NULL)
    return xnnp_fail(build, "%s: not one output, or its lists are missing", xnnp_op_name(op));
  for (uint32_t i = 0; i < op->input_count; i++)
    if (op->inputs[i] != TFLACCEL_NO_TENSOR && op->inputs[i] >= build->graph->tensor_count)
      return xnnp_fail(build, "%s: input %u names tensor %u, the graph has %u", xnnp_op_name(op),
                       i, op->inputs[i], build->graph->tensor_count);
  if (op->outputs[0] >= build->graph->tensor_count)
    return xnnp_fail(build, "%s: its output is outside the graph", xnnp_op_name(op));
  return 1;
}

int xnnp_op_listed(xnnp_build *build, const tflaccel_op_desc *op) {
  if (builder_for(op) == NULL)
    return xnnp_fail(build, "XNNPACK (this version) has no %s", xnnp_op_name(op));
  return 1;
}

int xnnp_define_op(xnnp_build *build, const tflaccel_op_desc *op) {
  if (!xnnp_op_listed(build, op) || !xnnp_check_op_lists(build, op)) return 0;
  return builder_for(op)(build, op);
}
