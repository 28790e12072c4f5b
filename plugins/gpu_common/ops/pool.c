/* MAX_POOL_2D and AVERAGE_POOL_2D (with a PAD fused into them), and MEAN:
 * windows summed by gpu_pool2d, or split over a work group by
 * gpu_pool2d_reduce when large (a spatial MEAN is a global average pool). */
#include "config.h"

#include "core/facts/conv_geometry.h"
#include "core/facts/axis.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_pool(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  const tflaccel_pool_2d_params *p = &check->op->params->pool_2d;
  if (input->rank != 4 || output->rank != 4)
    return gpu_decline(check, "%s needs 4-D input and output", check->name);
  if (p->stride_w < 1 || p->stride_h < 1 || p->filter_w < 1 || p->filter_h < 1)
    return gpu_decline(check, "%s: strides and filter sizes must be positive", check->name);
  if (p->padding != TFLACCEL_PADDING_SAME && p->padding != TFLACCEL_PADDING_VALID)
    return gpu_decline(check, "%s: unknown padding %d", check->name, (int)p->padding);
  if (!gpu_check_activation(check, p->fused_activation)) return 0;
  int32_t out_h = conv_output_size(p->padding, input->dims[1], p->filter_h, p->stride_h, 1);
  int32_t out_w = conv_output_size(p->padding, input->dims[2], p->filter_w, p->stride_w, 1);
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h || output->dims[2] != out_w ||
      output->dims[3] != input->dims[3])
    return gpu_decline(check, "%s: output shape does not follow from the window", check->name);
  return 1;
}

static int check_mean(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *axes = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (axes == NULL || !gpu_tensor_is_index_constant(axes) || axes->rank > 1)
    return gpu_decline(check, "MEAN axes must be a constant int32/int64 scalar or vector");
  int reduced[GPU_MAX_RANK] = {0};
  for (int64_t i = 0; i < gpu_tensor_element_count(axes); ++i) {
    int32_t axis = axis_normalize(gpu_index_value(axes, i), input->rank);
    if (axis < 0)
      return gpu_decline(check, "MEAN axis %lld is outside rank %u",
                         (long long)gpu_index_value(axes, i), input->rank);
    reduced[axis] = 1;
  }
  int64_t expected = 1;
  for (uint32_t d = 0; d < input->rank; ++d)
    if (!reduced[d]) expected *= input->dims[d];
  if (gpu_tensor_element_count(output) != expected)
    return gpu_decline(check, "MEAN output shape does not match the reduction");
  return 1;
}

/* Windows of at least this many positions over at most this many output
 * slices are split over a work group (global pooling): one item per output
 * would walk the whole window alone. Sums then add in another order than
 * cpu_ref's, within rounding. */
#define REDUCE_MIN_WINDOW 256
#define REDUCE_MAX_OUTPUTS 4096
#define REDUCE_ITEMS 256

static tflaccel_status lower_pool(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_pool_2d_params *p = &op->params->pool_2d;
  const tflaccel_tensor_desc *padded = gpu_op_input(lw->graph, op, 0);
  lower_fused_pad pad;
  lower_fused_pad_of(lw, position, &pad);
  gpu_shape in = lw->tensors[pad.source].shape, out = lw->tensors[op->outputs[0]].shape;
  int32_t values[] = {
      in.h,
      in.w,
      in.s,
      p->filter_h,
      p->filter_w,
      p->stride_h,
      p->stride_w,
      conv_padding_before(padded->dims[1], out.h, p->filter_h, p->stride_h, 1) + pad.top,
      conv_padding_before(padded->dims[2], out.w, p->filter_w, p->stride_w, 1) + pad.left,
      op->code == TFLACCEL_OP_MAX_POOL_2D,
      -pad.top,
      in.h + pad.bottom,
      -pad.left,
      in.w + pad.right};
  int reduce = (int64_t)p->filter_h * p->filter_w >= REDUCE_MIN_WINDOW &&
               gpu_shape_pixels(out) * out.s <= REDUCE_MAX_OUTPUTS;
  uint32_t d;
  tflaccel_status status =
      lower_start_dispatch(lw, reduce ? GPU_KERNEL_POOL2D_REDUCE : GPU_KERNEL_POOL2D, pad.source,
                           values, sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  lower_add_activation(lw, d, p->fused_activation);
  status = lower_finish(lw, d, 2, op->outputs[0]);
  if (status != NULL || !reduce) return status;
  lower_group_per_output(lw, d, REDUCE_ITEMS, (uint32_t)gpu_shape_pixels(out), (uint32_t)out.s);
  return NULL;
}

static tflaccel_status lower_mean(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  const tflaccel_tensor_desc *axes = gpu_op_input(lw->graph, op, 1);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t reduced[GPU_MAX_RANK] = {0};
  int64_t count = 1;
  for (uint32_t d = 0; d < axes->rank; ++d) count *= axes->dims[d];
  for (int64_t i = 0; i < count; ++i) {
    int32_t axis = axis_normalize(gpu_index_value(axes, i), input->rank);
    reduced[axis + (GPU_MAX_RANK - (int32_t)input->rank)] = 1;
  }
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  uint32_t d;
  tflaccel_status status;
  if (in.b == 1 && !reduced[0] && reduced[1] && reduced[2] && !reduced[3] &&
      (int64_t)in.h * in.w >= REDUCE_MIN_WINDOW && in.s <= REDUCE_MAX_OUTPUTS) {
    /* A large spatial mean is a global average pool: split it over a group. */
    int32_t values[] = {in.h, in.w, in.s, in.h, in.w, 1, 1, 0, 0, 0, 0, in.h, 0, in.w};
    status = lower_start_dispatch(lw, GPU_KERNEL_POOL2D_REDUCE, op->inputs[0], values,
                                  sizeof values / sizeof values[0], &d);
    if (status == NULL) status = lower_finish(lw, d, 2, op->outputs[0]);
    if (status != NULL) return status;
    lower_group_per_output(lw, d, REDUCE_ITEMS, 1, (uint32_t)out.s);
    return NULL;
  }
  int32_t values[] = {in.b,       in.h,       in.w,       in.c,       in.s,
                      reduced[0], reduced[1], reduced[2], reduced[3], !reduced[3]};
  status = lower_start_dispatch(lw, GPU_KERNEL_MEAN, op->inputs[0], values,
                                sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder pool_builders[] = {
    {GPU_OP_BUILTIN(MAX_POOL_2D), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .reads_through_pad = 1, .supports = check_pool, .lower = lower_pool},
    {GPU_OP_BUILTIN(AVERAGE_POOL_2D), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .reads_through_pad = 1, .supports = check_pool, .lower = lower_pool},
    {GPU_OP_BUILTIN(MEAN), .min_inputs = 2, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* axes */, .supports = check_mean, .lower = lower_mean},
};
const gpu_op_family gpu_ops_pool = {pool_builders, sizeof pool_builders / sizeof pool_builders[0]};
