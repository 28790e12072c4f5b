/* Lowering of the ops with weights: CONV_2D, DEPTHWISE_CONV_2D,
 * TRANSPOSE_CONV, Convolution2DTransposeBias and FULLY_CONNECTED. Weights
 * are repacked here, once, into the kernels' vector layout (see
 * kernels/cl/conv.cl) in the program's storage type. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_lowering_internal.h"
#include "plugins/gpu_common/gpu_op_math.h"

#define WEIGHT_ALIGNMENT 256

static float read_float(const tflaccel_tensor_desc *tensor, int64_t index) {
  float value;
  memcpy(&value, (const char *)tensor->data + index * 4, 4);
  return value;
}

/* Packs weights given as w(o, ky, kx, i) = source[((o * KH + ky) * KW + kx)
 * * I + i] into [O/4][KH][KW][I/4][4 inputs][4 outputs]. */
tflaccel_status lower_pack_conv_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                        int32_t out_c, int32_t kh, int32_t kw, int32_t in_c,
                                        uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t out_s = (out_c + 3) / 4, in_s = (in_c + 3) / 4;
  uint64_t count = (uint64_t)out_s * kh * kw * in_s * 16;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, count * program->element_size, WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  for (int32_t o = 0; o < out_c; ++o)
    for (int32_t ky = 0; ky < kh; ++ky)
      for (int32_t kx = 0; kx < kw; ++kx)
        for (int32_t i = 0; i < in_c; ++i) {
          int64_t from = (((int64_t)o * kh + ky) * kw + kx) * in_c + i;
          uint64_t to =
              ((((uint64_t)(o / 4) * kh + ky) * kw + kx) * in_s + (uint64_t)(i / 4)) * 16 +
              (uint64_t)(i % 4) * 4 + (uint64_t)(o % 4);
          gpu_program_store_constant(program, *offset, to, read_float(weights, from));
        }
  return NULL;
}

/* One vector per output slice; zeros without a bias. */
tflaccel_status lower_pack_bias(gpu_lowering *lw, const tflaccel_tensor_desc *bias, int32_t out_c,
                                uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t out_s = (out_c + 3) / 4;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)out_s * 4 * program->element_size, WEIGHT_ALIGNMENT, offset);
  if (status != NULL || bias == NULL) return status;
  for (int32_t o = 0; o < out_c; ++o)
    gpu_program_store_constant(program, *offset, (uint64_t)o, read_float(bias, o));
  return NULL;
}

/* Output slices each conv work item computes: reusing every input slice
 * read for more outputs pays only while enough items remain to keep the
 * GPU busy (a few per core). */
#define BUSY_ITEMS 65536
static int32_t slices_per_item(gpu_shape out) {
  int64_t items = gpu_shape_pixels(out) * out.s;
  if (out.s >= 8 && items >= 4 * BUSY_ITEMS) return 4;
  if (out.s >= 2 && items >= 2 * BUSY_ITEMS) return 2;
  return 1;
}

/* Shared tail of CONV_2D and FULLY_CONNECTED-as-1x1-conv. */
typedef struct conv_setup {
  uint32_t input;
  int32_t in_h, in_w, in_s; /* in_s: slices of an input pixel */
  int32_t kh, kw, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int32_t activation;
  const tflaccel_tensor_desc *weights, *bias; /* weights as [O][KH][KW][I] */
  int32_t out_c, in_c;
  int order_free; /* no later layer amplifies its rounding (see below) */
} conv_setup;

/* Ops that pass a value on without amplifying its rounding error (they are
 * 1-Lipschitz or move bytes). */
static int passes_rounding_on(int32_t code) {
  switch (code) {
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_LOGISTIC:
    case TFLACCEL_OP_TANH:
    case TFLACCEL_OP_RELU:
    case TFLACCEL_OP_RELU6:
    case TFLACCEL_OP_RELU_N1_TO_1: return 1;
    default: return 0;
  }
}

/* Whether tensor reaches only graph outputs (tensors no op reads), through
 * ops that pass rounding on unamplified. Then how a sum producing it is
 * ordered changes the outputs by a few float32 roundings, far inside
 * rtol_fp32: the order cpu_ref's results depend on matters only where
 * later layers amplify (pose_landmark_lite's decoder, ~400x). */
