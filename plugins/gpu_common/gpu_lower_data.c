/* Lowering of windows, reductions and data movement: pooling, MEAN,
 * SOFTMAX, PAD, CONCATENATION, RESHAPE (and SQUEEZE, EXPAND_DIMS),
 * STRIDED_SLICE, DEPTH_TO_SPACE and the resizes. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_lowering_internal.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"

/* A dispatch of kernel reading `input` as t1, with the kernel parameters
 * given; the caller finishes it. */
static tflaccel_status start_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t input,
                                      const int32_t *values, size_t count, uint32_t *dispatch) {
  tflaccel_status status = lower_add_dispatch(lw, kernel, dispatch);
  if (status == NULL) status = lower_bind_input(lw, *dispatch, 1, input);
  if (status != NULL) return status;
  memcpy(gpu_program_params(lw->program, *dispatch) + GPU_P_KERNEL, values,
         count * sizeof(int32_t));
  return NULL;
}

/* Windows of at least this many positions over at most this many output
 * slices are split over a work group (global pooling): one item per output
 * would walk the whole window alone. Sums then add in another order than
 * cpu_ref's, within rounding. */
#define REDUCE_MIN_WINDOW 256
#define REDUCE_MAX_OUTPUTS 4096
#define REDUCE_ITEMS 256

tflaccel_status lower_pool(gpu_lowering *lw, uint32_t position) {
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
      gpu_conv_padding(padded->dims[1], out.h, p->filter_h, p->stride_h, 1) + pad.top,
      gpu_conv_padding(padded->dims[2], out.w, p->filter_w, p->stride_w, 1) + pad.left,
      op->code == TFLACCEL_OP_MAX_POOL_2D,
      -pad.top,
      in.h + pad.bottom,
      -pad.left,
      in.w + pad.right};
  int reduce = (int64_t)p->filter_h * p->filter_w >= REDUCE_MIN_WINDOW &&
               gpu_shape_pixels(out) * out.s <= REDUCE_MAX_OUTPUTS;
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, reduce ? GPU_KERNEL_POOL2D_REDUCE : GPU_KERNEL_POOL2D,
                                          pad.source, values, sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  lower_add_activation(lw, d, p->fused_activation);
  status = lower_finish(lw, d, 2, op->outputs[0]);
  if (status != NULL || !reduce) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  dispatch->global[0] = dispatch->local[0] = REDUCE_ITEMS;
  dispatch->global[1] = (uint32_t)gpu_shape_pixels(out);
  dispatch->global[2] = (uint32_t)out.s;
  dispatch->local[1] = dispatch->local[2] = 1;
  return NULL;
}

