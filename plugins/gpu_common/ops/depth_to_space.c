/* DEPTH_TO_SPACE (gpu_depth_to_space). */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_depth_to_space(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  int32_t block = check->op->params->block_size.block_size;
  if (input->rank != 4 || output->rank != 4)
    return gpu_decline(check, "DEPTH_TO_SPACE needs 4-D input and output");
  if (block < 1 || output->dims[0] != input->dims[0] || output->dims[1] != input->dims[1] * block ||
      output->dims[2] != input->dims[2] * block ||
      (int64_t)input->dims[3] != (int64_t)output->dims[3] * block * block)
    return gpu_decline(check, "DEPTH_TO_SPACE shapes do not match block size %d", (int)block);
  return 1;
}

static tflaccel_status lower_depth_to_space(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t values[] = {in.b, in.h, in.w, in.c, in.s, op->params->block_size.block_size};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_DEPTH_TO_SPACE, op->inputs[0],
                                                values, sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder depth_to_space_builders[] = {
    {GPU_OP_BUILTIN(DEPTH_TO_SPACE), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_depth_to_space,
     .lower = lower_depth_to_space},
};
const gpu_op_family gpu_ops_depth_to_space = {
    depth_to_space_builders, sizeof depth_to_space_builders / sizeof depth_to_space_builders[0]};
