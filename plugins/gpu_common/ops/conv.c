/* CONV_2D and DEPTHWISE_CONV_2D (with a PAD fused into either): the rules
 * they share and their lowering, including one dispatch for a depthwise
 * layer with the 1x1 CONV_2D that reads it (and the next block's 1x1
 * expansion, GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND). */
#include "config.h"

#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_conv(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  int depthwise = op->code == TFLACCEL_OP_DEPTHWISE_CONV_2D;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = gpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input->rank != 4 || filter->rank != 4 || output->rank != 4)
    return gpu_decline(check, "%s needs 4-D input, filter and output", check->name);
  int32_t padding, stride_w, stride_h, dilation_w, dilation_h, activation;
  if (depthwise) {
    const tflaccel_depthwise_conv_2d_params *p = &op->params->depthwise_conv_2d;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
    dilation_w = p->dilation_w, dilation_h = p->dilation_h, activation = p->fused_activation;
  } else {
    const tflaccel_conv_2d_params *p = &op->params->conv_2d;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
    dilation_w = p->dilation_w, dilation_h = p->dilation_h, activation = p->fused_activation;
  }
  if (!gpu_check_constant_float(check, filter, "weights", -1)) return 0;
  int32_t out_c = depthwise ? filter->dims[3] : filter->dims[0];
  if (bias != NULL && !gpu_check_constant_float(check, bias, "bias", out_c)) return 0;
  if (!gpu_check_activation(check, activation)) return 0;
  if (stride_w < 1 || stride_h < 1 || dilation_w < 0 || dilation_h < 0)
    return gpu_decline(check, "%s: strides must be positive and dilations non-negative",
                       check->name);
  if (padding != TFLACCEL_PADDING_SAME && padding != TFLACCEL_PADDING_VALID)
    return gpu_decline(check, "%s: unknown padding %d", check->name, (int)padding);
  if (depthwise) {
    if (filter->dims[0] != 1 || input->dims[3] < 1 || out_c % input->dims[3] != 0)
      return gpu_decline(check, "%s: filter [1,KH,KW,C*M] does not fit %d input channels",
                         check->name, input->dims[3]);
  } else if (filter->dims[3] != input->dims[3]) {
    return gpu_decline(check, "%s with %d groups (grouped convolution is not supported)",
                       check->name, filter->dims[3] > 0 ? input->dims[3] / filter->dims[3] : 0);
  }
  int32_t dh = dilation_h ? dilation_h : 1, dw = dilation_w ? dilation_w : 1;
  int32_t out_h = conv_output_size(padding, input->dims[1], filter->dims[1], stride_h, dh);
  int32_t out_w = conv_output_size(padding, input->dims[2], filter->dims[2], stride_w, dw);
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h || output->dims[2] != out_w ||
      output->dims[3] != out_c)
    return gpu_decline(check, "%s: output shape does not follow from input, filter and strides",
                       check->name);
  return 1;
}

/* The setup of CONV_2D op (at position), reading through a fused PAD. */
static void conv_setup_of(const gpu_lowering *lw, uint32_t position, lower_conv_setup *setup) {
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
      conv_padding_before(padded->dims[1], out.h, setup->kh, setup->stride_h, setup->dilation_h) +
      pad.top;
  setup->pad_left =
      conv_padding_before(padded->dims[2], out.w, setup->kw, setup->stride_w, setup->dilation_w) +
      pad.left;
  setup->activation = params->fused_activation;
  setup->weights = filter;
  setup->bias = gpu_op_input(lw->graph, op, 2);
  setup->out_c = filter->dims[0];
  setup->in_c = filter->dims[3];
  setup->order_free = lower_order_is_free(lw->graph, op->outputs[0]);
}

/* A window that covers the whole input (no padding, one output pixel) over
 * whole slices is a 1x1 convolution of the input seen as one pixel of
 * KH * KW * C channels: the same bytes, and the weights' [KH][KW][I] order
 * is that pixel's channel order. (Heads of landmark models: 2x2x192 ->
 * 195.) */