#define ORDER_FREE_MAX_DEPTH 8
static int only_feeds_outputs(const tflaccel_graph_view *graph, uint32_t tensor, int depth) {
  if (depth > ORDER_FREE_MAX_DEPTH) return 0;
  for (uint32_t o = 0; o < graph->op_count; ++o) {
    const tflaccel_op_desc *op = &graph->ops[o];
    int reads = 0;
    for (uint32_t i = 0; i < op->input_count; ++i) reads |= op->inputs[i] == tensor;
    if (!reads) continue;
    if (!passes_rounding_on(op->code) || op->inputs[0] != tensor || op->output_count != 1 ||
        !only_feeds_outputs(graph, op->outputs[0], depth + 1))
      return 0;
  }
  return 1;
}

/* Packs w(o, tap) (tap = (ky * KW + kx) * I + i) as [tap / 4][O padded to
 * slices][tap % 4], the taps padded to a multiple of 4 with zeros: the
 * layout the ordered kernels read one output channel per work item from,
 * four taps to a vector load, so that each item's dependent chain of adds
 * waits on a quarter of the loads (the loads, not the adds, bound those
 * kernels), and neighbouring items read neighbouring vectors. */
static tflaccel_status pack_ordered_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                            int32_t out_c, int32_t taps, uint64_t *offset) {
  gpu_program *program = lw->program;
  uint64_t padded = (uint64_t)(out_c + 3) / 4 * 4;
  uint64_t tap_groups = (uint64_t)(taps + 3) / 4;
  tflaccel_status status =
      gpu_program_add_constants(lw->host, program, tap_groups * padded * 4 * program->element_size,
                                WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  for (int32_t o = 0; o < out_c; ++o)
    for (int32_t tap = 0; tap < taps; ++tap)
      gpu_program_store_constant(program, *offset,
                                 ((uint64_t)tap / 4 * padded + (uint64_t)o) * 4 + (uint64_t)tap % 4,
                                 read_float(weights, (int64_t)o * taps + tap));
  return NULL;
}

/* Work items below which a convolution with a large receptive field gets
 * more parallel: with few items each waits on one dependent load after
 * another. Every output channel gets its own item, in cpu_ref's summation
 * order (some models, pose_landmark_lite, amplify any other order past
 * rtol_fp32); in fp16, or where the order is free (only_feeds_outputs),
 * 1x1 layers split each sum over a work group (on the H200, 6 us where the
 * ordered sum of hand_landmark_lite's 672 -> 63 head takes 18 us). */
#define FEW_ITEMS 65536
#define MIN_TAPS 64
#define SPLIT_MIN_INPUT_SLICES 16
#define ORDERED_GROUP 64
#define ORDERED_MAX_GROUP 256 /* the kernels' ORDERED_MAX_ITEMS */
/* The GLSL kernels' shared array holds ORDERED_TAPS_PER_ITEM values per
 * item (its size follows the group, so that small layers keep more groups
 * resident on an SM: pose_landmark_lite's 64x64 fused layer 60 -> 38 us on
 * the H200), so a group has at least taps / ORDERED_TAPS_PER_ITEM items. */
#define ORDERED_TAPS_PER_ITEM 16

/* The largest ordered group the device runs whole (a multiple of 64; 0:
 * none), and so the most taps (one pixel's receptive field or depthwise
 * values) an ordered kernel holds. */
static uint32_t ordered_max_group(const gpu_lowering *lw) {
  uint32_t limit = lw->backend->caps.max_group_items;
  if (limit == 0 || limit >= ORDERED_MAX_GROUP) return ORDERED_MAX_GROUP;
  return limit / ORDERED_GROUP * ORDERED_GROUP;
}

static int32_t ordered_max_taps(const gpu_lowering *lw) {
  return (int32_t)(ordered_max_group(lw) * ORDERED_TAPS_PER_ITEM);
}

/* Which convolution kernel computes setup's layer into out. */
static int32_t conv_kernel(const gpu_lowering *lw, const conv_setup *setup, gpu_shape out) {
  int32_t taps = setup->kh * setup->kw * setup->in_c;
  int few_items = gpu_shape_pixels(out) * out.s < FEW_ITEMS && taps >= MIN_TAPS;
  int split = few_items && (lw->program->storage != GPU_STORAGE_FLOAT32 || setup->order_free) &&
              setup->kh == 1 && setup->kw == 1 && setup->pad_top == 0 && setup->pad_left == 0 &&
              setup->in_s >= SPLIT_MIN_INPUT_SLICES;
  if (split) return GPU_KERNEL_CONV2D_SPLIT;
  if (few_items && taps <= ordered_max_taps(lw)) return GPU_KERNEL_CONV_ORDERED;
  return GPU_KERNEL_CONV2D;
}

/* The work size of the ordered kernels: one pixel per group, as many
 * output channels per group as there are, in steps of 64 up to
 * max_group (ordered_max_group). One group per pixel fills the pixel's
 * receptive field (or, fused, computes its depthwise values) once instead
 * of once per 64 channels, with more items sharing that work. */
/* items rounded up to a multiple of 64, at most max_group. */
static uint32_t ordered_group_of(uint32_t items, uint32_t max_group) {
  uint32_t group = (items + ORDERED_GROUP - 1) / ORDERED_GROUP * ORDERED_GROUP;
  return group > max_group ? max_group : group;
}

static void set_ordered_work(gpu_dispatch *dispatch, gpu_shape out, int32_t taps,
                             uint32_t max_group) {
  uint32_t channels = (uint32_t)out.s * 4;
  uint32_t wanted = (uint32_t)(taps + ORDERED_TAPS_PER_ITEM - 1) / ORDERED_TAPS_PER_ITEM;
  uint32_t group = ordered_group_of(wanted > channels ? wanted : channels, max_group);
  dispatch->global[0] = (channels + group - 1) / group * group;
  dispatch->local[0] = group;
  dispatch->global[1] = (uint32_t)gpu_shape_pixels(out);
  dispatch->global[2] = 1;
  dispatch->local[1] = dispatch->local[2] = 1;
}

/* Grows a one-group-wide ordered dispatch (set_ordered_work) to at least
 * `items` items, in steps of 64 up to max_group. */
static void widen_ordered_group(gpu_dispatch *dispatch, uint32_t items, uint32_t max_group) {
  uint32_t group = ordered_group_of(items, max_group);
  if (dispatch->global[0] != dispatch->local[0] || group <= dispatch->local[0]) return;
  dispatch->global[0] = dispatch->local[0] = group;
}

static tflaccel_status emit_conv(gpu_lowering *lw, const conv_setup *setup, uint32_t output) {
  gpu_shape out = lw->tensors[output].shape;
  int32_t in_s = setup->in_s;
  int32_t taps = setup->kh * setup->kw * setup->in_c;
  int32_t kernel = conv_kernel(lw, setup, out);
  int split = kernel == GPU_KERNEL_CONV2D_SPLIT, ordered = kernel == GPU_KERNEL_CONV_ORDERED;
  uint64_t weights, bias;
  tflaccel_status status =
      ordered ? pack_ordered_weights(lw, setup->weights, setup->out_c, taps, &weights)
              : lower_pack_conv_weights(lw, setup->weights, setup->out_c, setup->kh, setup->kw,
                                  setup->in_c, &weights);
  if (status == NULL) status = lower_pack_bias(lw, setup->bias, setup->out_c, &bias);
  if (status != NULL) return status;
  uint32_t d;
  status = lower_add_dispatch(lw, kernel, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, setup->input);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, weights);
  lower_bind_constants(lw, d, 3, bias);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  int32_t per_item = split || ordered ? 1 : slices_per_item(out);
  int32_t values[] = {setup->in_h,     setup->in_w,       in_s,
                      setup->kh,       setup->kw,         setup->stride_h,
                      setup->stride_w, setup->dilation_h, setup->dilation_w,
                      setup->pad_top,  setup->pad_left,   ordered ? setup->in_c : per_item};
  memcpy(k, values, sizeof values);
  lower_add_activation(lw, d, setup->activation);
  status = lower_finish(lw, d, 4, output);
  if (status != NULL) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  if (ordered) {
    set_ordered_work(dispatch, out, taps, ordered_max_group(lw));
    return NULL;
  }
  if (split) {
    /* One group per output slice: items along x, nothing else in a group. */
    uint32_t items = in_s >= 32 ? 32 : 16;
    dispatch->global[0] = dispatch->local[0] = items;
    dispatch->global[1] = (uint32_t)gpu_shape_pixels(out);
    dispatch->global[2] = (uint32_t)out.s;
    dispatch->local[1] = dispatch->local[2] = 1;
    return NULL;
  }
  lower_set_work(lw, d, dispatch->global[0], dispatch->global[1],
                 (dispatch->global[2] + (uint32_t)per_item - 1) / (uint32_t)per_item);
  return NULL;
}

