/* The float view's rounding onto quantized grids (gpu_emit_quant.h). */
#include "config.h"

#include <math.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_quant.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_program.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"

int lower_needs_grid(const gpu_lowering *lw, uint32_t tensor) {
  if (tensor >= lw->graph->tensor_count || lw->tensors[tensor].on_grid) return 0;
  return gpu_is_quantized_activation(&lw->graph->tensors[tensor]);
}

/* The op of the partition that computes tensor (NULL: none). */
static const tflaccel_op_desc *producer(const gpu_lowering *lw, uint32_t tensor) {
  for (uint32_t p = 0; p < lw->partition->op_count; ++p) {
    const tflaccel_op_desc *op = lower_op(lw, p);
    if (op->output_count >= 1 && op->outputs[0] == tensor) return op;
  }
  return NULL;
}

/* Whether op averages integers in TFLite's integer kernels (rounding q,
 * not q - zero point): pooling and bilinear resize. */
static int rounds_in_integers(const tflaccel_op_desc *op) {
  return op != NULL &&
         (op->code == TFLACCEL_OP_AVERAGE_POOL_2D || op->code == TFLACCEL_OP_RESIZE_BILINEAR);
}

/* Right shifts past this round at 2^-15 LSB or finer, below the float
 * view's own error: those channels round once. It also keeps 2^shift
 * exact in float16 constants. */
#define GRID_MAX_RIGHT_SHIFT 14

/* The right shift of TFLite's fixed-point multiplier for real multiplier
 * m (QuantizeMultiplier: m = q * 2^(shift - 31), q in [2^30, 2^31)):
 * MultiplyByQuantizedMultiplier rounds the product at 2^-right shift LSB
 * first, then to the LSB. 0 when it rounds once. */
static int multiplier_right_shift(double m) {
  if (!(m > 0.0) || !isfinite(m)) return 0;
  int exponent = 0;
  double significand = frexp(m, &exponent);
  if (llround(significand * 2147483648.0) == INT64_C(2147483648)) exponent++;
  int right = -exponent;
  return right > 0 && right <= GRID_MAX_RIGHT_SHIFT ? right : 0;
}

/* TFLite's requantization of op's int32 accumulators, when op is a
 * CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED of quantized input and
 * weights: 2 when its ties break upward (int8 CONV_2D and FULLY_CONNECTED
 * run in ruy, whose x86 kernels do so), 3 when away from zero (depthwise,
 * and uint8 and int16 through gemmlowp or the reference kernels); 0 for
 * any other op. */
static int fixed_point_rounding(const gpu_lowering *lw, const tflaccel_op_desc *op) {
  if (op == NULL || (op->code != TFLACCEL_OP_CONV_2D && op->code != TFLACCEL_OP_DEPTHWISE_CONV_2D &&
                     op->code != TFLACCEL_OP_FULLY_CONNECTED))
    return 0;
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
  if (input == NULL || weights == NULL || input->quantization.count != 1 ||
      weights->quantization.count == 0)
    return 0;
  if (op->code == TFLACCEL_OP_DEPTHWISE_CONV_2D || input->dtype != TFLACCEL_DTYPE_INT8) return 3;
  return 2;
}

/* Points post at the per-channel 2^right shift of op's multipliers (1 for
 * channels that round once): one shift shared by every channel (weights
 * per tensor, or per axis with equal shifts) is held in post[3] itself, so
 * the kernel reads no operand for it; otherwise the shifts are bound as
 * argument `argument` of dispatch (*used 1). *bound 0: no channel rounds
 * twice. */
