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
static tflaccel_status pack_conv_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
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
static tflaccel_status pack_bias(gpu_lowering *lw, const tflaccel_tensor_desc *bias, int32_t out_c,
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
  int32_t in_h, in_w;
  int32_t kh, kw, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int32_t activation;
  const tflaccel_tensor_desc *weights, *bias; /* weights as [O][KH][KW][I] */
  int32_t out_c, in_c;
} conv_setup;

/* Packs w(o, tap) (tap = (ky * KW + kx) * I + i) as [tap][O padded to
 * slices] scalars, the layout gpu_conv_ordered reads one output channel
 * per work item. */
static tflaccel_status pack_ordered_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                            int32_t out_c, int32_t taps, uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t padded = (out_c + 3) / 4 * 4;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)taps * padded * program->element_size, WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  for (int32_t o = 0; o < out_c; ++o)
    for (int32_t tap = 0; tap < taps; ++tap)
      gpu_program_store_constant(program, *offset, (uint64_t)tap * padded + (uint64_t)o,
                                 read_float(weights, (int64_t)o * taps + tap));
  return NULL;
}

/* Work items below which a convolution with a large receptive field gets
 * more parallel: with few items each waits on one dependent load after
 * another. Every output channel gets its own item, in cpu_ref's summation
 * order (some models, pose_landmark_lite, amplify any other order past
 * rtol_fp32); in fp16, 1x1 layers split each sum over a work group. */
#define FEW_ITEMS 65536
#define MIN_TAPS 64
#define SPLIT_MIN_INPUT_SLICES 16
#define ORDERED_MAX_TAPS 4096 /* the local copy of one receptive field */
#define ORDERED_GROUP 64

static tflaccel_status emit_conv(gpu_lowering *lw, const conv_setup *setup, uint32_t output) {
  gpu_shape out = lw->tensors[output].shape;
  int32_t in_s = lw->tensors[setup->input].shape.s;
  int32_t taps = setup->kh * setup->kw * setup->in_c;
  int few_items = gpu_shape_pixels(out) * out.s < FEW_ITEMS && taps >= MIN_TAPS;
  int split = few_items && lw->program->storage != GPU_STORAGE_FLOAT32 && setup->kh == 1 &&
              setup->kw == 1 && setup->pad_top == 0 && setup->pad_left == 0 &&
              in_s >= SPLIT_MIN_INPUT_SLICES;
  int ordered = few_items && !split && taps <= ORDERED_MAX_TAPS;
  int32_t kernel = split     ? GPU_KERNEL_CONV2D_SPLIT
                   : ordered ? GPU_KERNEL_CONV_ORDERED
                             : GPU_KERNEL_CONV2D;
  uint64_t weights, bias;
  tflaccel_status status =
      ordered ? pack_ordered_weights(lw, setup->weights, setup->out_c, taps, &weights)
              : pack_conv_weights(lw, setup->weights, setup->out_c, setup->kh, setup->kw,
                                  setup->in_c, &weights);
  if (status == NULL) status = pack_bias(lw, setup->bias, setup->out_c, &bias);
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
    /* Groups of 64 output channels, one pixel each. */
    uint32_t channels = (uint32_t)out.s * 4;
    dispatch->global[0] = (channels + ORDERED_GROUP - 1) / ORDERED_GROUP * ORDERED_GROUP;
    dispatch->local[0] = ORDERED_GROUP;
    dispatch->global[1] = (uint32_t)gpu_shape_pixels(out);
    dispatch->global[2] = 1;
    dispatch->local[1] = dispatch->local[2] = 1;
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

tflaccel_status lower_conv(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *filter = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(lw->graph, op, 2);
  const tflaccel_tensor_desc *padded = gpu_op_input(lw->graph, op, 0);
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;
  lower_fused_pad pad;
  lower_fused_pad_of(lw, position, &pad);
  const tflaccel_tensor_desc *input = &lw->graph->tensors[pad.source];
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  conv_setup setup;
  memset(&setup, 0, sizeof setup);
  setup.input = pad.source;
  setup.in_h = input->dims[1];
  setup.in_w = input->dims[2];
  setup.kh = filter->dims[1];
  setup.kw = filter->dims[2];
  setup.stride_h = params->stride_h;
  setup.stride_w = params->stride_w;
  setup.dilation_h = params->dilation_h ? params->dilation_h : 1;
  setup.dilation_w = params->dilation_w ? params->dilation_w : 1;
  /* Padding follows from the (padded) input the op was given. */
  setup.pad_top =
      gpu_conv_padding(padded->dims[1], out.h, setup.kh, setup.stride_h, setup.dilation_h) +
      pad.top;
  setup.pad_left =
      gpu_conv_padding(padded->dims[2], out.w, setup.kw, setup.stride_w, setup.dilation_w) +
      pad.left;
  setup.activation = params->fused_activation;
  setup.weights = filter;
  setup.bias = bias;
  setup.out_c = filter->dims[0];
  setup.in_c = filter->dims[3];
  return emit_conv(lw, &setup, op->outputs[0]);
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
  /* The input's pixels must be the output's rows in the same order. */
  gpu_shape rows = lw->tensors[input].shape;
  if (gpu_shape_pixels(rows) != gpu_shape_pixels(out))
    return lw->host->status_make(TFLACCEL_INTERNAL,
                                 "%s: FULLY_CONNECTED rows (%lld) and outputs (%lld) disagree",
                                 lw->backend->plugin_name, (long long)gpu_shape_pixels(rows),
                                 (long long)gpu_shape_pixels(out));
  return emit_conv(lw, &setup, op->outputs[0]);
}

tflaccel_status lower_depthwise(gpu_lowering *lw, uint32_t position) {
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
  uint64_t weights, bias_offset;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)out_s * kh * kw * 4 * program->element_size, WEIGHT_ALIGNMENT,
      &weights);
  if (status == NULL) status = pack_bias(lw, bias, out_c, &bias_offset);
  if (status != NULL) return status;
  for (int32_t ky = 0; ky < kh; ++ky)
    for (int32_t kx = 0; kx < kw; ++kx)
      for (int32_t o = 0; o < out_c; ++o)
        gpu_program_store_constant(
            program, weights, (((uint64_t)(o / 4) * kh + ky) * kw + kx) * 4 + (uint64_t)(o % 4),
            read_float(filter, ((int64_t)ky * kw + kx) * out_c + o));
  uint32_t d;
  status = lower_add_dispatch(lw, GPU_KERNEL_DEPTHWISE_CONV2D, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, pad.source);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, weights);
  lower_bind_constants(lw, d, 3, bias_offset);
  int32_t *k = gpu_program_params(program, d) + GPU_P_KERNEL;
  int32_t values[] = {input->dims[1],
                      input->dims[2],
                      lw->tensors[pad.source].shape.s,
                      kh,
                      kw,
                      params->stride_h,
                      params->stride_w,
                      dh,
                      dw,
                      gpu_conv_padding(padded->dims[1], out.h, kh, params->stride_h, dh) + pad.top,
                      gpu_conv_padding(padded->dims[2], out.w, kw, params->stride_w, dw) + pad.left,
                      out_c / input->dims[3]};
  memcpy(k, values, sizeof values);
  lower_add_activation(lw, d, params->fused_activation);
  return lower_finish(lw, d, 4, op->outputs[0]);
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
  tflaccel_status status = pack_conv_weights(lw, weights, out_c, kh, kw, weights->dims[3], &packed);
  if (status == NULL) status = pack_bias(lw, bias, out_c, &bias_offset);
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