/* The setup of CONV_2D op (at position), reading through a fused PAD. */
static void conv_setup_of(const gpu_lowering *lw, uint32_t position, conv_setup *setup) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *filter = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *padded = gpu_op_input(lw->graph, op, 0);
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;
  lower_fused_pad pad;
  lower_fused_pad_of(lw, position, &pad);
  const tflaccel_tensor_desc *input = &lw->graph->tensors[pad.source];
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  memset(setup, 0, sizeof *setup);
  setup->input = pad.source;
  setup->in_h = input->dims[1];
  setup->in_w = input->dims[2];
  setup->in_s = lw->tensors[pad.source].shape.s;
  setup->kh = filter->dims[1];
  setup->kw = filter->dims[2];
  setup->stride_h = params->stride_h;
  setup->stride_w = params->stride_w;
  setup->dilation_h = params->dilation_h ? params->dilation_h : 1;
  setup->dilation_w = params->dilation_w ? params->dilation_w : 1;
  /* Padding follows from the (padded) input the op was given. */
  setup->pad_top =
      gpu_conv_padding(padded->dims[1], out.h, setup->kh, setup->stride_h, setup->dilation_h) +
      pad.top;
  setup->pad_left =
      gpu_conv_padding(padded->dims[2], out.w, setup->kw, setup->stride_w, setup->dilation_w) +
      pad.left;
  setup->activation = params->fused_activation;
  setup->weights = filter;
  setup->bias = gpu_op_input(lw->graph, op, 2);
  setup->out_c = filter->dims[0];
  setup->in_c = filter->dims[3];
  setup->order_free = only_feeds_outputs(lw->graph, op->outputs[0], 0);
}

