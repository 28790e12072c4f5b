/* QUANTIZE and DEQUANTIZE in the float view (gpu_quant.h): the GPU holds
 * real values, so DEQUANTIZE is the identity on them and QUANTIZE (from
 * float, or a requantization from another grid) is the rounding onto its
 * output's grid, which lower_finish adds to any dispatch that computes a
 * quantized tensor. Both are one elementwise copy, into which the
 * elementwise ops that follow are fused. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_quantize(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (!gpu_check_same_shape(check, input, output, "input and output")) return 0;
  /* An int32 output (a requantization of an int16 softmax, say) is held as
   * its real values and quantized at the partition's edge (gpu_quant.h):
   * its integers are exact in fp32 below 2^24. */
  if (!gpu_is_quantized_activation(output) && !gpu_is_quantized_int32(output))
    return gpu_decline(check,
                       "QUANTIZE output is %s, not a per-tensor quantized activation or an int32 "
                       "with one scale and zero point 0",
                       dtype_name(output->dtype));
  return 1;
}

static int check_dequantize(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (!gpu_check_same_shape(check, input, output, "input and output")) return 0;
  if (output->dtype != TFLACCEL_DTYPE_FLOAT32)
    return gpu_decline(check, "DEQUANTIZE output is %s, expected float32",
                       dtype_name(output->dtype));
  return 1;
}

static tflaccel_status lower_copy(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  uint32_t d;
  tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_ELEMENTWISE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, op->inputs[0]);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[op->inputs[0]].shape;
  lower_operand_strides(shape, shape, gpu_program_params(lw->program, d) + GPU_P_KERNEL);
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder quantize_builders[] = {
    {GPU_OP_BUILTIN(QUANTIZE), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .values = GPU_VALUES_FLOAT32, .quantized_int32_outputs = 1u, .supports = check_quantize,
     .lower = lower_copy},
    {GPU_OP_BUILTIN(DEQUANTIZE), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .values = GPU_VALUES_FLOAT32, .supports = check_dequantize, .lower = lower_copy},
};
const gpu_op_family gpu_ops_quantize = {quantize_builders,
                                        sizeof quantize_builders / sizeof quantize_builders[0]};
