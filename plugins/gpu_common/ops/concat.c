/* CONCATENATION of up to GPU_MAX_CONCAT_INPUTS tensors in one dispatch. */
#include "config.h"

#include "core/facts/axis.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The most inputs one gpu_concat dispatch reads (its t1..t6). */
#define GPU_MAX_CONCAT_INPUTS 6

static int check_concat(const gpu_support_check *check) {
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, op, 0);
  const tflaccel_concatenation_params *params = &op->params->concatenation;
  if (op->input_count < 1 || op->input_count > GPU_MAX_CONCAT_INPUTS)
    return gpu_decline(check, "CONCATENATION of %u inputs (at most %d)", op->input_count,
                       GPU_MAX_CONCAT_INPUTS);
  int32_t axis = axis_normalize(params->axis, output->rank);
  if (axis < 0)
    return gpu_decline(check, "CONCATENATION axis %d is outside rank %u", (int)params->axis,
                       output->rank);
  if (!gpu_check_activation(check, params->fused_activation)) return 0;
  int64_t total = 0;
  for (uint32_t i = 0; i < op->input_count; ++i) {
    const tflaccel_tensor_desc *input = gpu_op_input(check->graph, op, i);
    if (input == NULL || input->rank != output->rank || input->dtype != output->dtype)
      return gpu_decline(check, "CONCATENATION input %u differs in rank or dtype", i);
    for (uint32_t d = 0; d < output->rank; ++d)
      if ((int32_t)d != axis && input->dims[d] != output->dims[d])
        return gpu_decline(check, "CONCATENATION input %u dim %u differs from the output's", i, d);
    total += input->dims[axis];
  }
  if (total != output->dims[axis])
    return gpu_decline(check, "CONCATENATION inputs do not add up to the output along axis %d",
                       (int)axis);
  return 1;
}

static tflaccel_status lower_concat(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *output = gpu_op_output(lw->graph, op, 0);
  int32_t axis = axis_normalize(op->params->concatenation.axis, output->rank) + GPU_MAX_RANK -
                 (int32_t)output->rank;
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_CONCAT, &d);
  if (status != NULL) return status;
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  k[0] = axis;
  k[1] = (int32_t)op->input_count;
  int32_t start = 0;
  for (uint32_t i = 0; i < op->input_count; ++i) {
    status = lower_bind_input(lw, d, 1 + i, op->inputs[i]);
    if (status != NULL) return status;
    gpu_shape in = lw->tensors[op->inputs[i]].shape;
    int32_t dims[4];
    gpu_shape_dims(in, dims);
    int32_t *slot = k + 2 + 6 * i;
    slot[0] = start;
    slot[1] = dims[axis];
    slot[2] = in.h;
    slot[3] = in.w;
    slot[4] = in.c;
    slot[5] = in.s;
    start += dims[axis];
  }
  lower_add_activation(lw, d, op->params->concatenation.fused_activation);
  return lower_finish(lw, d, 1 + op->input_count, op->outputs[0]);
}

static const gpu_op_builder concat_builders[] = {
    {GPU_OP_BUILTIN(CONCATENATION), .min_inputs = 1, .max_inputs = GPU_OP_ANY_INPUTS, .outputs = 1,
     .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_concat, .lower = lower_concat,
     .int32_values = 1},
};
const gpu_op_family gpu_ops_concat = {concat_builders,
                                      sizeof concat_builders / sizeof concat_builders[0]};