/* A window that covers the whole input (no padding, one output pixel) over
 * whole slices is a 1x1 convolution of the input seen as one pixel of
 * KH * KW * C channels: the same bytes, and the weights' [KH][KW][I] order
 * is that pixel's channel order. (Heads of landmark models: 2x2x192 ->
 * 195.) */
static void flatten_whole_window(conv_setup *setup, gpu_shape out) {
  if (out.h != 1 || out.w != 1 || setup->pad_top != 0 || setup->pad_left != 0 ||
      setup->in_h != setup->kh || setup->in_w != setup->kw || setup->in_c % GPU_SLICE != 0 ||
      (setup->kh == 1 && setup->kw == 1))
    return;
  setup->in_c *= setup->kh * setup->kw;
  setup->in_s = setup->in_c / GPU_SLICE;
  setup->in_h = setup->in_w = 1;
  setup->kh = setup->kw = 1;
  setup->stride_h = setup->stride_w = setup->dilation_h = setup->dilation_w = 1;
}

tflaccel_status lower_conv(gpu_lowering *lw, uint32_t position) {
  conv_setup setup;
  conv_setup_of(lw, position, &setup);
  uint32_t output = lower_op(lw, position)->outputs[0];
  if (setup.order_free) flatten_whole_window(&setup, lw->tensors[output].shape);
  return emit_conv(lw, &setup, output);
}

