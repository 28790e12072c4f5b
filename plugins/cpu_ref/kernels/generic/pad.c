/* PAD (with zeros) and PADV2 (with a given value), any fixed-size dtype.
 * Paddings must be constant: they fix the output shape. A quantized PAD
 * whose zero point is not 0 pads with the zero point: that is the quantized
 * kernels' job, and so is any change of quantization. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define PAD_MAX_RANK 16

static int pad_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     char *reason) {
  const char *name = cpu_op_name(op);
  uint32_t max_inputs = op->code == TFLACCEL_OP_PADV2 ? 3 : 2;
  if (!cpu_check_arity(graph, op, 2, max_inputs, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *paddings = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (input->dtype != output->dtype)
    return cpu_reason(reason, "%s: input is %s, output %s", name, cpu_dtype_name(input->dtype),
                      cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(input, output, reason)) return 0;
  if (op->code == TFLACCEL_OP_PAD && cpu_is_quantized(output) &&
      output->quantization.zero_points != NULL && output->quantization.zero_points[0] != 0)
    return cpu_reason(reason, "PAD: a quantized tensor with zero point %d pads with its zero "
                      "point (quantized kernel)", output->quantization.zero_points[0]);
  if (input->rank != output->rank || input->rank > PAD_MAX_RANK)
    return cpu_reason(reason, "%s: input rank %u and output rank %u differ", name, input->rank,
                      output->rank);
  if (!cpu_is_index_dtype(paddings->dtype) || !cpu_is_constant(paddings))
    return cpu_reason(reason, "%s: paddings must be a constant int32 or int64 tensor", name);
  if (paddings->rank != 2 || paddings->dims[0] != (int32_t)input->rank || paddings->dims[1] != 2)
    return cpu_reason(reason, "%s: paddings must have shape [%u, 2]", name, input->rank);
  for (uint32_t d = 0; d < input->rank; d++) {
    int64_t before = cpu_read_index(paddings, paddings->data, 2 * d);
    int64_t after = cpu_read_index(paddings, paddings->data, 2 * d + 1);
    if (before < 0 || after < 0)
      return cpu_reason(reason, "%s: negative padding on dim %u", name, d);
    if (input->dims[d] + before + after != output->dims[d])
      return cpu_reason(reason, "%s: dim %u: %d + %lld + %lld is not the output's %d", name, d,
                        input->dims[d], (long long)before, (long long)after, output->dims[d]);
  }
  const tflaccel_tensor_desc *value = cpu_op_input(graph, op, 2);
  if (value != NULL) {
    if (value->dtype != input->dtype || cpu_element_count(value) != 1)
      return cpu_reason(reason, "PADV2: constant_values must be one %s element",
                        cpu_dtype_name(input->dtype));
    if (!cpu_same_quantization(value, output))
      return cpu_reason(reason, "PADV2: constant_values is quantized differently from the output");
  }
  return 1;
}

static tflaccel_status pad_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *paddings = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const unsigned char *in = cpu_input_data(context, 0);
  const void *padding_data = cpu_input_data(context, 1);
  const unsigned char *value = cpu_input_data(context, 2);
  unsigned char *out = cpu_output_data(context, 0);
  size_t element_size = cpu_dtype_size(input->dtype);
  int64_t out_count = cpu_element_count(output);

  /* Fill with the pad value, then copy the input's innermost rows in. */
  if (value == NULL) {
    memset(out, 0, (size_t)output->byte_size);
  } else {
    for (int64_t i = 0; i < out_count; i++) memcpy(out + i * element_size, value, element_size);
  }
  uint32_t rank = input->rank;
  if (cpu_element_count(input) == 0) return NULL;
  if (rank == 0) {
    memcpy(out, in, element_size);
    return NULL;
  }
  int64_t out_strides[PAD_MAX_RANK], before[PAD_MAX_RANK], index[PAD_MAX_RANK];
  int64_t stride = 1;
  for (int d = (int)rank - 1; d >= 0; d--) {
    out_strides[d] = stride;
    stride *= output->dims[d];
    before[d] = cpu_read_index(paddings, padding_data, 2 * d);
    index[d] = 0;
  }
  int64_t row_length = input->dims[rank - 1];
  size_t row_bytes = (size_t)row_length * element_size;
  int64_t rows = cpu_element_count(input) / row_length;
  for (int64_t row = 0; row < rows; row++) {
    int64_t offset = before[rank - 1];
    for (uint32_t d = 0; d + 1 < rank; d++) offset += (index[d] + before[d]) * out_strides[d];
    memcpy(out + offset * element_size, in + row * row_bytes, row_bytes);
    for (int d = (int)rank - 2; d >= 0; d--) {
      if (++index[d] < input->dims[d]) break;
      index[d] = 0;
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_pad = {.op_code = TFLACCEL_OP_PAD, .check = pad_check, .eval = pad_eval};
const cpu_kernel cpu_kernel_padv2 = {
    .op_code = TFLACCEL_OP_PADV2, .check = pad_check, .eval = pad_eval};
