/* PAD and PADV2 that no consumer reads through (the lowering driver fuses
 * the others into their CONV_2D, DEPTHWISE_CONV_2D or pooling reader). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_pad(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *paddings = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (paddings == NULL || !gpu_tensor_is_index_constant(paddings) || paddings->rank != 2 ||
      paddings->dims[0] != (int32_t)input->rank || paddings->dims[1] != 2)
    return gpu_decline(check, "%s paddings must be a constant int32/int64 [rank, 2] tensor",
                       check->name);
  if (input->rank != output->rank) return gpu_decline(check, "%s changes the rank", check->name);
  for (uint32_t d = 0; d < input->rank; ++d) {
    int64_t before = gpu_index_value(paddings, 2 * d), after = gpu_index_value(paddings, 2 * d + 1);
    if (before < 0 || after < 0) return gpu_decline(check, "%s with negative padding", check->name);
    if (input->dims[d] + before + after != output->dims[d])
      return gpu_decline(check, "%s dim %u does not add up to the output's", check->name, d);
  }
  const tflaccel_tensor_desc *value = gpu_op_input(check->graph, check->op, 2);
  if (value != NULL) {
    if (!gpu_tensor_is_constant(value) || value->dtype != input->dtype ||
        gpu_tensor_element_count(value) != 1)
      return gpu_decline(check, "PADV2 constant_values must be one constant %s value",
                         dtype_name(input->dtype));
  }
  return 1;
}

static tflaccel_status lower_pad(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  const tflaccel_tensor_desc *paddings = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *value = gpu_op_input(lw->graph, op, 2);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t before[GPU_MAX_RANK] = {0};
  uint32_t first = GPU_MAX_RANK - input->rank;
  for (uint32_t d = 0; d < input->rank; ++d)
    before[first + d] = (int32_t)gpu_index_value(paddings, 2 * d);
  float pad_value = 0.0f;
  if (value != NULL) {
    if (value->dtype == TFLACCEL_DTYPE_BOOL)
      pad_value = *(const uint8_t *)value->data ? 1.0f : 0.0f;
    else
      pad_value = gpu_constant_value(value, 0);
  }
  int32_t values[] = {in.b,      in.h,      in.w,      in.c,      in.s,
                      before[0], before[1], before[2], before[3], gpu_float_bits(pad_value)};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_PAD, op->inputs[0], values,
                                                sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder pad_builders[] = {
    {GPU_OP_BUILTIN(PAD), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* paddings */, .values = GPU_VALUES_FLOAT32_OR_BOOL,
     .supports = check_pad, .lower = lower_pad},
    {GPU_OP_BUILTIN(PADV2), .min_inputs = 2, .max_inputs = 3, .outputs = 1,
     .index_inputs = 1u << 1 /* paddings */, .supports = check_pad, .lower = lower_pad},
};
const gpu_op_family gpu_ops_pad = {pad_builders, sizeof pad_builders / sizeof pad_builders[0]};