tflaccel_status lower_fully_connected(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(lw->graph, op, 2);
  int32_t units = weights->dims[0], depth = weights->dims[1];
  uint32_t input = op->inputs[0];
  gpu_shape in = lw->tensors[input].shape, out = lw->tensors[op->outputs[0]].shape;
  tflaccel_status status = NULL;
  if (in.c != depth) {
    /* Rows of `depth` that cross pixels: flatten into [rows, depth] first. */
    int32_t dims[2] = {(int32_t)(gpu_shape_elements(in) / depth), depth};
    gpu_shape flat = gpu_shape_of_dims(2, dims);
    uint32_t temporary, d;
    status = lower_temporary(lw, flat, &temporary);
    if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_BOX_GATHER, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, input);
    if (status != NULL) return status;
    int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
    int32_t values[18] = {in.b, in.h, in.w, in.c, in.s, 0,    0,    0,    0,
                          1,    1,    1,    1,    in.b, in.h, in.w, in.c, 0};
    memcpy(k, values, sizeof values);
    status = lower_bind_output(lw, d, temporary);
    if (status != NULL) return status;
    lower_set_work(lw, d, (uint32_t)flat.w, (uint32_t)(flat.b * flat.h), (uint32_t)flat.s);
    input = temporary;
  }
  /* A 1x1 convolution over the rows, seen with the output's pixel grid. */
  conv_setup setup;
  memset(&setup, 0, sizeof setup);
  setup.input = input;
  setup.in_h = out.h;
  setup.in_w = out.w;
  setup.kh = setup.kw = setup.stride_h = setup.stride_w = 1;
  setup.dilation_h = setup.dilation_w = 1;
  setup.activation = op->params->fully_connected.fused_activation;
  setup.weights = weights;
  setup.bias = bias;
  setup.out_c = units;
  setup.in_c = depth;
  setup.in_s = lw->tensors[input].shape.s;
  setup.order_free = only_feeds_outputs(lw->graph, op->outputs[0], 0);
  /* The input's pixels must be the output's rows in the same order. */
  gpu_shape rows = lw->tensors[input].shape;
  if (gpu_shape_pixels(rows) != gpu_shape_pixels(out))
    return lw->host->status_make(TFLACCEL_INTERNAL,
                                 "%s: FULLY_CONNECTED rows (%lld) and outputs (%lld) disagree",
                                 lw->backend->plugin_name, (long long)gpu_shape_pixels(rows),
                                 (long long)gpu_shape_pixels(out));
  return emit_conv(lw, &setup, op->outputs[0]);
}

/* A DEPTHWISE_CONV_2D's weights and bias in the constants, and its
 * kernel parameters (GPU_KERNEL_DEPTHWISE_CONV2D's [0..12)). */
typedef struct depthwise_setup {
  uint32_t input; /* what it reads, through a fused PAD */
  uint64_t weights, bias;
  int32_t values[12];
  int32_t channels, activation;
} depthwise_setup;

static tflaccel_status depthwise_prepare(gpu_lowering *lw, uint32_t position,
                                         depthwise_setup *setup) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *filter = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(lw->graph, op, 2);
  const tflaccel_tensor_desc *padded = gpu_op_input(lw->graph, op, 0);
  const tflaccel_depthwise_conv_2d_params *params = &op->params->depthwise_conv_2d;
  lower_fused_pad pad;
  lower_fused_pad_of(lw, position, &pad);
  const tflaccel_tensor_desc *input = &lw->graph->tensors[pad.source];
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  int32_t kh = filter->dims[1], kw = filter->dims[2], out_c = filter->dims[3];
  int32_t dh = params->dilation_h ? params->dilation_h : 1;
  int32_t dw = params->dilation_w ? params->dilation_w : 1;
  gpu_program *program = lw->program;
  int32_t out_s = (out_c + 3) / 4;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)out_s * kh * kw * 4 * program->element_size, WEIGHT_ALIGNMENT,
      &setup->weights);
  if (status == NULL) status = lower_pack_bias(lw, bias, out_c, &setup->bias);
  if (status != NULL) return status;
  for (int32_t ky = 0; ky < kh; ++ky)
    for (int32_t kx = 0; kx < kw; ++kx)
      for (int32_t o = 0; o < out_c; ++o)
        gpu_program_store_constant(
            program, setup->weights,
            (((uint64_t)(o / 4) * kh + ky) * kw + kx) * 4 + (uint64_t)(o % 4),
            read_float(filter, ((int64_t)ky * kw + kx) * out_c + o));
  int32_t values[12] = {input->dims[1],
                        input->dims[2],
                        lw->tensors[pad.source].shape.s,
                        kh,
                        kw,
                        params->stride_h,
                        params->stride_w,
                        dh,
                        dw,
                        gpu_conv_padding(padded->dims[1], out.h, kh, params->stride_h, dh) + pad.top,
                        gpu_conv_padding(padded->dims[2], out.w, kw, params->stride_w, dw) +
                            pad.left,
                        out_c / input->dims[3]};
  memcpy(setup->values, values, sizeof values);
  setup->input = pad.source;
  setup->channels = out_c;
  setup->activation = params->fused_activation;
  return NULL;
}

/* The 1x1 CONV_2D that is the only reader of the depthwise output of the op
 * at position, when one dispatch computes both faster than two do
 * (gpu_kernel_catalog.h): its position, or -1. */