static void flatten_whole_window(lower_conv_setup *setup, gpu_shape out) {
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

static tflaccel_status lower_conv(gpu_lowering *lw, uint32_t position) {
  lower_conv_setup setup;
  conv_setup_of(lw, position, &setup);
  uint32_t output = lower_op(lw, position)->outputs[0];
  if (setup.order_free) flatten_whole_window(&setup, lw->tensors[output].shape);
  return lower_emit_conv(lw, &setup, output);
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
      lw->host, program, (uint64_t)out_s * kh * kw * 4 * program->element_size,
      GPU_WEIGHT_ALIGNMENT, &setup->weights);
  if (status == NULL) status = lower_pack_bias(lw, bias, out_c, &setup->bias);
  if (status != NULL) return status;
  for (int32_t ky = 0; ky < kh; ++ky)
    for (int32_t kx = 0; kx < kw; ++kx)
      for (int32_t o = 0; o < out_c; ++o)
        gpu_program_store_constant(
            program, setup->weights,
            (((uint64_t)(o / 4) * kh + ky) * kw + kx) * 4 + (uint64_t)(o % 4),
            lower_read_float(filter, ((int64_t)ky * kw + kx) * out_c + o));
  int32_t values[12] = {
      input->dims[1],
      input->dims[2],
      lw->tensors[pad.source].shape.s,
      kh,
      kw,
      params->stride_h,
      params->stride_w,
      dh,
      dw,
      conv_padding_before(padded->dims[1], out.h, kh, params->stride_h, dh) + pad.top,
      conv_padding_before(padded->dims[2], out.w, kw, params->stride_w, dw) + pad.left,
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
  if (!gpu_activation_range(op->params->depthwise_conv_2d.fused_activation, &low, &high)) return -1;
  uint32_t value = op->outputs[0];
  const lower_tensor *lt = &lw->tensors[value];
  if (lt->is_output || lt->consumers != 1 || lt->consumer < 0 || lw->absorbed[lt->consumer])
    return -1;
  /* The fused kernel never stores the depthwise output: a quantized one
   * could not be rounded onto its grid (gpu_quant.h). */
  if (gpu_is_quantized_activation(&lw->graph->tensors[value])) return -1;
  uint32_t reader = (uint32_t)lt->consumer;
  const tflaccel_op_desc *conv = lower_op(lw, reader);
  if (conv->code != TFLACCEL_OP_CONV_2D || conv->inputs[0] != value || lw->pad_source[reader] >= 0)
    return -1;
  lower_conv_setup setup;
  conv_setup_of(lw, reader, &setup);
  if (setup.kh != 1 || setup.kw != 1 || setup.stride_h != 1 || setup.stride_w != 1 ||
      setup.pad_top != 0 || setup.pad_left != 0 || setup.in_c != lw->tensors[value].shape.c)
    return -1;
  gpu_shape out = lw->tensors[conv->outputs[0]].shape;
  const tflaccel_tensor_desc *filter = gpu_op_input(lw->graph, op, 1);
  switch (lower_conv_kernel(lw, &setup, out)) {
    case GPU_KERNEL_CONV2D: {
      /* Every item of a pixel recomputes all its depthwise slices, one
       * after another. Measured on the H200 (pose_landmark_lite): a gain up
       * to 36 taps per pixel (2 items x 2 slices x 3x3: 10 us fused against
       * 14 us for two dispatches), a loss from 144 on (64x64, 4 items x 8
       * slices x 3x3: 31 us against 21 us). */
      int64_t items =
          (out.s + lower_conv_slices_per_item(out) - 1) / lower_conv_slices_per_item(out);
      int64_t taps = items * setup.in_s * filter->dims[1] * filter->dims[2];
      return taps <= DEPTHWISE_1X1_MAX_TAPS ? (int32_t)reader : -1;
    }
    case GPU_KERNEL_CONV2D_SPLIT:
      /* The fused kernel sums in order instead: a gain over depthwise +
       * split only for short sums, or where barriers cost more (then it
       * often absorbs the next 1x1 too: expansion_reader), and never in
       * half arithmetic (long half sums lose too much). */
      if (lw->program->storage == GPU_STORAGE_HALF_MATH || lower_ordered_max_group(lw) == 0)
        return -1;
      if (setup.in_c > (lw->backend->caps.prefers_fewer_dispatches ? lower_ordered_max_taps(lw)
                                                                   : DEPTHWISE_SPLIT_MAX_INPUTS))
        return -1;
      return (int32_t)reader;
    default: return setup.in_c <= lower_ordered_max_taps(lw) ? (int32_t)reader : -1;
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
  /* The expansion reads value before its rounding onto a quantized grid. */
  if (gpu_is_quantized_activation(&lw->graph->tensors[value])) return -1;
  gpu_shape in = lw->tensors[value].shape;
  uint32_t max_group = lower_ordered_max_group(lw);
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
    lower_conv_setup setup;
    conv_setup_of(lw, p, &setup);
    const lower_tensor *out = &lw->tensors[op->outputs[0]];
    if (setup.kh != 1 || setup.kw != 1 || setup.stride_h != 1 || setup.stride_w != 1 ||
        setup.pad_top != 0 || setup.pad_left != 0 || setup.in_c != in.c || out->is_output ||
        out->storage != GPU_BUFFER_NONE ||
        (uint32_t)out->shape.s * 4 > max_group * (LOWER_ORDERED_TAPS_PER_ITEM - 1))
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
  lower_conv_setup setup;
  conv_setup_of(lw, reader, &setup);
  uint32_t output = lower_op(lw, reader)->outputs[0];
  uint64_t expand_weights, expand_bias;
  tflaccel_status status =
      lower_pack_ordered_weights(lw, setup.weights, setup.out_c, setup.in_c, &expand_weights);
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
  lower_conv_setup pw;
  conv_setup_of(lw, reader, &pw);
  uint32_t output = lower_op(lw, reader)->outputs[0];
  gpu_shape out = lw->tensors[output].shape;
  int ordered = lower_conv_kernel(lw, &pw, out) != GPU_KERNEL_CONV2D;
  uint64_t weights, bias;
  tflaccel_status status =
      ordered ? lower_pack_ordered_weights(lw, pw.weights, pw.out_c, pw.in_c, &weights)
              : lower_pack_conv_weights(lw, pw.weights, pw.out_c, 1, 1, pw.in_c, &weights);
  if (status == NULL) status = lower_pack_bias(lw, pw.bias, pw.out_c, &bias);
  uint32_t d = 0;
  if (status == NULL)
    status = lower_add_dispatch(
        lw, ordered ? GPU_KERNEL_DEPTHWISE_CONV_ORDERED : GPU_KERNEL_DEPTHWISE_CONV2D_1X1, &d);
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
  int32_t per_item = ordered ? 1 : lower_conv_slices_per_item(out);
  int32_t more[6] = {
      dw->channels,        (dw->channels + 3) / 4, dw->activation != TFLACCEL_ACT_NONE,
      gpu_float_bits(low), gpu_float_bits(high),   per_item};
  memcpy(k + 12, more, sizeof more);
  lw->absorbed[reader] = 1;
  lower_add_activation(lw, d, pw.activation);
  uint32_t written;
  status = lower_finish_to(lw, d, 5, output, &written);
  if (status != NULL) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  if (ordered) {
    uint32_t max_group = lower_ordered_max_group(lw);
    lower_set_ordered_work(dispatch, out, dw->channels, max_group);
    /* Enough items for every depthwise slice at once: each round of
     * them waits on a whole window of loads (pose_landmark_lite's 8x8x576
     * depthwise ran in three rounds of 64 items). */
    lower_widen_ordered_group(dispatch, (uint32_t)(dw->channels + 3) / 4, max_group);
    int32_t expansion = expansion_reader(lw, d, written);
    if (expansion < 0) return NULL;
    /* As many items as the expansion has channels share its work, where
     * few groups leave the GPU idle anyway (8x8 layers: 34.5 -> 27.6 us
     * with the expansion in on the H200); layers of many pixels keep their
     * narrower groups (more of them resident: pose_landmark_lite ~3% faster
     * on gpu_gl, bench/RESULTS.md). */
    if (gpu_shape_pixels(out) < WIDE_EXPANSION_MAX_PIXELS)
      lower_widen_ordered_group(
          dispatch,
          (uint32_t)lw->tensors[lower_op(lw, (uint32_t)expansion)->outputs[0]].shape.s * 4,
          max_group);
    return absorb_expansion(lw, d, (uint32_t)expansion, weights);
  }
  lower_set_work(lw, d, dispatch->global[0], dispatch->global[1],
                 (dispatch->global[2] + (uint32_t)per_item - 1) / (uint32_t)per_item);
  return NULL;
}

static tflaccel_status lower_depthwise(gpu_lowering *lw, uint32_t position) {
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

static const gpu_op_builder conv_builders[] = {
    {GPU_OP_BUILTIN(CONV_2D), .min_inputs = 2, .max_inputs = 3, .outputs = 1,
     .reads_through_pad = 1, .supports = check_conv, .lower = lower_conv},
    {GPU_OP_BUILTIN(DEPTHWISE_CONV_2D), .min_inputs = 2, .max_inputs = 3, .outputs = 1,
     .reads_through_pad = 1, .supports = check_conv, .lower = lower_depthwise},
};
const gpu_op_family gpu_ops_conv = {conv_builders, sizeof conv_builders / sizeof conv_builders[0]};
