/* SOFTMAX over the channels (gpu_softmax). */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_softmax(const gpu_support_check *check) {
  return gpu_check_same_shape(check, gpu_op_input(check->graph, check->op, 0),
                              gpu_op_output(check->graph, check->op, 0), "input and output");
}

static tflaccel_status lower_softmax(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  int32_t values[] = {gpu_float_bits(op->params->softmax.beta)};
  uint32_t d;
  tflaccel_status status =
      lower_start_dispatch(lw, GPU_KERNEL_SOFTMAX, op->inputs[0], values, 1, &d);
  if (status == NULL) status = lower_finish(lw, d, 2, op->outputs[0]);
  if (status != NULL) return status;
  gpu_dispatch *dispatch = &lw->program->dispatches[d];
  lower_set_work(lw, d, dispatch->global[0], dispatch->global[1], 1);
  return NULL;
}

static const gpu_op_builder softmax_builders[] = {
    {GPU_OP_BUILTIN(SOFTMAX), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .supports = check_softmax, .lower = lower_softmax},
};
const gpu_op_family gpu_ops_softmax = {softmax_builders,
                                       sizeof softmax_builders / sizeof softmax_builders[0]};