#define DEPTHWISE_1X1_MAX_TAPS 36
#define DEPTHWISE_SPLIT_MAX_INPUTS 256
static int32_t pointwise_reader(const gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_DEPTHWISE_POINTWISE)) return -1;
  const tflaccel_op_desc *op = lower_op(lw, position);
  float low, high;
  if (!gpu_activation_range(op->params->depthwise_conv_2d.fused_activation, &low, &high))
    return -1;
  uint32_t value = op->outputs[0];
  const lower_tensor *lt = &lw->tensors[value];
  if (lt->is_output || lt->consumers != 1 || lt->consumer < 0 || lw->absorbed[lt->consumer])
    return -1;
  uint32_t reader = (uint32_t)lt->consumer;
  const tflaccel_op_desc *conv = lower_op(lw, reader);
  if (conv->code != TFLACCEL_OP_CONV_2D || conv->inputs[0] != value ||
      lw->pad_source[reader] >= 0)
    return -1;
  conv_setup setup;
  conv_setup_of(lw, reader, &setup);
  if (setup.kh != 1 || setup.kw != 1 || setup.stride_h != 1 || setup.stride_w != 1 ||
      setup.pad_top != 0 || setup.pad_left != 0 || setup.in_c != lw->tensors[value].shape.c)
    return -1;
  gpu_shape out = lw->tensors[conv->outputs[0]].shape;
  const tflaccel_tensor_desc *filter = gpu_op_input(lw->graph, op, 1);
  switch (conv_kernel(lw, &setup, out)) {
    case GPU_KERNEL_CONV2D: {
      /* Every item of a pixel recomputes all its depthwise slices, one
       * after another. Measured on the H200 (pose_landmark_lite): a gain up
       * to 36 taps per pixel (2 items x 2 slices x 3x3: 10 us fused against
       * 14 us for two dispatches), a loss from 144 on (64x64, 4 items x 8
       * slices x 3x3: 31 us against 21 us). */
      int64_t items = (out.s + slices_per_item(out) - 1) / slices_per_item(out);
      int64_t taps = items * setup.in_s * filter->dims[1] * filter->dims[2];
      return taps <= DEPTHWISE_1X1_MAX_TAPS ? (int32_t)reader : -1;
    }
    case GPU_KERNEL_CONV2D_SPLIT:
      /* The fused kernel sums in order instead: a gain over depthwise +
       * split only for short sums, or where barriers cost more (then it
       * often absorbs the next 1x1 too: expansion_reader), and never in
       * half arithmetic (long half sums lose too much). */
      if (lw->program->storage == GPU_STORAGE_HALF_MATH || ordered_max_group(lw) == 0) return -1;
      if (setup.in_c > (lw->backend->caps.prefers_fewer_dispatches ? ordered_max_taps(lw)
                                                              : DEPTHWISE_SPLIT_MAX_INPUTS))
        return -1;
      return (int32_t)reader;
    default: return setup.in_c <= ordered_max_taps(lw) ? (int32_t)reader : -1;
  }
}

/* The 1x1 convolution reading value, the output of fused depthwise + 1x1
 * dispatch d, that d can compute as well
 * (GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND), or -1: a plain 1x1 layer
 * (the next inverted-residual block's expansion) whose input has all its
 * channels in one ordered group and whose output has room in the kernel's
 * shared array. value may have other readers (the next block's residual
 * ADD reads it from t0). On NVIDIA's GLES driver a barrier costs ~7.5 us,
 * and pose_landmark_lite has 13 of these pairs. */
