/* CAST to float32: inside the GPU layer every tensor already holds float
 * values (integers as exact values: an integer input is made float by the
 * partition's edge conversion, an ARG_MAX index is one), so CAST is a
 * copy. Casts to integers are declined: their values would have to be
 * rounded as TFLite truncates, and no corpus model needs them. */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_cast(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (output->dtype != TFLACCEL_DTYPE_FLOAT32)
    return gpu_decline(check, "CAST to %s: only casts to float32 run on the GPU",
                       dtype_name(output->dtype));
  switch (input->dtype) {
    case TFLACCEL_DTYPE_FLOAT32:
    case TFLACCEL_DTYPE_BOOL:
    case TFLACCEL_DTYPE_INT32:
    case TFLACCEL_DTYPE_INT16:
    case TFLACCEL_DTYPE_INT8:
    case TFLACCEL_DTYPE_UINT8: break;
    default:
      return gpu_decline(check, "CAST from %s: only float32, bool, int32, int16, int8 and "
                                "uint8 inputs run on the GPU",
                         dtype_name(input->dtype));
  }
  if (gpu_tensor_is_constant(input) && input->dtype != TFLACCEL_DTYPE_FLOAT32 &&
      input->dtype != TFLACCEL_DTYPE_BOOL)
    return gpu_decline(check, "CAST of a constant %s tensor (fold it when converting)",
                       dtype_name(input->dtype));
  if (input->quantization.count > 0)
    return gpu_decline(check, "CAST of a quantized %s tensor", dtype_name(input->dtype));
  if (input->rank > GPU_MAX_RANK)
    return gpu_decline(check, "CAST input has rank %u: GPU kernels take rank <= 4", input->rank);
  if (input->flags & TFLACCEL_TENSOR_VARIABLE)
    return gpu_decline(check, "CAST input is a variable (state) tensor");
  for (uint32_t d = 0; d < input->rank; ++d)
    if (input->dims[d] < 1) return gpu_decline(check, "CAST input is empty or has an unknown dim");
  return gpu_check_same_shape(check, input, output, "input and output");
}

static tflaccel_status lower_cast(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  int32_t start[4] = {0, 0, 0, 0}, stride[4] = {1, 1, 1, 1};
  int32_t size[4] = {in.b, in.h, in.w, in.c};
  return lower_box_gather(lw, op->inputs[0], op->outputs[0], start, stride, size);
}

static const gpu_op_builder cast_builders[] = {
    {GPU_OP_BUILTIN(CAST), .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .integer_inputs = 1u, .values = GPU_VALUES_FLOAT32_OR_BOOL, .supports = check_cast,
     .lower = lower_cast},
};
const gpu_op_family gpu_ops_cast = {cast_builders, sizeof cast_builders / sizeof cast_builders[0]};
