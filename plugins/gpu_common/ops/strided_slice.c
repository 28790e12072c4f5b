/* STRIDED_SLICE: the box gpu_slice_plan finds, gathered. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_strided_slice(const gpu_support_check *check) {
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  gpu_slice_box box;
  char why[TFLACCEL_REASON_SIZE];
  if (!gpu_slice_plan(check->graph, check->op, &box, why, sizeof why))
    return gpu_decline(check, "%s", why);
  int matches = box.final_rank == output->rank;
  for (uint32_t d = 0; matches && d < output->rank; ++d)
    matches = box.final_dims[d] == output->dims[d];
  if (!matches) return gpu_decline(check, "STRIDED_SLICE result shape differs from the output's");
  return 1;
}

static tflaccel_status lower_strided_slice(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_slice_box box;
  char reason[TFLACCEL_REASON_SIZE];
  if (!gpu_slice_plan(lw->graph, op, &box, reason, sizeof reason))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED, "%s: %s", lw->backend->plugin_name, reason);
  int32_t start[4] = {0, 0, 0, 0}, stride[4] = {1, 1, 1, 1}, size[4] = {1, 1, 1, 1};
  uint32_t first = GPU_MAX_RANK - box.rank;
  for (uint32_t d = 0; d < box.rank; ++d) {
    start[first + d] = (int32_t)box.start[d];
    stride[first + d] = (int32_t)box.stride[d];
    size[first + d] = (int32_t)box.size[d];
  }
  return lower_box_gather(lw, op->inputs[0], op->outputs[0], start, stride, size);
}

static const gpu_op_builder strided_slice_builders[] = {
    {GPU_OP_BUILTIN(STRIDED_SLICE), .min_inputs = 4, .max_inputs = 4, .outputs = 1,
     .index_inputs = ~1u /* begin, end, strides */, .values = GPU_VALUES_FLOAT32_OR_BOOL,
     .supports = check_strided_slice, .lower = lower_strided_slice},
};
const gpu_op_family gpu_ops_strided_slice = {
    strided_slice_builders, sizeof strided_slice_builders / sizeof strided_slice_builders[0]};
