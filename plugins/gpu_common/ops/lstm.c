/* Lowering of LSTM with the basic kernel (TFLite's LstmCell; lstm_has_kernel
 * accepts nothing else) into four dispatches:
 *   1. gpu_concat: concat_temp <- [input, prev_activ] along the channels;
 *   2. gpu_conv2d as a 1x1 convolution over the batch rows (the way
 *      FULLY_CONNECTED is lowered): activ_temp <- bias + weights .
 *      concat_temp, each sum from the bias in input-channel order, as
 *      cpu_ref adds it (not the split kernel, whose order differs);
 *   3. gpu_lstm_gates writing state;
 *   4. gpu_lstm_gates writing activ.
 * The gates are two dispatches of one kernel, not one dispatch with a
 * second output: the catalogue's contract is one output t0 per dispatch,
 * which the dense stores of partition outputs, post-op fusion and the
 * arena's producer tracking all build on; the price is recomputing the
 * state (a few flops per channel) in the second. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

/* tflaccel_lstm_params.kernel_type of TFLite's basic LSTM cell. */
#define GPU_LSTM_BASIC_KERNEL 1

/* The full kernel (24 inputs) has no GPU kernel at all: said before the
 * arity, which it would fail with a less telling message. */
static int lstm_has_kernel(const gpu_support_check *check) {
  const tflaccel_op_desc *op = check->op;
  if (op->params->lstm.kernel_type != GPU_LSTM_BASIC_KERNEL)
    return gpu_decline(check,
                       "LSTM with the full kernel (kernel_type %d) has no GPU kernel: only "
                       "the basic LSTM cell runs on the GPU",
                       (int)op->params->lstm.kernel_type);
  return 1;
}

/* LSTM, basic kernel (TFLite's LstmCell, lowered below): TANH, no
 * clipping (TFLite's basic kernel requires both), 2-D tensors (TFLite's
 * kernel takes nothing else), constant float32 weights and bias. */
static int check_lstm(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_lstm_params *params = &op->params->lstm;
  if (params->fused_activation != TFLACCEL_ACT_TANH)
    return gpu_decline(check, "LSTM basic kernel with fused activation %d (TFLite requires TANH)",
                       (int)params->fused_activation);
  if (params->cell_clip != 0.0f || params->proj_clip != 0.0f)
    return gpu_decline(check,
                       "LSTM basic kernel with cell_clip %g, proj_clip %g (TFLite requires 0)",
                       (double)params->cell_clip, (double)params->proj_clip);
  static const char *const names[9] = {"input", "prev_activ",  "weights",
                                       "bias",  "prev_state",  "activ",
                                       "state", "concat_temp", "activ_temp"};
  const tflaccel_tensor_desc *tensors[9];
  for (uint32_t i = 0; i < 9; ++i) {
    tensors[i] = i < 5 ? gpu_op_input(graph, op, i) : gpu_op_output(graph, op, i - 5);
    if (tensors[i]->rank != (i == 3 ? 1u : 2u))
      return gpu_decline(check, "LSTM %s has rank %u, the basic kernel takes %s", names[i],
                         tensors[i]->rank, i == 3 ? "a vector" : "2-D tensors only");
  }
  int32_t batch = tensors[0]->dims[0], input_depth = tensors[0]->dims[1];
  int32_t depth = tensors[1]->dims[1];
  int64_t total = (int64_t)input_depth + depth, gates = 4 * (int64_t)depth;
  if (!gpu_check_constant_float(check, tensors[2], "weights", gates * total) ||
      !gpu_check_constant_float(check, tensors[3], "bias", gates))
    return 0;
  /* [rows, columns] of every tensor but the bias. */
  const int64_t expected[9][2] = {{batch, input_depth}, {batch, depth}, {gates, total},
                                  {gates, 0},           {batch, depth}, {batch, depth},
                                  {batch, depth},       {batch, total}, {batch, gates}};
  for (uint32_t i = 0; i < 9; ++i) {
    if (i == 3) continue;
    if (tensors[i]->dims[0] != expected[i][0] || tensors[i]->dims[1] != expected[i][1])
      return gpu_decline(check, "LSTM %s is [%d, %d], expected [%lld, %lld]", names[i],
                         tensors[i]->dims[0], tensors[i]->dims[1], (long long)expected[i][0],
                         (long long)expected[i][1]);
  }
  return 1;
}

