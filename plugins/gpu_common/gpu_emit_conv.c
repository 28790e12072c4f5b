/* Emitting convolutions (gpu_emit_conv.h): the weight layouts, the choice
 * among the convolution kernels and their work sizes, shared by the op
 * families that lower to a convolution (ops/conv.c, fully_connected.c,
 * transpose_conv.c, lstm.c). Weights are repacked here, once, into the
 * kernels' vector layout (see kernels/cl/conv.cl) in the program's storage
 * type. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"

float lower_read_float(const tflaccel_tensor_desc *tensor, int64_t index) {
  return gpu_constant_value(tensor, index); /* quantized weights dequantized */
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
      lw->host, program, count * program->element_size, GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  /* In the order of the packed layout, so the writes stream through
   * memory; padding channels stay zero. */
  uint64_t to = 0;
  for (int32_t os = 0; os < out_s; ++os)
    for (int32_t ky = 0; ky < kh; ++ky)
      for (int32_t kx = 0; kx < kw; ++kx)
        for (int32_t is = 0; is < in_s; ++is)
          for (int32_t ii = 0; ii < 4; ++ii)
            for (int32_t oo = 0; oo < 4; ++oo, ++to) {
              int32_t o = os * 4 + oo, i = is * 4 + ii;
              if (o >= out_c || i >= in_c) continue;
              int64_t from = (((int64_t)o * kh + ky) * kw + kx) * in_c + i;
              gpu_program_store_constant(program, *offset, to, lower_read_float(weights, from));
            }
  return NULL;
}

/* The real value of output channel o's integer bias as TFLite's integer
 * kernels read it: q * input scale * weight scale of the channel, whatever
 * scale the bias tensor itself carries; NAN when bias is not the int32 bias
 * of an op of the partition with quantized input and weights. */
static float integer_bias_value(const gpu_lowering *lw, const tflaccel_tensor_desc *bias,
                                int32_t o) {
  if (bias->dtype != TFLACCEL_DTYPE_INT32) return NAN;
  uint32_t index = (uint32_t)(bias - lw->graph->tensors);
  for (uint32_t p = 0; p < lw->partition->op_count; ++p) {
    const tflaccel_op_desc *op = lower_op(lw, p);
    uint32_t data = op->code == TFLACCEL_OP_TRANSPOSE_CONV ? 2 : 0;
    uint32_t slot = op->code == TFLACCEL_OP_TRANSPOSE_CONV ? 3 : 2;
    if (op->input_count <= slot || op->inputs[slot] != index) continue;
    const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, data);
    const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
    if (input == NULL || weights == NULL || input->quantization.count != 1 ||
        weights->quantization.count == 0)
      return NAN;
    uint32_t channel = weights->quantization.count > 1 ? (uint32_t)o : 0;
    if (channel >= weights->quantization.count) return NAN;
    int32_t q;
    memcpy(&q, (const char *)bias->data + (size_t)o * 4, 4);
    return (float)((double)q * input->quantization.scales[0] *
                   weights->quantization.scales[channel]);
  }
  return NAN;
}

/* One vector per output slice; zeros without a bias. */
tflaccel_status lower_pack_bias(gpu_lowering *lw, const tflaccel_tensor_desc *bias, int32_t out_c,
                                uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t out_s = (out_c + 3) / 4;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)out_s * 4 * program->element_size, GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL || bias == NULL) return status;
  for (int32_t o = 0; o < out_c; ++o) {
    float value = integer_bias_value(lw, bias, o);
    if (isnan(value)) value = lower_read_float(bias, o);
    gpu_program_store_constant(program, *offset, (uint64_t)o, value);
  }
  return NULL;
}

/* Output slices each conv work item computes: reusing every input slice
 * read for more outputs pays only while enough items remain to keep the
 * GPU busy (a few per core). */
#define BUSY_ITEMS 65536
int32_t lower_conv_slices_per_item(gpu_shape out) {
  int64_t items = gpu_shape_pixels(out) * out.s;
  if (out.s >= 8 && items >= 4 * BUSY_ITEMS) return 4;
  if (out.s >= 2 && items >= 2 * BUSY_ITEMS) return 2;
  return 1;
}

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

int lower_order_is_free(const tflaccel_graph_view *graph, uint32_t tensor) {
  return only_feeds_outputs(graph, tensor, 0);
}

/* Packs w(o, tap) (tap = (ky * KW + kx) * I + i) as [tap / 4][O padded to
 * slices][tap % 4], the taps padded to a multiple of 4 with zeros: the
 * layout the ordered kernels read one output channel per work item from,
 * four taps to a vector load, so that each item's dependent chain of adds
 * waits on a quarter of the loads (the loads, not the adds, bound those
 * kernels), and neighbouring items read neighbouring vectors. */
