/* Lowering of elementwise ops that no producer absorbed: the input is read
 * as the dispatch's main operand and the op itself becomes its first
 * post-op, so further elementwise consumers chain after it. */
#include "config.h"

#include "plugins/gpu_common/gpu_lowering_internal.h"
#include "plugins/gpu_common/gpu_op_math.h"

static int32_t unary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_RELU: return GPU_UNARY_RELU;
    case TFLACCEL_OP_RELU6: return GPU_UNARY_RELU6;
    case TFLACCEL_OP_RELU_N1_TO_1: return GPU_UNARY_RELU_N1_TO_1;
    case TFLACCEL_OP_LOGISTIC: return GPU_UNARY_LOGISTIC;
    case TFLACCEL_OP_HARD_SWISH: return GPU_UNARY_HARD_SWISH;
    case TFLACCEL_OP_TANH: return GPU_UNARY_TANH;
    case TFLACCEL_OP_EXP: return GPU_UNARY_EXP;
    case TFLACCEL_OP_LEAKY_RELU: return GPU_UNARY_LEAKY_RELU;
    default: return 0;
  }
}

static int32_t binary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_ADD: return GPU_BINARY_ADD;
    case TFLACCEL_OP_SUB: return GPU_BINARY_SUB;
    case TFLACCEL_OP_MUL: return GPU_BINARY_MUL;
    case TFLACCEL_OP_DIV: return GPU_BINARY_DIV;
    case TFLACCEL_OP_MAXIMUM: return GPU_BINARY_MAXIMUM;
    case TFLACCEL_OP_MINIMUM: return GPU_BINARY_MINIMUM;
    case TFLACCEL_OP_LOGICAL_AND: return GPU_BINARY_LOGICAL_AND;
    default: return 0;
  }
}

tflaccel_status lower_elementwise(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  uint32_t output = op->outputs[0];
  gpu_shape out = lw->tensors[output].shape;
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_ELEMENTWISE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, op->inputs[0]);
  if (status != NULL) return status;
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  lower_operand_strides(lw->tensors[op->inputs[0]].shape, out, k);
  int32_t post[GPU_POST_SIZE] = {0};
  uint32_t next_argument = 2;
  int32_t unary = unary_code(op->code), binary = binary_code(op->code);
  if (unary) {
    post[0] = GPU_POST_UNARY;
    post[1] = unary;
    if (op->code == TFLACCEL_OP_LEAKY_RELU) post[8] = gpu_float_bits(op->params->leaky_relu.alpha);
    lower_add_post(lw, d, post);
  } else if (binary || op->code == TFLACCEL_OP_PRELU) {
    uint32_t other = op->inputs[1];
    status = lower_bind_input(lw, d, 2, other);
    if (status != NULL) return status;
    post[0] = binary ? GPU_POST_BINARY : GPU_POST_PRELU;
    post[1] = binary;
    post[2] = 2;
    lower_operand_strides(lw->tensors[other].shape, out, post + 3);
    lower_add_post(lw, d, post);
    if (binary && binary <= GPU_BINARY_DIV)
      lower_add_activation(lw, d, op->params->arithmetic.fused_activation);
    next_argument = 3;
  } else {
    return lw->host->status_make(TFLACCEL_INTERNAL,
                                 "%s: op code %d reached the elementwise lowering",
                                 lw->backend->plugin_name, (int)op->code);
  }
  return lower_finish(lw, d, next_argument, output);
}
