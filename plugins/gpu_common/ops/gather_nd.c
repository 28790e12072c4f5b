/* GATHER_ND: one gpu_gather_nd dispatch. The params move as they are
 * (float32, bool, the float view of a quantized tensor, or int32 values
 * the bound proof keeps exact: gpu_int_bounds.h); the int32 indices are
 * held as float values like every GPU tensor and clamped into their dim
 * by the kernel. An index is exact where it matters, below its dim: the
 * dims indexed must be within the precision's exact integers, and any
 * larger index (rounded or not) clamps alike; cpu_ref refuses an index
 * outside params at run time, so a valid model never reaches the clamp. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_gather_nd(const gpu_support_check *check) {
  const tflaccel_tensor_desc *params = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *indices = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (params->dtype != output->dtype)
    return gpu_decline(check, "GATHER_ND params and output differ in dtype");
  if (indices->dtype != TFLACCEL_DTYPE_INT32 || indices->quantization.count > 0)
    return gpu_decline(check, "GATHER_ND indices are %s, expected int32 (not quantized)",
                       dtype_name(indices->dtype));
  if (indices->rank < 1 || indices->rank > GPU_MAX_RANK)
    return gpu_decline(check, "GATHER_ND indices have rank %u, expected 1 to %d", indices->rank,
                       GPU_MAX_RANK);
  for (uint32_t d = 0; d < indices->rank; ++d)
    if (indices->dims[d] < 1)
      return gpu_decline(check, "GATHER_ND indices are empty or have an unknown dim");
  if (indices->flags & TFLACCEL_TENSOR_VARIABLE)
    return gpu_decline(check, "GATHER_ND indices are a variable (state) tensor");
  int32_t depth = indices->dims[indices->rank - 1];
  if (depth < 1 || (uint32_t)depth > params->rank)
    return gpu_decline(check, "GATHER_ND index depth %d is not within params rank %u",
                       (int)depth, params->rank);
  int64_t limit = gpu_exact_integer_limit(check->precision);
  for (int32_t k = 0; k < depth; ++k)
    if (params->dims[k] > limit)
      return gpu_decline(check,
                         "GATHER_ND indexes a params dim of %d: GPU tensors hold indices as "
                         "float values, exact in %s only up to %lld",
                         (int)params->dims[k],
                         check->precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32",
                         (long long)limit);
  uint32_t expected_rank = indices->rank - 1 + params->rank - (uint32_t)depth;
  int matches = output->rank == expected_rank;
  for (uint32_t d = 0; matches && d + 1 < indices->rank; ++d)
    matches = output->dims[d] == indices->dims[d];
  for (uint32_t d = (uint32_t)depth; matches && d < params->rank; ++d)
    matches = output->dims[indices->rank - 1 + d - (uint32_t)depth] == params->dims[d];
  if (!matches) return gpu_decline(check, "GATHER_ND output shape does not match the gather");
  return 1;
}

static tflaccel_status lower_gather_nd(gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_GATHER_ND))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED,
                                 "%s: GATHER_ND needs a kernel this backend does not offer",
                                 lw->backend->plugin_name);
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *params = &lw->graph->tensors[op->inputs[0]];
  const tflaccel_tensor_desc *indices = &lw->graph->tensors[op->inputs[1]];
  int32_t depth = indices->dims[indices->rank - 1];
  int32_t inner = 1;
  for (uint32_t d = (uint32_t)depth; d < params->rank; ++d) inner *= params->dims[d];
  int32_t values[14] = {depth, inner};
  int32_t stride = inner;
  for (int32_t k = depth - 1; k >= 0; --k) {
    values[2 + k] = params->dims[k];
    values[6 + k] = stride;
    stride *= params->dims[k];
  }
  gpu_shape p = lw->tensors[op->inputs[0]].shape, i = lw->tensors[op->inputs[1]].shape;
  values[10] = p.c;
  values[11] = p.s;
  values[12] = i.c;
  values[13] = i.s;
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_GATHER_ND, op->inputs[0], values,
                                                sizeof values / sizeof values[0], &d);
  if (status == NULL) status = lower_bind_input(lw, d, 2, op->inputs[1]);
  if (status != NULL) return status;
  return lower_finish(lw, d, 3, op->outputs[0]);
}

static const gpu_op_builder gather_nd_builders[] = {
    {GPU_OP_BUILTIN(GATHER_ND), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .integer_inputs = 1u << 1 /* indices: check_gather_nd owns their rules */,
     .values = GPU_VALUES_FLOAT32_OR_BOOL, .int32_values = 1, .supports = check_gather_nd,
     .lower = lower_gather_nd},
};
const gpu_op_family gpu_ops_gather_nd = {gather_nd_builders,
                                         sizeof gather_nd_builders / sizeof gather_nd_builders[0]};
