/* ARG_MAX and ARG_MIN: one gpu_arg_max dispatch. Their int32/int64 output
 * is held as exact float values (the builder's index output) and written
 * as integers by the partition's edge conversion; no GPU op reads integer
 * values, so that output always leaves the partition. */
#include "config.h"

#include "core/facts/axis.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

/* An axis at least this long is scanned by a work group of REDUCE_ITEMS
 * items per output slice (the kernel's mode K(8) 1): one item walking a
 * long axis alone is latency-bound (movenet's 2304-value heatmap decode). */
#define REDUCE_MIN_SIZE 64
#define REDUCE_ITEMS 128

/* The axis (normalized), or -1 when the axis input is not one constant. */
static int32_t axis_of(const tflaccel_graph_view *graph, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *axis = gpu_op_input(graph, op, 1);
  if (!gpu_tensor_is_index_constant(axis) || gpu_tensor_element_count(axis) != 1) return -1;
  return axis_normalize(gpu_index_value(axis, 0), input->rank);
}

static int check_arg_max(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  int32_t axis = axis_of(check->graph, check->op);
  if (axis < 0)
    return gpu_decline(check, "%s axis must be one constant int32/int64 inside rank %u",
                       check->name, input->rank);
  if (output->dtype != TFLACCEL_DTYPE_INT32 && output->dtype != TFLACCEL_DTYPE_INT64)
    return gpu_decline(check, "%s output is %s, expected int32 or int64", check->name,
                       dtype_name(output->dtype));
  /* The index is a float value: exact up to the precision's limit. */
  int64_t limit = gpu_exact_integer_limit(check->precision);
  if (input->dims[axis] - 1 > limit) {
    gpu_mark_inexact_integers(check);
    return gpu_decline(check,
                       "%s over %d values: GPU tensors hold indices as float values, exact "
                       "in %s only up to %lld",
                       check->name, (int)input->dims[axis],
                       check->precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32",
                       (long long)limit);
  }
  if (output->rank + 1 != input->rank)
    return gpu_decline(check, "%s output rank is not the input's minus one", check->name);
  for (uint32_t d = 0, at = 0; d < input->rank; ++d)
    if ((int32_t)d != axis && output->dims[at++] != input->dims[d])
      return gpu_decline(check, "%s output dim %u differs from the input's", check->name, at - 1);
  return 1;
}

static tflaccel_status lower_arg_max(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  int32_t axis4 = axis_of(lw->graph, op) + GPU_MAX_RANK - (int32_t)input->rank;
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t dims[4];
  gpu_shape_dims(in, dims);
  int32_t inner = 1;
  for (int32_t d = axis4 + 1; d < GPU_MAX_RANK; ++d) inner *= dims[d];
  int reduce = dims[axis4] >= REDUCE_MIN_SIZE;
  int32_t values[] = {in.b,        in.h,  in.w, in.c, in.s, dims[axis4], inner,
                      op->code == TFLACCEL_OP_ARG_MIN, reduce};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_ARG_MAX, op->inputs[0], values,
                                                sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  status = lower_finish(lw, d, 2, op->outputs[0]);
  if (status != NULL || !reduce) return status;
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  lower_group_per_output(lw, d, REDUCE_ITEMS, (uint32_t)gpu_shape_pixels(out), (uint32_t)out.s);
  return NULL;
}

static const gpu_op_builder arg_max_builders[] = {
    {GPU_OP_BUILTIN(ARG_MAX), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* axis */, .index_outputs = 1u, .values = GPU_VALUES_FLOAT32,
     .supports = check_arg_max, .lower = lower_arg_max},
    {GPU_OP_BUILTIN(ARG_MIN), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* axis */, .index_outputs = 1u, .values = GPU_VALUES_FLOAT32,
     .supports = check_arg_max, .lower = lower_arg_max},
};
const gpu_op_family gpu_ops_arg_max = {arg_max_builders,
                                       sizeof arg_max_builders / sizeof arg_max_builders[0]};