#define WIDE_EXPANSION_MAX_PIXELS 1024
static int32_t expansion_reader(const gpu_lowering *lw, uint32_t d, uint32_t value) {
  if (!(lw->backend->caps.features & GPU_FEATURE_ORDERED_EXPAND)) return -1;
  if (lw->program->dispatches[d].args[GPU_MAX_ARGS - 1].kind != GPU_BUFFER_NONE) return -1;
  if (value >= lw->graph->tensor_count || lw->tensors[value].is_output) return -1;
  gpu_shape in = lw->tensors[value].shape;
  uint32_t max_group = ordered_max_group(lw);
  if ((uint32_t)in.s * 4 > max_group) return -1;
  for (uint32_t p = 0; p < lw->partition->op_count; ++p) {
    const tflaccel_op_desc *op = lower_op(lw, p);
    if (op->code != TFLACCEL_OP_CONV_2D || op->inputs[0] != value || lw->absorbed[p] ||
        lw->pad_source[p] >= 0)
      continue;
    int reads_twice = 0;
    for (uint32_t i = 1; i < op->input_count; ++i) reads_twice |= op->inputs[i] == value;
    float low, high;
    if (reads_twice || !gpu_activation_range(op->params->conv_2d.fused_activation, &low, &high))
      continue;
    conv_setup setup;
    conv_setup_of(lw, p, &setup);
    const lower_tensor *out = &lw->tensors[op->outputs[0]];
    if (setup.kh != 1 || setup.kw != 1 || setup.stride_h != 1 || setup.stride_w != 1 ||
        setup.pad_top != 0 || setup.pad_left != 0 || setup.in_c != in.c || out->is_output ||
        out->storage != GPU_BUFFER_NONE ||
        (uint32_t)out->shape.s * 4 > max_group * (ORDERED_TAPS_PER_ITEM - 1))
      continue;
    return (int32_t)p;
  }
  return -1;
}

/* Turns ordered dispatch d into GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND,
 * computing the 1x1 layer at position reader too; weights is the byte
 * offset of d's own 1x1 weights (t4). */
static tflaccel_status absorb_expansion(gpu_lowering *lw, uint32_t d, uint32_t reader,
                                        uint64_t weights) {
  conv_setup setup;
  conv_setup_of(lw, reader, &setup);
  uint32_t output = lower_op(lw, reader)->outputs[0];
  uint64_t expand_weights, expand_bias;
  tflaccel_status status =
      pack_ordered_weights(lw, setup.weights, setup.out_c, setup.in_c, &expand_weights);
  if (status == NULL) status = lower_pack_bias(lw, setup.bias, setup.out_c, &expand_bias);
  if (status == NULL) status = lower_bind_second_output(lw, d, output);
  if (status != NULL) return status;
  float low = 0.0f, high = 0.0f;
  gpu_activation_range(setup.activation, &low, &high);
  uint32_t element = lw->program->element_size;
  int32_t values[7] = {(int32_t)((expand_weights - weights) / element),
                       (int32_t)((expand_bias - weights) / element),
                       setup.out_c,
                       lw->tensors[output].shape.s,
                       setup.activation != TFLACCEL_ACT_NONE,
                       gpu_float_bits(low),
                       gpu_float_bits(high)};
  memcpy(gpu_program_params(lw->program, d) + GPU_P_KERNEL + 19, values, sizeof values);
  lw->program->dispatches[d].kernel = GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND;
  lw->absorbed[reader] = 1;
  return NULL;
}

