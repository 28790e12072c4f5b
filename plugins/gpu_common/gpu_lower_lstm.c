/* Lowering of LSTM with the basic kernel (TFLite's LstmCell; gpu_support.c
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

#include "plugins/gpu_common/gpu_lowering_internal.h"

/* Ends a dispatch whose output the next dispatch reads: stored as it is,
 * no consumer fused into it (that would leave it unwritten). */
static tflaccel_status finish_intermediate(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  tflaccel_status status = lower_bind_output(lw, dispatch, tensor);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[tensor].shape;
  lower_set_work(lw, dispatch, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return NULL;
}

tflaccel_status lower_lstm(gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_LSTM_GATES))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED, "%s: LSTM needs the lstm_gates kernel, "
                                 "which this backend does not offer", lw->backend->plugin_name);
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
