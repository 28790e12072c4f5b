/* Element-wise binary ops with numpy broadcasting: ADD, SUB, MUL (float32
 * and 8-bit quantized), DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE (float32). */
#include "config.h"

#include <math.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

static int has_quantized_kernel(int32_t code) {
  return code == TFLACCEL_OP_ADD || code == TFLACCEL_OP_SUB || code == TFLACCEL_OP_MUL;
}

static int has_fused_activation(int32_t code) {
  return code == TFLACCEL_OP_ADD || code == TFLACCEL_OP_SUB || code == TFLACCEL_OP_MUL ||
         code == TFLACCEL_OP_DIV;
}

int xnnp_define_binary(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *a = xnnp_input(build, op, 0), *b = xnnp_input(build, op, 1),
                             *output = xnnp_output(build, op, 0);
  if (a == NULL || b == NULL || output == NULL)
    return xnnp_fail(build, "%s lacks an input or its output", xnnp_op_name(op));
  int is_float = a->dtype == TFLACCEL_DTYPE_FLOAT32 && b->dtype == TFLACCEL_DTYPE_FLOAT32 &&
                 output->dtype == TFLACCEL_DTYPE_FLOAT32;
  int is_quantized = xnnp_is_quantized8(a) && xnnp_is_quantized8(b) &&
                     xnnp_is_quantized8(output) && a->dtype == output->dtype &&
                     b->dtype == output->dtype;
  if (!is_float && !(is_quantized && has_quantized_kernel(op->code)))
    return xnnp_fail(build, "%s on %s and %s is left to cpu_ref", xnnp_op_name(op),
                     xnnp_dtype_name(a->dtype), xnnp_dtype_name(b->dtype));
  float output_min = -INFINITY, output_max = INFINITY;
  if (has_fused_activation(op->code) &&
      !xnnp_activation_range(build, op->params->arithmetic.fused_activation, &output_min,
                             &output_max))
    return 0;
  uint32_t x, y, out;
  if (!xnnp_value(build, op->inputs[0], &x) || !xnnp_value(build, op->inputs[1], &y) ||
      !xnnp_value(build, op->outputs[0], &out))
    return 0;
  xnn_subgraph_t s = build->subgraph;
  enum xnn_status status;
  switch (op->code) {
    case TFLACCEL_OP_ADD:
      status = xnn_define_add2(s, output_min, output_max, x, y, out, 0);
      break;
    case TFLACCEL_OP_SUB:
      status = xnn_define_subtract(s, output_min, output_max, x, y, out, 0);
      break;
    case TFLACCEL_OP_MUL:
      status = xnn_define_multiply2(s, output_min, output_max, x, y, out, 0);
      break;
    case TFLACCEL_OP_DIV:
      status = xnn_define_divide(s, output_min, output_max, x, y, out, 0);
      break;
    case TFLACCEL_OP_MAXIMUM:
      status = xnn_define_maximum2(s, x, y, out, 0);
      break;
    case TFLACCEL_OP_MINIMUM:
      status = xnn_define_minimum2(s, x, y, out, 0);
      break;
    case TFLACCEL_OP_SQUARED_DIFFERENCE:
      status = xnn_define_squared_difference(s, x, y, out, 0);
      break;
    default:
      return xnnp_fail(build, "%s is not a binary op", xnnp_op_name(op));
  }
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
  return 1;
}
