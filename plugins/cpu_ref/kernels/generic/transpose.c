/* TRANSPOSE, any fixed-size dtype, up to rank 6, with a constant
 * permutation: output dim i is input dim perm[i]. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int transpose_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                           char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *perm = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (input->dtype != output->dtype)
    return cpu_reason(reason, "TRANSPOSE: input is %s, output %s", cpu_dtype_name(input->dtype),
                      cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(input, output, reason)) return 0;
  if (input->rank > CPU_MAX_RANK || output->rank != input->rank)
    return cpu_reason(reason, "TRANSPOSE: ranks %u -> %u (at most %d, equal)", input->rank,
                      output->rank, CPU_MAX_RANK);
  if (!cpu_is_index_dtype(perm->dtype) || !cpu_is_constant(perm) ||
      cpu_element_count(perm) != input->rank)
    return cpu_reason(reason, "TRANSPOSE: perm must be a constant int32/int64 of %u elements",
                      input->rank);
  int seen[CPU_MAX_RANK] = {0};
  for (uint32_t i = 0; i < input->rank; i++) {
    int64_t axis = cpu_read_index(perm, perm->data, i);
    if (axis < 0) axis += input->rank;
    if (axis < 0 || axis >= input->rank || seen[axis])
      return cpu_reason(reason, "TRANSPOSE: perm is not a permutation of %u axes", input->rank);
    seen[axis] = 1;
    if (output->dims[i] != input->dims[axis])
      return cpu_reason(reason, "TRANSPOSE: output dim %u is %d, input dim %lld is %d", i,
                        output->dims[i], (long long)axis, input->dims[axis]);
  }
  return 1;
}

static tflaccel_status transpose_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *perm = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const unsigned char *in = cpu_input_data(context, 0);
  unsigned char *out = cpu_output_data(context, 0);
  const void *perm_data = cpu_input_data(context, 1);
  size_t element_size = cpu_dtype_size(input->dtype);
  uint32_t rank = input->rank;
  int64_t total = cpu_element_count(output);
  if (total == 0) return NULL;
  if (rank == 0) {
    memcpy(out, in, element_size);
    return NULL;
  }
  int64_t in_strides[CPU_MAX_RANK], source_strides[CPU_MAX_RANK], index[CPU_MAX_RANK];
  int64_t stride = 1;
  for (int d = (int)rank - 1; d >= 0; d--) {
    in_strides[d] = stride;
    stride *= input->dims[d];
  }
  for (uint32_t d = 0; d < rank; d++) {
    int64_t axis = cpu_read_index(perm, perm_data, d);
    if (axis < 0) axis += rank;
    source_strides[d] = in_strides[axis]; /* input step per output step along d */
    index[d] = 0;
  }
  int64_t run = output->dims[rank - 1];
  int64_t step = source_strides[rank - 1];
  for (int64_t done = 0; done < total; done += run) {
    int64_t offset = 0;
    for (uint32_t d = 0; d + 1 < rank; d++) offset += index[d] * source_strides[d];
    switch (element_size) {
    case 1:
      for (int64_t i = 0; i < run; i++) out[i] = in[offset + i * step];
      break;
    case 4: {
      uint32_t *destination = (uint32_t *)(void *)out;
      const uint32_t *source = (const uint32_t *)(const void *)in;
      for (int64_t i = 0; i < run; i++) destination[i] = source[offset + i * step];
      break;
    }
    default:
      for (int64_t i = 0; i < run; i++)
        memcpy(out + i * element_size, in + (offset + i * step) * element_size, element_size);
      break;
    }
    out += (size_t)run * element_size;
    for (int d = (int)rank - 2; d >= 0; d--) {
      if (++index[d] < output->dims[d]) break;
      index[d] = 0;
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_transpose = {
    .op_code = TFLACCEL_OP_TRANSPOSE, .check = transpose_check, .eval = transpose_eval};
