/* PACK and UNPACK: PACK is a CONCATENATION of its inputs, each seen with a
 * dim of 1 inserted at the axis; UNPACK is one box gather per output, each
 * taking index i along the axis. */
#include "config.h"

#include "core/facts/axis.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The most inputs one gpu_concat dispatch reads (its t1..t6). */
#define GPU_MAX_PACK_INPUTS 6

/* dims with a 1 inserted at axis (rank + 1 dims). */
static void insert_unit_dim(const tflaccel_tensor_desc *tensor, int32_t axis, int32_t *dims) {
  uint32_t at = 0;
  for (uint32_t d = 0; d <= tensor->rank; ++d)
    dims[d] = (int32_t)d == axis ? 1 : tensor->dims[at++];
}

static int check_pack(const gpu_support_check *check) {
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *first = gpu_op_input(check->graph, op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, op, 0);
  int32_t axis = axis_normalize(op->params->pack.axis, first->rank + 1);
  if (op->input_count > GPU_MAX_PACK_INPUTS)
    return gpu_decline(check, "PACK of %u inputs (at most %d)", op->input_count,
                       GPU_MAX_PACK_INPUTS);
  if (axis < 0)
    return gpu_decline(check, "PACK axis %d is outside rank %u", (int)op->params->pack.axis,
                       first->rank + 1);
  if (output->rank != first->rank + 1)
    return gpu_decline(check, "PACK output rank is not the inputs' plus one");
  for (uint32_t i = 0; i < op->input_count; ++i) {
    const tflaccel_tensor_desc *input = gpu_op_input(check->graph, op, i);
    if (input == NULL || !gpu_check_same_shape(check, input, first, "inputs")) return 0;
    if (input->dtype != output->dtype)
      return gpu_decline(check, "PACK input %u differs from the output in dtype", i);
  }
  for (uint32_t d = 0, at = 0; d < output->rank; ++d) {
    int32_t expected = (int32_t)d == axis ? (int32_t)op->input_count : first->dims[at++];
    if (output->dims[d] != expected)
      return gpu_decline(check, "PACK output dim %u is %d, expected %d", d, (int)output->dims[d],
                         (int)expected);
  }
  return 1;
}

static tflaccel_status lower_pack(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *first = gpu_op_input(lw->graph, op, 0);
  int32_t axis = axis_normalize(op->params->pack.axis, first->rank + 1);
  int32_t expanded_dims[GPU_MAX_RANK];
  insert_unit_dim(first, axis, expanded_dims);
  gpu_shape expanded = gpu_shape_of_dims(first->rank + 1, expanded_dims);
  /* Inputs whose slices differ from the expanded view's (the axis is the
   * last one) are copied into that view first; the others are read as
   * they lie. */
  uint32_t sources[GPU_MAX_PACK_INPUTS];
  tflaccel_status status = NULL;
  for (uint32_t i = 0; i < op->input_count && status == NULL; ++i) {
    gpu_shape in = lw->tensors[op->inputs[i]].shape;
    sources[i] = op->inputs[i];
    if (in.c == expanded.c) continue;
    uint32_t d;
    int32_t values[18] = {in.b, in.h, in.w, in.c, in.s, 0,    0,    0,    0,
                          1,    1,    1,    1,    in.b, in.h, in.w, in.c, 0};
    status = lower_temporary(lw, expanded, &sources[i]);
    if (status == NULL)
      status = lower_start_dispatch(lw, GPU_KERNEL_BOX_GATHER, op->inputs[i], values, 18, &d);
    if (status == NULL) status = lower_bind_output(lw, d, sources[i]);
    if (status == NULL)
      lower_set_work(lw, d, (uint32_t)expanded.w, (uint32_t)(expanded.b * expanded.h),
                     (uint32_t)expanded.s);
  }
  if (status != NULL) return status;
  uint32_t d;
  status = lower_add_dispatch(lw, GPU_KERNEL_CONCAT, &d);
  if (status != NULL) return status;
  int32_t axis4 = axis + GPU_MAX_RANK - (int32_t)(first->rank + 1);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  k[0] = axis4;
  k[1] = (int32_t)op->input_count;
  for (uint32_t i = 0; i < op->input_count; ++i) {
    status = lower_bind_input(lw, d, 1 + i, sources[i]);
    if (status != NULL) return status;
    int32_t *slot = k + 2 + 6 * i;
    slot[0] = (int32_t)i;
    slot[1] = 1;
    slot[2] = expanded.h;
    slot[3] = expanded.w;
    slot[4] = expanded.c;
    slot[5] = expanded.s;
  }
  return lower_finish(lw, d, 1 + op->input_count, op->outputs[0]);
}

static int check_unpack(const gpu_support_check *check) {
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, op, 0);
  int32_t axis = axis_normalize(op->params->unpack.axis, input->rank);
  if (axis < 0)
    return gpu_decline(check, "UNPACK axis %d is outside rank %u", (int)op->params->unpack.axis,
                       input->rank);
  if ((int64_t)op->output_count != input->dims[axis])
    return gpu_decline(check, "UNPACK has %u outputs for %d entries along axis %d",
                       op->output_count, (int)input->dims[axis], (int)axis);
  for (uint32_t i = 0; i < op->output_count; ++i) {
    const tflaccel_tensor_desc *output = gpu_op_output(check->graph, op, i);
    if (output == NULL) return gpu_decline(check, "UNPACK output %u is missing", i);
    if (output->dtype != input->dtype)
      return gpu_decline(check, "UNPACK output %u differs from the input in dtype", i);
    if (output->rank + 1 != input->rank)
      return gpu_decline(check, "UNPACK output %u rank is not the input's minus one", i);
    for (uint32_t d = 0, at = 0; d < input->rank; ++d)
      if ((int32_t)d != axis && output->dims[at++] != input->dims[d])
        return gpu_decline(check, "UNPACK output %u dim %u differs from the input's", i, at - 1);
  }
  return 1;
}

static tflaccel_status lower_unpack(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  int32_t axis4 = axis_normalize(op->params->unpack.axis, input->rank) + GPU_MAX_RANK -
                  (int32_t)input->rank;
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t start[4] = {0, 0, 0, 0}, stride[4] = {1, 1, 1, 1};
  int32_t size[4] = {in.b, in.h, in.w, in.c};
  size[axis4] = 1;
  for (uint32_t i = 0; i < op->output_count; ++i) {
    start[axis4] = (int32_t)i;
    tflaccel_status status = lower_box_gather(lw, op->inputs[0], op->outputs[i], start, stride, size);
    if (status != NULL) return status;
  }
  return NULL;
}

static const gpu_op_builder pack_builders[] = {
    {GPU_OP_BUILTIN(PACK), .min_inputs = 1, .max_inputs = GPU_OP_ANY_INPUTS, .outputs = 1,
     .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_pack, .lower = lower_pack,
     .int32_values = 1},
    {GPU_OP_BUILTIN(UNPACK), .min_inputs = 1, .max_inputs = 1,
     .outputs = GPU_OP_ANY_OUTPUTS, .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_unpack, .lower = lower_unpack,
     .int32_values = 1},
};
const gpu_op_family gpu_ops_pack = {pack_builders, sizeof pack_builders / sizeof pack_builders[0]};