tflaccel_status lower_mean(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  const tflaccel_tensor_desc *axes = gpu_op_input(lw->graph, op, 1);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t reduced[GPU_MAX_RANK] = {0};
  int64_t count = 1;
  for (uint32_t d = 0; d < axes->rank; ++d) count *= axes->dims[d];
  for (int64_t i = 0; i < count; ++i) {
    int64_t axis = gpu_index_value(axes, i);
    if (axis < 0) axis += input->rank;
    reduced[axis + (GPU_MAX_RANK - (int64_t)input->rank)] = 1;
  }
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  uint32_t d;
  tflaccel_status status;
  if (in.b == 1 && !reduced[0] && reduced[1] && reduced[2] && !reduced[3] &&
      (int64_t)in.h * in.w >= REDUCE_MIN_WINDOW && in.s <= REDUCE_MAX_OUTPUTS) {
    /* A large spatial mean is a global average pool: split it over a group. */
    int32_t values[] = {in.h, in.w, in.s, in.h, in.w, 1, 1, 0, 0, 0, 0, in.h, 0, in.w};
    status = start_dispatch(lw, GPU_KERNEL_POOL2D_REDUCE, op->inputs[0], values,
                            sizeof values / sizeof values[0], &d);
    if (status == NULL) status = lower_finish(lw, d, 2, op->outputs[0]);
    if (status != NULL) return status;
    gpu_dispatch *dispatch = &lw->program->dispatches[d];
    dispatch->global[0] = dispatch->local[0] = REDUCE_ITEMS;
    dispatch->global[1] = 1;
    dispatch->global[2] = (uint32_t)out.s;
    dispatch->local[1] = dispatch->local[2] = 1;
    return NULL;
  }
  int32_t values[] = {in.b,       in.h,       in.w,       in.c,       in.s,
                      reduced[0], reduced[1], reduced[2], reduced[3], !reduced[3]};
  status = start_dispatch(lw, GPU_KERNEL_MEAN, op->inputs[0], values,
                          sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

tflaccel_status lower_softmax(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  int32_t values[] = {gpu_float_bits(op->params->softmax.beta)};
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, GPU_KERNEL_SOFTMAX, op->inputs[0], values, 1, &d);
  if (status == NULL) status = lower_finish(lw, d, 2, op->outputs[0]);
  if (status != NULL) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  lower_set_work(lw, d, dispatch->global[0], dispatch->global[1], 1);
  return NULL;
}

tflaccel_status lower_pad(gpu_lowering *lw, uint32_t position) {
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
      memcpy(&pad_value, value->data, 4);
  }
  int32_t values[] = {in.b,      in.h,      in.w,      in.c,      in.s,
                      before[0], before[1], before[2], before[3], gpu_float_bits(pad_value)};
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, GPU_KERNEL_PAD, op->inputs[0], values,
                                          sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

tflaccel_status lower_concat(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *output = gpu_op_output(lw->graph, op, 0);
  int32_t axis = op->params->concatenation.axis;
  if (axis < 0) axis += (int32_t)output->rank;
  axis += GPU_MAX_RANK - (int32_t)output->rank;
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

/* A box gather: output element L is the input's element at box coordinate
 * L (start, stride and size per dim of the input's 4-D view). */
static tflaccel_status emit_box(gpu_lowering *lw, uint32_t position, uint32_t input,
                                const int32_t start[4], const int32_t stride[4],
                                const int32_t size[4]) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[input].shape, out = lw->tensors[op->outputs[0]].shape;
  int whole_slices = start[3] == 0 && stride[3] == 1 && size[3] == in.c && out.c == in.c;
  int32_t values[18] = {in.b,      in.h,     in.w,     in.c,      in.s,      start[0],
                        start[1],  start[2], start[3], stride[0], stride[1], stride[2],
                        stride[3], size[0],  size[1],  size[2],   size[3],   whole_slices};
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, GPU_KERNEL_BOX_GATHER, input, values, 18, &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

tflaccel_status lower_reshape(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  uint32_t input = op->inputs[0], output = op->outputs[0];
  lower_tensor *in = &lw->tensors[input], *out = &lw->tensors[output];
  uint32_t root = input;
  while (lw->tensors[root].alias >= 0) root = (uint32_t)lw->tensors[root].alias;
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
  return emit_box(lw, position, input, start, stride, size);
}

tflaccel_status lower_strided_slice(gpu_lowering *lw, uint32_t position) {
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
  return emit_box(lw, position, op->inputs[0], start, stride, size);
}

tflaccel_status lower_depth_to_space(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t values[] = {in.b, in.h, in.w, in.c, in.s, op->params->block_size.block_size};
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, GPU_KERNEL_DEPTH_TO_SPACE, op->inputs[0], values,
                                          sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

/* TFLite's scale: in / out, or (in - 1) / (out - 1) with align_corners. */
static float resize_scale(int32_t in, int32_t out, int align_corners) {
  if (align_corners && out > 1) return (float)(in - 1) / (float)(out - 1);
  return (float)in / (float)out;
}

tflaccel_status lower_resize(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape, out = lw->tensors[op->outputs[0]].shape;
  int align = op->params->resize.align_corners != 0;
  int32_t values[] = {in.h,
                      in.w,
                      in.s,
                      gpu_float_bits(resize_scale(in.h, out.h, align)),
                      gpu_float_bits(resize_scale(in.w, out.w, align)),
                      op->code == TFLACCEL_OP_RESIZE_BILINEAR,
                      align,
                      op->params->resize.half_pixel_centers != 0};
  uint32_t d;
  tflaccel_status status = start_dispatch(lw, GPU_KERNEL_RESIZE, op->inputs[0], values,
                                          sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}
