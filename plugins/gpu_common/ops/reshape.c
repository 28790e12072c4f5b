/* RESHAPE, SQUEEZE and EXPAND_DIMS: a storage alias where the slices stay
 * the same, else a box gather. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The same elements in another shape. */
static int check_reshape(const gpu_support_check *check) {
  if (gpu_tensor_element_count(gpu_op_input(check->graph, check->op, 0)) !=
      gpu_tensor_element_count(gpu_op_output(check->graph, check->op, 0)))
    return gpu_decline(check, "%s changes the element count", check->name);
  return 1;
}

static tflaccel_status lower_reshape(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  uint32_t input = op->inputs[0], output = op->outputs[0];
  lower_tensor *in = &lw->tensors[input], *out = &lw->tensors[output];
  uint32_t root = lower_storage_root(lw, input);
  /* Same channel count: same bytes. Share the storage when the input is
   * internal and the output is not bound as it is (an output converted at
   * the end reads the shared storage). */
  if (in->shape.c == out->shape.c && lw->tensors[root].storage == GPU_BUFFER_ARENA &&
      out->storage == GPU_BUFFER_NONE) {
    out->alias = (int32_t)root;
    out->ready = 1;
    return NULL;
  }
  int32_t start[4] = {0, 0, 0, 0}, stride[4] = {1, 1, 1, 1};
  int32_t size[4] = {in->shape.b, in->shape.h, in->shape.w, in->shape.c};
  return lower_box_gather(lw, input, output, start, stride, size);
}

static const gpu_op_builder reshape_builders[] = {
    {GPU_OP_BUILTIN(RESHAPE), .min_inputs = 1, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* shape */, .values = GPU_VALUES_FLOAT32_OR_BOOL,
     .supports = check_reshape, .lower = lower_reshape,
     .int32_values = 1},
    {GPU_OP_BUILTIN(SQUEEZE), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_reshape, .lower = lower_reshape,
     .int32_values = 1},
    {GPU_OP_BUILTIN(EXPAND_DIMS), .min_inputs = 1, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* axis */, .values = GPU_VALUES_FLOAT32_OR_BOOL,
     .supports = check_reshape, .lower = lower_reshape,
     .int32_values = 1},
};
const gpu_op_family gpu_ops_reshape = {reshape_builders,
                                       sizeof reshape_builders / sizeof reshape_builders[0]};
