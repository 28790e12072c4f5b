/* GATHER_ND, any fixed-size params dtype, int32 or int64 indices: the
 * output is indices.shape[:-1] + params.shape[k:], k = indices.shape[-1].
 * An index outside params is an error at run time, as in TFLite. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define GATHER_MAX_RANK 16

static int gather_nd_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                           char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *params = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *indices = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (params->dtype != output->dtype)
    return cpu_reason(reason, "GATHER_ND: params are %s, output %s",
                      cpu_dtype_name(params->dtype), cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(params, output, reason)) return 0;
  if (!cpu_is_index_dtype(indices->dtype))
    return cpu_reason(reason, "GATHER_ND: indices are %s, expected int32 or int64",
                      cpu_dtype_name(indices->dtype));
  if (indices->rank < 1 || params->rank > GATHER_MAX_RANK)
    return cpu_reason(reason, "GATHER_ND: indices need rank >= 1 and params rank <= %d",
                      GATHER_MAX_RANK);
  int32_t depth = indices->dims[indices->rank - 1];
  if (depth < 0 || (uint32_t)depth > params->rank)
    return cpu_reason(reason, "GATHER_ND: index depth %d exceeds params rank %u", depth,
                      params->rank);
  uint32_t expected_rank = indices->rank - 1 + params->rank - (uint32_t)depth;
  int matches = output->rank == expected_rank;
  for (uint32_t d = 0; matches && d < indices->rank - 1; d++)
    matches = output->dims[d] == indices->dims[d];
  for (uint32_t d = (uint32_t)depth; matches && d < params->rank; d++)
    matches = output->dims[indices->rank - 1 + d - depth] == params->dims[d];
  if (!matches) return cpu_reason(reason, "GATHER_ND: output shape does not match the gather");
  return 1;
}

static tflaccel_status gather_nd_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *params = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *indices = cpu_input_tensor(context, 1);
  const unsigned char *source = cpu_input_data(context, 0);
  const void *index_data = cpu_input_data(context, 1);
  unsigned char *out = cpu_output_data(context, 0);
  uint32_t depth = (uint32_t)indices->dims[indices->rank - 1];
  size_t slice_bytes =
      (size_t)cpu_dims_product(params, depth, params->rank) * cpu_dtype_size(params->dtype);
  int64_t strides[GATHER_MAX_RANK];
  int64_t stride = cpu_dims_product(params, depth, params->rank);
  for (int d = (int)depth - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= params->dims[d];
  }
  int64_t lookups = cpu_dims_product(indices, 0, indices->rank - 1);
  size_t element_size = cpu_dtype_size(params->dtype);
  for (int64_t n = 0; n < lookups; n++) {
    int64_t offset = 0;
    for (uint32_t d = 0; d < depth; d++) {
      int64_t index = cpu_read_index(indices, index_data, n * depth + d);
      if (index < 0 || index >= params->dims[d])
        return CPU_STATUS(context, TFLACCEL_INVALID_ARGUMENT,
                          "index %lld is outside dim %u of size %d", (long long)index,
                          d, params->dims[d]);
      offset += index * strides[d];
    }
    if (slice_bytes > 0) memcpy(out, source + offset * element_size, slice_bytes);
    out += slice_bytes;
  }
  return NULL;
}

const cpu_kernel cpu_kernel_gather_nd = {
    .op_code = TFLACCEL_OP_GATHER_ND, .check = gather_nd_check, .eval = gather_nd_eval};
