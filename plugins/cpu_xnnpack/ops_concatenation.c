/* CONCATENATION, which this XNNPACK's subgraph API lacks (its Concatenate
 * nodes came later), composed from nodes it has: each input is padded with
 * zeros to the output's shape at its place along the axis, and the padded
 * tensors are summed. Every output element then is one input's element plus
 * zeros, so float32 is exact (up to the sign of a zero) and 8-bit data is
 * requantized once to the output's scale, as TFLite does; with equal scales
 * (the usual case) that is exact too. The extra passes cost little beside
 * sending the op, and the partition with it, to cpu_ref. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

/* Float32 throughout, or one 8-bit type with per-tensor quantization. */
static int check_types(xnnp_build *build, const tflaccel_op_desc *op,
                       const tflaccel_tensor_desc *output) {
  int quantized = xnnp_is_quantized8(output);
  if (output->dtype != TFLACCEL_DTYPE_FLOAT32 && !quantized)
    return xnnp_fail(build, "CONCATENATION on %s is left to cpu_ref",
                     xnnp_dtype_name(output->dtype));
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *input = xnnp_input(build, op, i);
    if (input == NULL) return xnnp_fail(build, "CONCATENATION input %u is absent", i);
    if (input->dtype != output->dtype || (quantized && !xnnp_is_quantized8(input)))
      return xnnp_fail(build, "CONCATENATION of %s into %s is left to cpu_ref",
                       xnnp_dtype_name(input->dtype), xnnp_dtype_name(output->dtype));
    if (input->rank != output->rank)
      return xnnp_fail(build, "CONCATENATION input %u has rank %u, the output %u", i,
                       input->rank, output->rank);
  }
  return 1;
}

/* The axis in [0, rank), with the inputs' extents along it summing to the
 * output's and every other dim equal. */
static int check_shapes(xnnp_build *build, const tflaccel_op_desc *op,
                        const tflaccel_tensor_desc *output, uint32_t *axis_out) {
  int32_t rank = (int32_t)output->rank, axis = op->params->concatenation.axis;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank)
    return xnnp_fail(build, "CONCATENATION axis %d for rank %d", op->params->concatenation.axis,
                     rank);
  int64_t total = 0;
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *input = xnnp_input(build, op, i);
    for (int32_t d = 0; d < rank; d++)
      if (d != axis && input->dims[d] != output->dims[d])
        return xnnp_fail(build, "CONCATENATION input %u differs from the output in dim %d", i, d);
    total += input->dims[axis];
  }
  if (total != output->dims[axis])
    return xnnp_fail(build, "CONCATENATION inputs sum to %lld along axis %d, the output has %d",
                     (long long)total, axis, output->dims[axis]);
  *axis_out = (uint32_t)axis;
  return 1;
}

int xnnp_define_concatenation(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *output = xnnp_output(build, op, 0);
  if (output == NULL || op->input_count == 0)
    return xnnp_fail(build, "CONCATENATION lacks its inputs or output");
  uint32_t axis = 0;
  if (!check_types(build, op, output) || !check_shapes(build, op, output, &axis)) return 0;
  float output_min, output_max;
  if (!xnnp_activation_range(build, op->params->concatenation.fused_activation, &output_min,
                             &output_max))
    return 0;
  size_t dims[XNN_MAX_TENSOR_DIMS];
  uint32_t out;
  if (!xnnp_tensor_dims(build, op->outputs[0], dims) || !xnnp_value(build, op->outputs[0], &out))
    return 0;
  xnn_subgraph_t s = build->subgraph;
  uint32_t rank = output->rank;
  if (op->input_count == 1) {
    /* A copy (a reshape to the same shape), clamped if an activation asks. */
    uint32_t in;
    if (!xnnp_value(build, op->inputs[0], &in)) return 0;
    if (!xnnp_same_type(xnnp_input(build, op, 0), output))
      return xnnp_fail(build, "CONCATENATION of one input that changes its quantization");
    enum xnn_status status = isinf(output_min) && isinf(output_max)
                                 ? xnn_define_static_reshape(s, rank, dims, in, out, 0)
                                 : xnn_define_clamp(s, output_min, output_max, in, out, 0);
    if (status != xnn_status_success)
      return xnnp_fail(build, "XNNPACK rejects this CONCATENATION (status %d)", (int)status);
    return 1;
  }
  uint32_t sum = XNN_INVALID_VALUE_ID;
  size_t offset = 0;
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *input = xnnp_input(build, op, i);
    size_t before[XNN_MAX_TENSOR_DIMS] = {0}, after[XNN_MAX_TENSOR_DIMS] = {0};
    before[axis] = offset;
    offset += (size_t)input->dims[axis];
    after[axis] = dims[axis] - offset;
    uint32_t in, padded, next;
    /* The padded input keeps its own quantization (XNNPACK's pad does);
     * its zeros are its zero point. */
    if (!xnnp_value(build, op->inputs[i], &in) ||
        !xnnp_internal_value(build, input, input->dtype, rank, dims, &padded))
      return 0;
    enum xnn_status status = xnn_define_static_constant_pad(s, before, after, 0.0f, in, padded, 0);
    if (status != xnn_status_success)
      return xnnp_fail(build, "XNNPACK rejects the padding of CONCATENATION input %u (status %d)",
                       i, (int)status);
    if (i == 0) {
      sum = padded;
      continue;
    }
    int last = i + 1 == op->input_count;
    if (last)
      next = out;
    else if (!xnnp_internal_value(build, output, output->dtype, rank, dims, &next))
      return 0;
    status = xnn_define_add2(s, last ? output_min : -INFINITY, last ? output_max : INFINITY, sum,
                             padded, next, 0);
    if (status != xnn_status_success)
      return xnnp_fail(build, "XNNPACK rejects the sum for CONCATENATION input %u (status %d)", i,
                       (int)status);
    sum = next;
  }
  return 1;
}
