/* The float view's rounding onto quantized grids (gpu_emit_quant.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_quant.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"

int lower_needs_grid(const gpu_lowering *lw, uint32_t tensor) {
  if (tensor >= lw->graph->tensor_count || lw->tensors[tensor].on_grid) return 0;
  return gpu_is_quantized_activation(&lw->graph->tensors[tensor]);
}

/* Whether the op of the partition that computes tensor averages integers
 * in TFLite's integer kernels (rounding q, not q - zero point): pooling
 * and bilinear resize. */
static int rounds_in_integers(const gpu_lowering *lw, uint32_t tensor) {
  for (uint32_t p = 0; p < lw->partition->op_count; ++p) {
    const tflaccel_op_desc *op = lower_op(lw, p);
    if (op->output_count < 1 || op->outputs[0] != tensor) continue;
    return op->code == TFLACCEL_OP_AVERAGE_POOL_2D || op->code == TFLACCEL_OP_RESIZE_BILINEAR;
  }
  return 0;
}

static void grid_post(const gpu_lowering *lw, uint32_t tensor, int32_t post[GPU_POST_SIZE]) {
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[tensor];
  int32_t qmin = 0, qmax = 0;
  gpu_quant_range(desc->dtype, &qmin, &qmax);
  for (int i = 0; i < GPU_POST_SIZE; ++i) post[i] = 0;
  post[0] = GPU_POST_QUANTIZE;
  post[1] = rounds_in_integers(lw, tensor);
  post[8] = gpu_float_bits(desc->quantization.scales[0]);
  post[9] = desc->quantization.zero_points[0];
  post[10] = qmin;
  post[11] = qmax;
}

int lower_add_grid_post(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  int32_t post[GPU_POST_SIZE];
  grid_post(lw, tensor, post);
  if (!lower_add_post(lw, dispatch, post)) return 0;
  lw->tensors[tensor].on_grid = 1;
  return 1;
}

tflaccel_status lower_round_in_place(gpu_lowering *lw, uint32_t tensor) {
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_ELEMENTWISE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, tensor);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[tensor].shape;
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  lower_operand_strides(shape, shape, k);
  if (!lower_add_grid_post(lw, d, tensor))
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
