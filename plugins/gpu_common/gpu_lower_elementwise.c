/* Lowering of elementwise ops that no producer absorbed: the input is read
 * as the dispatch's main operand and the op itself becomes its first
 * post-op, so further elementwise consumers chain after it. */
#include "config.h"

#include "plugins/gpu_common/gpu_lowering_internal.h"
#include "plugins/gpu_common/gpu_op_math.h"

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
  int32_t unary = lower_unary_code(op->code), binary = lower_binary_code(op->code);
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
