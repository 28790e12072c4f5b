/* CONCATENATION of any fixed-size dtype (a byte copy); float32 applies the
 * fused activation afterwards. Quantized inputs must share the output's
 * quantization, else a requantizing kernel is needed. */
#include "config.h"

#include <string.h>

#include "core/facts/axis.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int concat_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  if (op->input_count < 1)
    return cpu_reason(reason, "CONCATENATION needs at least one input");
  if (!cpu_check_arity(graph, op, op->input_count, op->input_count, 1, reason)) return 0;
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_concatenation_params *params = &op->params->concatenation;
  int32_t axis = axis_normalize(params->axis, output->rank);
  if (axis < 0)
    return cpu_reason(reason, "CONCATENATION: axis %d is outside rank %u", params->axis,
                      output->rank);
  if (!cpu_check_activation(params->fused_activation, reason)) return 0;
  if (params->fused_activation != TFLACCEL_ACT_NONE && output->dtype != TFLACCEL_DTYPE_FLOAT32)
    return cpu_reason(reason, "CONCATENATION: a fused activation on %s needs a quantized kernel",
                      cpu_dtype_name(output->dtype));
  int64_t axis_total = 0;
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *input = cpu_op_input(graph, op, i);
    if (input->dtype != output->dtype)
      return cpu_reason(reason, "CONCATENATION: input %u is %s, the output %s", i,
                        cpu_dtype_name(input->dtype), cpu_dtype_name(output->dtype));
    if (!cpu_check_same_quantization(input, output, reason)) return 0;
    if (input->rank != output->rank)
      return cpu_reason(reason, "CONCATENATION: input %u has rank %u, the output %u", i,
                        input->rank, output->rank);
    for (uint32_t d = 0; d < output->rank; d++)
      if ((int32_t)d != axis && input->dims[d] != output->dims[d])
        return cpu_reason(reason, "CONCATENATION: input %u dim %u is %d, the output's %d", i, d,
                          input->dims[d], output->dims[d]);
    axis_total += input->dims[axis];
  }
  if (axis_total != output->dims[axis])
    return cpu_reason(reason, "CONCATENATION: inputs add up to %lld along axis %d, the output has %d",
                      (long long)axis_total, axis, output->dims[axis]);
  return 1;
}

static tflaccel_status concat_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const tflaccel_concatenation_params *params = &context->op->params->concatenation;
  int32_t axis = axis_normalize(params->axis, output->rank);
  size_t element_size = cpu_dtype_size(output->dtype);
  int64_t outer = cpu_dims_product(output, 0, (uint32_t)axis);
  int64_t inner = cpu_dims_product(output, (uint32_t)axis + 1, output->rank);
  unsigned char *out = cpu_output_data(context, 0);
  for (int64_t o = 0; o < outer; o++) {
    for (uint32_t i = 0; i < context->op->input_count; i++) {
      const tflaccel_tensor_desc *input = cpu_input_tensor(context, i);
      size_t bytes = (size_t)(input->dims[axis] * inner) * element_size;
      const unsigned char *in = cpu_input_data(context, i);
      if (bytes > 0) memcpy(out, in + (size_t)o * bytes, bytes);
      out += bytes;
    }
  }
  if (output->dtype == TFLACCEL_DTYPE_FLOAT32 && params->fused_activation != TFLACCEL_ACT_NONE) {
    float low, high;
    cpu_activation_range(params->fused_activation, &low, &high);
    float *values = cpu_output_data(context, 0);
    int64_t count = cpu_element_count(output);
    for (int64_t i = 0; i < count; i++) values[i] = cpu_clamp(values[i], low, high);
  }
  return NULL;
}

const cpu_kernel cpu_kernel_concatenation = {
    .op_code = TFLACCEL_OP_CONCATENATION, .check = concat_check, .eval = concat_eval};
