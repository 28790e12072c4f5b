/* TRANSPOSE: a box gather that walks the whole input in the permuted dim
 * order (gpu_box_gather's K[18..23)), so one kernel serves slicing,
 * reshaping and permuting, and the channel-slice layout is handled lane by
 * lane there. */
#include "config.h"

#include <stdio.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The permutation of the 4-D views (gpu_layout.h pads shapes with leading
 * 1s): output dim k reads input dim perm4[k]. 0 (with a reason) when the
 * perm tensor is not a permutation of the input's dims. */
static int permutation_of(const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *perm,
                          int32_t perm4[GPU_MAX_RANK], char *why, size_t why_size) {
  uint32_t rank = input->rank;
  if (!gpu_tensor_is_index_constant(perm) || perm->rank != 1 ||
      perm->dims[0] != (int32_t)rank) {
    snprintf(why, why_size, "TRANSPOSE perm must be a constant int32/int64 vector of %u entries",
             rank);
    return 0;
  }
  uint32_t first = GPU_MAX_RANK - rank, seen = 0;
  for (uint32_t k = 0; k < first; ++k) perm4[k] = (int32_t)k;
  for (uint32_t k = 0; k < rank; ++k) {
    int64_t from = gpu_index_value(perm, k);
    if (from < 0) from += rank; /* TFLite accepts perm entries counted from the end */
    if (from < 0 || from >= (int64_t)rank || (seen >> from) & 1u) {
      snprintf(why, why_size, "TRANSPOSE perm is not a permutation of %u dims", rank);
      return 0;
    }
    seen |= 1u << from;
    perm4[first + k] = (int32_t)(first + from);
  }
  return 1;
}

static int check_transpose(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *perm = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  int32_t perm4[GPU_MAX_RANK];
  char why[TFLACCEL_REASON_SIZE];
  if (!permutation_of(input, perm, perm4, why, sizeof why)) return gpu_decline(check, "%s", why);
  if (output->rank != input->rank)
    return gpu_decline(check, "TRANSPOSE output rank differs from the input's");
  uint32_t first = GPU_MAX_RANK - input->rank;
  for (uint32_t k = 0; k < input->rank; ++k)
    if (output->dims[k] != input->dims[perm4[first + k] - (int32_t)first])
      return gpu_decline(check, "TRANSPOSE output dim %u does not match the permuted input", k);
  return 1;
}

static tflaccel_status lower_transpose(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  int32_t perm4[GPU_MAX_RANK];
  char why[TFLACCEL_REASON_SIZE];
  if (!permutation_of(input, gpu_op_input(lw->graph, op, 1), perm4, why, sizeof why))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED, "%s: %s", lw->backend->plugin_name, why);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t values[23] = {in.b, in.h, in.w, in.c, in.s, 0, 0, 0, 0, 1, 1, 1, 1,
                        in.b, in.h, in.w, in.c, 0 /* lane by lane */, 1, perm4[0], perm4[1],
                        perm4[2], perm4[3]};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_BOX_GATHER, op->inputs[0], values,
                                                sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder transpose_builders[] = {
    {GPU_OP_BUILTIN(TRANSPOSE), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* perm */, .values = GPU_VALUES_FLOAT32_OR_BOOL,
     .supports = check_transpose, .lower = lower_transpose},
};
const gpu_op_family gpu_ops_transpose = {
    transpose_builders, sizeof transpose_builders / sizeof transpose_builders[0]};