/* The depthwise op at position and its 1x1 reader in one dispatch. */
static tflaccel_status emit_depthwise_pointwise(gpu_lowering *lw, const depthwise_setup *dw,
                                                uint32_t reader) {
  conv_setup pw;
  conv_setup_of(lw, reader, &pw);
  uint32_t output = lower_op(lw, reader)->outputs[0];
  gpu_shape out = lw->tensors[output].shape;
  int ordered = conv_kernel(lw, &pw, out) != GPU_KERNEL_CONV2D;
  uint64_t weights, bias;
  tflaccel_status status =
      ordered ? pack_ordered_weights(lw, pw.weights, pw.out_c, pw.in_c, &weights)
              : lower_pack_conv_weights(lw, pw.weights, pw.out_c, 1, 1, pw.in_c, &weights);
  if (status == NULL) status = lower_pack_bias(lw, pw.bias, pw.out_c, &bias);
  uint32_t d = 0;
  if (status == NULL)
    status = lower_add_dispatch(lw,
                                ordered ? GPU_KERNEL_DEPTHWISE_CONV_ORDERED
                                        : GPU_KERNEL_DEPTHWISE_CONV2D_1X1,
                                &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, dw->input);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, dw->weights);
  lower_bind_constants(lw, d, 3, dw->bias);
  lower_bind_constants(lw, d, 4, weights);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  memcpy(k, dw->values, sizeof dw->values);
  /* The bias rides on the weights' argument (packed right after them), so
   * that two arguments stay free for a residual ADD and a PRELU. */
  k[18] = (int32_t)((bias - weights) / lw->program->element_size);
  float low, high;
  gpu_activation_range(dw->activation, &low, &high);
  int32_t per_item = ordered ? 1 : slices_per_item(out);
  int32_t more[6] = {dw->channels,
                     (dw->channels + 3) / 4,
                     dw->activation != TFLACCEL_ACT_NONE,
                     gpu_float_bits(low),
                     gpu_float_bits(high),
                     per_item};
  memcpy(k + 12, more, sizeof more);
  lw->absorbed[reader] = 1;
  lower_add_activation(lw, d, pw.activation);
  uint32_t written;
  status = lower_finish_to(lw, d, 5, output, &written);
  if (status != NULL) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  if (ordered) {
    uint32_t max_group = ordered_max_group(lw);
    set_ordered_work(dispatch, out, dw->channels, max_group);
    /* Enough items for every depthwise slice at once: each round of
     * them waits on a whole window of loads (pose_landmark_lite's 8x8x576
     * depthwise ran in three rounds of 64 items). */
    widen_ordered_group(dispatch, (uint32_t)(dw->channels + 3) / 4, max_group);
    int32_t expansion = expansion_reader(lw, d, written);
    if (expansion < 0) return NULL;
    /* As many items as the expansion has channels share its work, where
     * few groups leave the GPU idle anyway (8x8 layers: 34.5 -> 27.6 us
     * with the expansion in on the H200); layers of many pixels keep their
     * narrower groups (more of them resident: pose_landmark_lite ~3% faster
     * on gpu_gl, bench/RESULTS.md). */
    if (gpu_shape_pixels(out) < WIDE_EXPANSION_MAX_PIXELS)
      widen_ordered_group(
          dispatch,
          (uint32_t)lw->tensors[lower_op(lw, (uint32_t)expansion)->outputs[0]].shape.s * 4,
          max_group);
    return absorb_expansion(lw, d, (uint32_t)expansion, weights);
  }
  lower_set_work(lw, d, dispatch->global[0], dispatch->global[1],
                 (dispatch->global[2] + (uint32_t)per_item - 1) / (uint32_t)per_item);
  return NULL;
}

tflaccel_status lower_depthwise(gpu_lowering *lw, uint32_t position) {
  depthwise_setup dw;
  tflaccel_status status = depthwise_prepare(lw, position, &dw);
  if (status != NULL) return status;
  int32_t reader = pointwise_reader(lw, position);
  if (reader >= 0) return emit_depthwise_pointwise(lw, &dw, (uint32_t)reader);
  uint32_t d;
  status = lower_add_dispatch(lw, GPU_KERNEL_DEPTHWISE_CONV2D, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, dw.input);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, dw.weights);
  lower_bind_constants(lw, d, 3, dw.bias);
  memcpy(gpu_program_params(lw->program, d) + GPU_P_KERNEL, dw.values, sizeof dw.values);
  lower_add_activation(lw, d, dw.activation);
  return lower_finish(lw, d, 4, lower_op(lw, position)->outputs[0]);
}

tflaccel_status lower_transpose_conv(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_tconv_shape shape;
  gpu_tconv_describe(lw->graph, op, &shape);
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, shape.input);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, shape.weights);
  const tflaccel_tensor_desc *bias = gpu_op_input(lw->graph, op, shape.bias);
  int32_t out_c = weights->dims[0], kh = weights->dims[1], kw = weights->dims[2];
  uint64_t packed, bias_offset;
  tflaccel_status status = lower_pack_conv_weights(lw, weights, out_c, kh, kw, weights->dims[3], &packed);
  if (status == NULL) status = lower_pack_bias(lw, bias, out_c, &bias_offset);
  uint32_t d = 0;
  if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_TRANSPOSE_CONV2D, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, op->inputs[shape.input]);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, packed);
  lower_bind_constants(lw, d, 3, bias_offset);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  int32_t values[] = {input->dims[1],
                      input->dims[2],
                      lw->tensors[op->inputs[shape.input]].shape.s,
                      kh,
                      kw,
                      shape.stride_h,
                      shape.stride_w,
                      shape.pad_top,
                      shape.pad_left};
  memcpy(k, values, sizeof values);
  lower_add_activation(lw, d, shape.activation);
  return lower_finish(lw, d, 4, op->outputs[0]);
}
