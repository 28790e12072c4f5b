/* Element-wise unary ops: activations (RELU family as clamps, LOGISTIC,
 * HARD_SWISH, LEAKY_RELU, ELU, PRELU) and math (ABS, NEG, FLOOR, CEIL, ROUND,
 * SQRT, SQUARE). Float32; the clamps and ELU also on 8-bit quantized data. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

/* RELU family: the clamp range, or 0 when op is not one of them. */
static int clamp_range(int32_t code, float *low, float *high) {
  switch (code) {
    case TFLACCEL_OP_RELU:
      *low = 0.0f, *high = INFINITY;
      return 1;
    case TFLACCEL_OP_RELU6:
      *low = 0.0f, *high = 6.0f;
      return 1;
    case TFLACCEL_OP_RELU_N1_TO_1:
      *low = -1.0f, *high = 1.0f;
      return 1;
    case TFLACCEL_OP_RELU_0_TO_1:
      *low = 0.0f, *high = 1.0f;
      return 1;
    default:
      return 0;
  }
}

/* PReLU: XNNPACK wants a constant slope of shape [C] for the last axis. */
static int define_prelu(xnnp_build *build, const tflaccel_op_desc *op, uint32_t in,
                        uint32_t out) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *slope = xnnp_input(build, op, 1);
  if (slope == NULL || !xnnp_is_constant(slope) || slope->dtype != TFLACCEL_DTYPE_FLOAT32 ||
      input->rank < 1)
    return xnnp_fail(build, "PRELU needs a constant float32 slope");
  int32_t channels = input->dims[input->rank - 1];
  uint64_t slope_count = 1;
  for (uint32_t i = 0; i < slope->rank; i++) slope_count *= (uint64_t)slope->dims[i];
  if (slope->rank < 1 || slope->dims[slope->rank - 1] != channels ||
      slope_count != (uint64_t)channels)
    return xnnp_fail(build, "PRELU: the slope is not one value per channel");
  size_t dims[1] = {(size_t)channels};
  uint32_t slope_id;
  if (!xnnp_constant_value_as(build, op->inputs[1], 1, dims, &slope_id)) return 0;
  enum xnn_status status = xnn_define_prelu(build->subgraph, in, slope_id, out, 0);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this PRELU (status %d)", (int)status);
  return 1;
}

int xnnp_define_unary(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *output = xnnp_output(build, op, 0);
  if (input == NULL || output == NULL)
    return xnnp_fail(build, "%s lacks its input or output", xnnp_op_name(op));
  float low = 0.0f, high = 0.0f;
  int is_clamp = clamp_range(op->code, &low, &high);
  int is_float = input->dtype == TFLACCEL_DTYPE_FLOAT32 && output->dtype == TFLACCEL_DTYPE_FLOAT32;
  int quantized_ok = (is_clamp && xnnp_is_quantized8(input) && xnnp_same_type(input, output)) ||
                     (op->code == TFLACCEL_OP_ELU && input->dtype == TFLACCEL_DTYPE_INT8 &&
                      xnnp_is_quantized8(input) && xnnp_is_quantized8(output) &&
                      output->dtype == TFLACCEL_DTYPE_INT8);
  if (!is_float && !quantized_ok)
    return xnnp_fail(build, "%s on %s is left to cpu_ref", xnnp_op_name(op),
                     xnnp_dtype_name(input->dtype));
  uint32_t in, out;
  if (!xnnp_value(build, op->inputs[0], &in) || !xnnp_value(build, op->outputs[0], &out))
    return 0;
  xnn_subgraph_t s = build->subgraph;
  enum xnn_status status;
  if (is_clamp) {
    status = xnn_define_clamp(s, low, high, in, out, 0);
  } else {
    switch (op->code) {
      case TFLACCEL_OP_LOGISTIC:
        status = xnn_define_sigmoid(s, in, out, 0);
        break;
      case TFLACCEL_OP_HARD_SWISH:
        status = xnn_define_hardswish(s, in, out, 0);
        break;
      case TFLACCEL_OP_LEAKY_RELU:
        status = xnn_define_leaky_relu(s, op->params->leaky_relu.alpha, in, out, 0);
        break;
      case TFLACCEL_OP_ELU:
        status = xnn_define_elu(s, 1.0f, in, out, 0);
        break;
      case TFLACCEL_OP_PRELU:
        return define_prelu(build, op, in, out);
      case TFLACCEL_OP_ABS:
        status = xnn_define_abs(s, in, out, 0);
        break;
      case TFLACCEL_OP_NEG:
        status = xnn_define_negate(s, in, out, 0);
        break;
      case TFLACCEL_OP_FLOOR:
        status = xnn_define_floor(s, in, out, 0);
        break;
      case TFLACCEL_OP_CEIL:
        status = xnn_define_ceiling(s, in, out, 0);
        break;
      case TFLACCEL_OP_ROUND: /* TFLite rounds half to even, as bankers_rounding does */
        status = xnn_define_bankers_rounding(s, in, out, 0);
        break;
      case TFLACCEL_OP_SQRT:
        status = xnn_define_square_root(s, in, out, 0);
        break;
      case TFLACCEL_OP_SQUARE:
        status = xnn_define_square(s, in, out, 0);
        break;
      default:
        return xnnp_fail(build, "%s is not a unary op", xnnp_op_name(op));
    }
  }
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
  return 1;
}