/* Ends a dispatch whose output the next dispatch reads: stored as it is,
 * no consumer fused into it (that would leave it unwritten). */
static tflaccel_status finish_intermediate(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  tflaccel_status status = lower_bind_output(lw, dispatch, tensor);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[tensor].shape;
  lower_set_work(lw, dispatch, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return NULL;
}

static tflaccel_status lower_lstm(gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_LSTM_GATES))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED,
                                 "%s: LSTM needs the lstm_gates kernel, "
                                 "which this backend does not offer",
                                 lw->backend->plugin_name);
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *weights = &lw->graph->tensors[op->inputs[2]];
  const tflaccel_tensor_desc *bias = &lw->graph->tensors[op->inputs[3]];
  uint32_t input = op->inputs[0], prev_activ = op->inputs[1], prev_state = op->inputs[4];
  uint32_t activ = op->outputs[0], state = op->outputs[1];
  uint32_t concat = op->outputs[2], activ_temp = op->outputs[3];
  gpu_shape in = lw->tensors[input].shape, previous = lw->tensors[prev_activ].shape;
  gpu_shape rows = lw->tensors[concat].shape, sums = lw->tensors[activ_temp].shape;
  int32_t depth = previous.c, total = rows.c, gates = sums.c;

  /* 1. concat_temp: channels [0, I) from the input, [I, I + D) from prev_activ. */
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_CONCAT, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, input);
  if (status == NULL) status = lower_bind_input(lw, d, 2, prev_activ);
  if (status != NULL) return status;
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  const int32_t concat_values[14] = {3,           2,          /* channel axis, two inputs */
                                     0,           in.c,       in.h,       in.w,
                                     in.c,        in.s,       in.c,       depth,
                                     previous.h,  previous.w, previous.c, previous.s};
  memcpy(k, concat_values, sizeof concat_values);
  status = finish_intermediate(lw, d, concat);
  if (status != NULL) return status;

  /* 2. activ_temp: a 1x1 convolution of concat_temp's rows. */
  uint64_t weights_offset, bias_offset;
  status = lower_pack_conv_weights(lw, weights, gates, 1, 1, total, &weights_offset);
  if (status == NULL) status = lower_pack_bias(lw, bias, gates, &bias_offset);
  if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_CONV2D, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, concat);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, weights_offset);
  lower_bind_constants(lw, d, 3, bias_offset);
  k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  /* input H, W, S; KH, KW; strides; dilations; padding; one slice per item. */
  const int32_t conv_values[12] = {sums.h, sums.w, rows.s, 1, 1, 1, 1, 1, 1, 0, 0, 1};
  memcpy(k, conv_values, sizeof conv_values);
  status = finish_intermediate(lw, d, activ_temp);
  if (status != NULL) return status;

  /* 3, 4. state, then activ; consumers of either may fuse into its dispatch. */
  const uint32_t gate_outputs[2] = {state, activ};
  for (int32_t write_activ = 0; write_activ < 2; ++write_activ) {
    status = lower_add_dispatch(lw, GPU_KERNEL_LSTM_GATES, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, activ_temp);
    if (status == NULL) status = lower_bind_input(lw, d, 2, prev_state);
    if (status != NULL) return status;
    k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
    const int32_t gate_values[4] = {depth, sums.s, lw->tensors[prev_state].shape.s, write_activ};
    memcpy(k, gate_values, sizeof gate_values);
    status = lower_finish(lw, d, 3, gate_outputs[write_activ]);
    if (status != NULL) return status;
  }
  return NULL;
}

static const gpu_op_builder lstm_builders[] = {
    {GPU_OP_BUILTIN(LSTM), .min_inputs = 5, .max_inputs = 5, .outputs = 4,
     .has_kernel = lstm_has_kernel, .supports = check_lstm, .lower = lower_lstm},
};
const gpu_op_family gpu_ops_lstm = {lstm_builders, sizeof lstm_builders / sizeof lstm_builders[0]};