static tflaccel_status bind_grid_steps(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                       const tflaccel_op_desc *op, uint32_t tensor,
                                       int32_t post[GPU_POST_SIZE], int *bound, int *used) {
  *bound = 0;
  *used = 0;
  const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, 0);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
  const tflaccel_tensor_desc *output = &lw->graph->tensors[tensor];
  gpu_shape out = lw->tensors[tensor].shape;
  const uint32_t count = weights->quantization.count;
  if (count != 1 && count != (uint32_t)out.c) return NULL;
  int any = 0, uniform = 1, first = -1;
  for (int32_t c = 0; c < out.c; ++c) {
    int shift = multiplier_right_shift((double)input->quantization.scales[0] *
                                       (double)weights->quantization.scales[count == 1 ? 0 : c] /
                                       (double)output->quantization.scales[0]);
    any |= shift > 0;
    if (first < 0) first = shift;
    uniform &= shift == first;
  }
  if (!any) return NULL;
  *bound = 1;
  if (uniform) {
    post[2] = 0;
    post[3] = gpu_float_bits(ldexpf(1.0f, first));
    return NULL;
  }
  if (argument >= GPU_MAX_ARGS) {
    *bound = 0;
    return NULL;
  }
  gpu_shape steps = {1, 1, 1, out.c, out.s};
  uint64_t offset = 0;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, lw->program, (uint64_t)out.s * 4 * lw->program->element_size,
      LOWER_ARENA_ALIGNMENT, &offset);
  if (status != NULL) return status;
  for (int32_t c = 0; c < out.s * 4; ++c) {
    int shift = 0;
    if (c < out.c)
      shift = multiplier_right_shift((double)input->quantization.scales[0] *
                                     (double)weights->quantization.scales[count == 1 ? 0 : c] /
                                     (double)output->quantization.scales[0]);
    gpu_program_store_constant(lw->program, offset, (uint64_t)c, ldexpf(1.0f, shift));
  }
  lower_bind_constants(lw, dispatch, argument, offset);
  post[2] = (int32_t)argument;
  lower_operand_strides(steps, out, post + 3);
  *used = 1;
  return NULL;
}

static void grid_post(const gpu_lowering *lw, uint32_t tensor, int32_t post[GPU_POST_SIZE]) {
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[tensor];
  int32_t qmin = 0, qmax = 0;
  gpu_quant_range(desc->dtype, &qmin, &qmax);
  for (int i = 0; i < GPU_POST_SIZE; ++i) post[i] = 0;
  post[0] = GPU_POST_QUANTIZE;
  post[1] = rounds_in_integers(producer(lw, tensor));
  post[8] = gpu_float_bits(desc->quantization.scales[0]);
  post[9] = desc->quantization.zero_points[0];
  post[10] = qmin;
  post[11] = qmax;
}

/* A clamp to real [low, high] just before the rounding onto post's grid
 * becomes the grid's own integer range, as TFLite's integer kernels apply
 * a fused activation (the quantized activation range: zero point plus
 * low / scale and high / scale rounded, inside qmin..qmax). Rounding is
 * monotone, so clamping before it or after it gives the same integers;
 * the kernel then runs one post-op fewer. 0 when the range would be
 * empty. */
static int fold_clamp(int32_t post[GPU_POST_SIZE], const int32_t clamp[GPU_POST_SIZE]) {
  float scale = gpu_float_from_bits(post[8]), low = gpu_float_from_bits(clamp[8]),
        high = gpu_float_from_bits(clamp[9]);
  double qmin = post[10], qmax = post[11];
  if (isfinite(low)) qmin = fmax(qmin, post[9] + round((double)(low / scale)));
  if (isfinite(high)) qmax = fmin(qmax, post[9] + round((double)(high / scale)));
  if (!(qmin <= qmax)) return 0;
  post[10] = (int32_t)qmin;
  post[11] = (int32_t)qmax;
  return 1;
}

tflaccel_status lower_add_grid_post(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor,
                                    uint32_t *argument, int *added) {
  *added = 0;
  int32_t post[GPU_POST_SIZE];
  grid_post(lw, tensor, post);
  int32_t *params = gpu_program_params(lw->program, dispatch);
  int32_t *last = params + GPU_P_POSTS + GPU_POST_SIZE * (params[GPU_P_POST_COUNT] - 1);
  if (params[GPU_P_POST_COUNT] > 0 && last[0] == GPU_POST_CLAMP && fold_clamp(post, last))
    params[GPU_P_POST_COUNT]--; /* the grid post takes the clamp's place */
  if (params[GPU_P_POST_COUNT] >= GPU_MAX_POSTS) return NULL;
  const tflaccel_op_desc *op = producer(lw, tensor);
  int rounding = fixed_point_rounding(lw, op);
  if (rounding) {
    int bound = 0, used = 0;
    tflaccel_status status = bind_grid_steps(lw, dispatch, argument != NULL ? *argument : GPU_MAX_ARGS,
                                             op, tensor, post, &bound, &used);
    if (status != NULL) return status;
    if (bound) post[1] = rounding;
    if (used) ++*argument;
  }
  if (!lower_add_post(lw, dispatch, post))
    return lw->host->status_make(TFLACCEL_INTERNAL, "%s: post-op room vanished",
                                 lw->backend->plugin_name);
  lw->tensors[tensor].on_grid = 1;
  *added = 1;
  return NULL;
}

