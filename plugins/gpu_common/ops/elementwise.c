/* The elementwise ops: unary (activations, EXP, SQRT), binary (arithmetic,
 * FLOOR_DIV, MAXIMUM, MINIMUM, LOGICAL_AND) and PRELU, all one kernel
 * whose op is a post-op (gpu_post_op.h). Most are absorbed into their
 * producer's dispatch (lower_finish); the lowering here is for the others: the input
 * is read as the dispatch's main operand and the op itself becomes its
 * first post-op, so further elementwise consumers chain after it. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_post_op.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_binary(const gpu_support_check *check, int has_activation) {
  const tflaccel_tensor_desc *a = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *b = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *out = gpu_op_output(check->graph, check->op, 0);
  if (a->dtype != out->dtype || b->dtype != out->dtype)
    return gpu_decline(check, "%s inputs and output differ in dtype", check->name);
  gpu_shape out_shape = gpu_shape_of(out);
  gpu_shape a_shape = gpu_shape_of(a), b_shape = gpu_shape_of(b);
  if (!gpu_broadcasts_into(a_shape, out_shape) || !gpu_broadcasts_into(b_shape, out_shape))
    return gpu_decline(check, "%s inputs do not broadcast to the output shape", check->name);
  for (int d = 0; d < 4; ++d) {
    int32_t da[4], db[4], dout[4];
    gpu_shape_dims(a_shape, da);
    gpu_shape_dims(b_shape, db);
    gpu_shape_dims(out_shape, dout);
    int32_t expected = da[d] > db[d] ? da[d] : db[d];
    if (expected != dout[d])
      return gpu_decline(check, "%s output dim %d is %d, broadcasting gives %d", check->name, d,
                         (int)dout[d], (int)expected);
  }
  if (has_activation &&
      !gpu_check_activation(check, check->op->params->arithmetic.fused_activation))
    return 0;
  if (check->op->code == TFLACCEL_OP_FLOOR_DIV && a->dtype == TFLACCEL_DTYPE_INT32)
    return gpu_check_int_dividend(check, a);
  return 1;
}

static int check_binary_with_activation(const gpu_support_check *check) {
  return check_binary(check, 1);
}

static int check_binary_without_activation(const gpu_support_check *check) {
  return check_binary(check, 0);
}

static int check_prelu(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *alpha = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (!gpu_check_same_shape(check, input, output, "input and output")) return 0;
  if (!gpu_broadcasts_into(gpu_shape_of(alpha), gpu_shape_of(input)))
    return gpu_decline(check, "PRELU alpha does not broadcast to the input");
  return 1;
}

static int check_unary(const gpu_support_check *check) {
  return gpu_check_same_shape(check, gpu_op_input(check->graph, check->op, 0),
                              gpu_op_output(check->graph, check->op, 0), "input and output");
}

static tflaccel_status lower_elementwise(gpu_lowering *lw, uint32_t position) {
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
  int32_t unary = gpu_post_unary_code(op->code), binary = gpu_post_binary_code(op->code);
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

/* An elementwise op's builder: its name is its code's. */
/* The fields of an elementwise op's builder: its name is its code's. */
#define ELEMENTWISE(op, inputs, check, value_types)                             \
  GPU_OP_BUILTIN(op), .min_inputs = inputs, .max_inputs = inputs, .outputs = 1, \
      .values = value_types, .supports = check, .lower = lower_elementwise

static const gpu_op_builder elementwise_builders[] = {
    {ELEMENTWISE(ADD, 2, check_binary_with_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(SUB, 2, check_binary_with_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(MUL, 2, check_binary_with_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(DIV, 2, check_binary_with_activation, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(MAXIMUM, 2, check_binary_without_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(MINIMUM, 2, check_binary_without_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(LOGICAL_AND, 2, check_binary_without_activation, GPU_VALUES_BOOL)},
    {ELEMENTWISE(FLOOR_DIV, 2, check_binary_without_activation, GPU_VALUES_FLOAT32), .int32_values = 1},
    {ELEMENTWISE(PRELU, 2, check_prelu, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(RELU, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(RELU6, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(RELU_N1_TO_1, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(LOGISTIC, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(HARD_SWISH, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(TANH, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(EXP, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(LEAKY_RELU, 1, check_unary, GPU_VALUES_FLOAT32)},
    {ELEMENTWISE(SQRT, 1, check_unary, GPU_VALUES_FLOAT32)},
};
const gpu_op_family gpu_ops_elementwise = {
    elementwise_builders, sizeof elementwise_builders / sizeof elementwise_builders[0]};