tflaccel_status lower_pack_ordered_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                           int32_t out_c, int32_t taps, uint64_t *offset) {
  gpu_program *program = lw->program;
  uint64_t padded = (uint64_t)(out_c + 3) / 4 * 4;
  uint64_t tap_groups = (uint64_t)(taps + 3) / 4;
  tflaccel_status status =
      gpu_program_add_constants(lw->host, program, tap_groups * padded * 4 * program->element_size,
                                GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  /* In the order of the packed layout, so the writes stream through
   * memory (each output's four taps are read together). */
  for (uint64_t group = 0; group < tap_groups; ++group)
    for (int32_t o = 0; o < out_c; ++o)
      for (int32_t t = 0; t < 4; ++t) {
        int32_t tap = (int32_t)group * 4 + t;
        if (tap >= taps) break;
        gpu_program_store_constant(program, *offset, (group * padded + (uint64_t)o) * 4 + (uint64_t)t,
                                   lower_read_float(weights, (int64_t)o * taps + tap));
      }
  return NULL;
}

/* Work items below which a convolution with a large receptive field gets
 * more parallel: with few items each waits on one dependent load after
 * another. Every output channel gets its own item, in cpu_ref's summation
 * order (some models, pose_landmark_lite, amplify any other order past
 * rtol_fp32); in fp16, or where the order is free (lower_order_is_free),
 * 1x1 layers split each sum over a work group (on the H200, 6 us where the
 * ordered sum of hand_landmark_lite's 672 -> 63 head takes 18 us). */
#define FEW_ITEMS 65536
#define MIN_TAPS 64
#define SPLIT_MIN_INPUT_SLICES 16
#define ORDERED_GROUP 64
#define ORDERED_MAX_GROUP 256 /* the kernels' ORDERED_MAX_ITEMS */

/* The largest ordered group the device runs whole (a multiple of 64; 0:
 * none), and so the most taps (one pixel's receptive field or depthwise
 * values) an ordered kernel holds. */
uint32_t lower_ordered_max_group(const gpu_lowering *lw) {
  uint32_t limit = lw->backend->caps.max_group_items;
  if (limit == 0 || limit >= ORDERED_MAX_GROUP) return ORDERED_MAX_GROUP;
  return limit / ORDERED_GROUP * ORDERED_GROUP;
}

int32_t lower_ordered_max_taps(const gpu_lowering *lw) {
  return (int32_t)(lower_ordered_max_group(lw) * LOWER_ORDERED_TAPS_PER_ITEM);
}

/* Which convolution kernel computes setup's layer into out. */
int32_t lower_conv_kernel(const gpu_lowering *lw, const lower_conv_setup *setup, gpu_shape out) {
  int32_t taps = setup->kh * setup->kw * setup->in_c;
  int few_items = gpu_shape_pixels(out) * out.s < FEW_ITEMS && taps >= MIN_TAPS;
  int split = few_items && (lw->program->storage != GPU_STORAGE_FLOAT32 || setup->order_free) &&
              setup->kh == 1 && setup->kw == 1 && setup->pad_top == 0 && setup->pad_left == 0 &&
              setup->in_s >= SPLIT_MIN_INPUT_SLICES;
  if (split) return GPU_KERNEL_CONV2D_SPLIT;
  if (few_items && taps <= lower_ordered_max_taps(lw)) return GPU_KERNEL_CONV_ORDERED;
  return GPU_KERNEL_CONV2D;
}

/* The work size of the ordered kernels: one pixel per group, as many
 * output channels per group as there are, in steps of 64 up to
 * max_group (lower_ordered_max_group). One group per pixel fills the pixel's
 * receptive field (or, fused, computes its depthwise values) once instead
 * of once per 64 channels, with more items sharing that work. */
/* items rounded up to a multiple of 64, at most max_group. */
static uint32_t ordered_group_of(uint32_t items, uint32_t max_group) {
  uint32_t group = (items + ORDERED_GROUP - 1) / ORDERED_GROUP * ORDERED_GROUP;
  return group > max_group ? max_group : group;
}

void lower_set_ordered_work(gpu_dispatch *dispatch, gpu_shape out, int32_t taps,
                            uint32_t max_group) {
  uint32_t channels = (uint32_t)out.s * 4;
  uint32_t wanted =
      (uint32_t)(taps + LOWER_ORDERED_TAPS_PER_ITEM - 1) / LOWER_ORDERED_TAPS_PER_ITEM;
  uint32_t group = ordered_group_of(wanted > channels ? wanted : channels, max_group);
  dispatch->global[0] = (channels + group - 1) / group * group;
  dispatch->local[0] = group;
  dispatch->global[1] = (uint32_t)gpu_shape_pixels(out);
  dispatch->global[2] = 1;
  dispatch->local[1] = dispatch->local[2] = 1;
}

/* Grows a one-group-wide ordered dispatch (lower_set_ordered_work) to at least
 * `items` items, in steps of 64 up to max_group. */
void lower_widen_ordered_group(gpu_dispatch *dispatch, uint32_t items, uint32_t max_group) {
  uint32_t group = ordered_group_of(items, max_group);
  if (dispatch->global[0] != dispatch->local[0] || group <= dispatch->local[0]) return;
  dispatch->global[0] = dispatch->local[0] = group;
}

tflaccel_status lower_emit_conv(gpu_lowering *lw, const lower_conv_setup *setup, uint32_t output) {
  gpu_shape out = lw->tensors[output].shape;
  int32_t in_s = setup->in_s;
  int32_t taps = setup->kh * setup->kw * setup->in_c;
  int32_t kernel = lower_conv_kernel(lw, setup, out);
  int split = kernel == GPU_KERNEL_CONV2D_SPLIT, ordered = kernel == GPU_KERNEL_CONV_ORDERED;
  uint64_t weights, bias;
  tflaccel_status status =
      ordered ? lower_pack_ordered_weights(lw, setup->weights, setup->out_c, taps, &weights)
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
  int32_t per_item = split || ordered ? 1 : lower_conv_slices_per_item(out);
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
    lower_set_ordered_work(dispatch, out, taps, lower_ordered_max_group(lw));
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