tflaccel_status lower_round_in_place(gpu_lowering *lw, uint32_t tensor) {
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_ELEMENTWISE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, tensor);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[tensor].shape;
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  lower_operand_strides(shape, shape, k);
  uint32_t argument = 2;
  int added = 0;
  status = lower_add_grid_post(lw, d, tensor, &argument, &added);
  if (status != NULL) return status;
  if (!added)
    return lw->host->status_make(TFLACCEL_INTERNAL, "%s: no post-op room in a fresh dispatch",
                                 lw->backend->plugin_name);
  status = lower_bind_output(lw, d, tensor);
  if (status != NULL) return status;
  lower_set_work(lw, d, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return NULL;
}

/* Ops whose output values are some of their inputs' values (or the zero
 * point, for PAD): on the input's grid already when the grids agree. */
static int only_moves_values(int32_t code) {
  switch (code) {
    case TFLACCEL_OP_RESHAPE: case TFLACCEL_OP_SQUEEZE: case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_PAD: case TFLACCEL_OP_PADV2: case TFLACCEL_OP_MIRROR_PAD:
    case TFLACCEL_OP_STRIDED_SLICE: case TFLACCEL_OP_SLICE: case TFLACCEL_OP_CONCATENATION:
    case TFLACCEL_OP_MAX_POOL_2D: case TFLACCEL_OP_DEPTH_TO_SPACE:
    case TFLACCEL_OP_SPACE_TO_DEPTH: case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR:
    case TFLACCEL_OP_TRANSPOSE: case TFLACCEL_OP_GATHER: case TFLACCEL_OP_GATHER_ND:
    case TFLACCEL_OP_PACK: case TFLACCEL_OP_UNPACK: case TFLACCEL_OP_SPLIT:
    case TFLACCEL_OP_SPLIT_V: case TFLACCEL_OP_MAXIMUM: case TFLACCEL_OP_MINIMUM:
      return 1;
    default:
      return 0;
  }
}

/* Every value input of op (quantized, constant or not) is on output's grid. */
static int inputs_share_grid(const gpu_lowering *lw, const tflaccel_op_desc *op,
                             const tflaccel_tensor_desc *output) {
  int any = 0;
  for (uint32_t i = 0; i < op->input_count; ++i) {
    const tflaccel_tensor_desc *input = gpu_op_input(lw->graph, op, i);
    if (input == NULL || input->dtype == TFLACCEL_DTYPE_INT32 ||
        input->dtype == TFLACCEL_DTYPE_INT64)
      continue; /* indices, shapes, paddings */
    if (!gpu_same_quantization(input, output)) return 0;
    any = 1;
  }
  return any;
}

tflaccel_status lower_round_op_outputs(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  for (uint32_t o = 0; o < op->output_count; ++o) {
    uint32_t t = op->outputs[o];
    if (t == TFLACCEL_NO_TENSOR || !lower_needs_grid(lw, t) ||
        lw->tensors[lower_storage_root(lw, t)].storage == GPU_BUFFER_NONE)
      continue; /* not quantized, already rounded, or never computed */
    if (only_moves_values(op->code) && inputs_share_grid(lw, op, &lw->graph->tensors[t])) {
      lw->tensors[t].on_grid = 1;
      continue;
    }
    if (lower_storage_root(lw, t) != t)
      return lw->host->status_make(TFLACCEL_INTERNAL,
                                   "%s: tensor %u shares storage but changes its quantization",
                                   lw->backend->plugin_name, t);
    tflaccel_status status = lower_round_in_place(lw, t);
    if (status != NULL) return status;
  }
  return NULL;
}

void lower_dense_kind_params(const gpu_lowering *lw, uint32_t t, int32_t k[5]) {
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[t];
  k[0] = lw->tensors[t].dense_kind;
  if (gpu_is_quantized_int32(desc)) {
    gpu_quantized_int32_grid(desc, k + 1); /* a QUANTIZE to int32 (FROM_SLICES only) */
    return;
  }
  if (k[0] != GPU_DENSE_UINT8 && k[0] != GPU_DENSE_INT8 && k[0] != GPU_DENSE_INT16) return;
  int quantized = desc->quantization.count > 0 && desc->quantization.scales != NULL &&
                  desc->quantization.zero_points != NULL;
  k[1] = gpu_float_bits(quantized ? desc->quantization.scales[0] : 1.0f);
  k[2] = quantized ? desc->quantization.zero_points[0] : 0;
  gpu_quant_range(desc->dtype, &k[3], &k[4]);
}
