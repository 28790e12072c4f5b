/* STRIDED_SLICE, any fixed-size dtype, with TensorFlow's full semantics:
 * begin/end/ellipsis/new-axis/shrink-axis masks, negative indices and
 * strides, and the offset option (end counts from begin). begin, end and
 * strides must be constant; the result's shape must equal the output's. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define SLICE_MAX_RANK 16

/* The slice over each input dim, and the output shape it gives. */
typedef struct slice_plan {
  uint32_t rank; /* the input's */
  int64_t start[SLICE_MAX_RANK], stride[SLICE_MAX_RANK], size[SLICE_MAX_RANK];
  uint32_t final_rank;
  int64_t final_dims[2 * SLICE_MAX_RANK];
} slice_plan;

static int64_t clamp64(int64_t value, int64_t low, int64_t high) {
  return value < low ? low : (value > high ? high : value);
}

static int plan_slice(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      const void *begin_data, const void *end_data, const void *strides_data,
                      slice_plan *plan, char *reason) {
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *begin = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *end = cpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *strides = cpu_op_input(graph, op, 3);
  const tflaccel_strided_slice_params *params = &op->params->strided_slice;
  int64_t spec_count = cpu_element_count(begin);
  uint32_t rank = input->rank;
  if (rank > SLICE_MAX_RANK || spec_count > SLICE_MAX_RANK || spec_count > 31)
    return cpu_reason(reason, "STRIDED_SLICE: rank above %d", SLICE_MAX_RANK);
  uint32_t ellipsis = (uint32_t)params->ellipsis_mask;
  uint32_t new_axis = (uint32_t)params->new_axis_mask;
  int64_t ellipsis_at = -1;
  for (int64_t i = 0; i < spec_count; i++)
    if (ellipsis & (1u << i)) {
      ellipsis_at = i;
      break;
    }
  int64_t new_axes_after_ellipsis = 0;
  if (ellipsis_at >= 0)
    for (int64_t i = ellipsis_at + 1; i < spec_count; i++)
      if ((new_axis & (1u << i)) && !(ellipsis & (1u << i))) new_axes_after_ellipsis++;

  plan->rank = rank;
  plan->final_rank = 0;
  uint32_t dim = 0;
  /* A full-range dim (ellipsis or implicit trailing dims). */
#define FULL_DIM()                                              \
  do {                                                          \
    plan->start[dim] = 0;                                       \
    plan->stride[dim] = 1;                                      \
    plan->size[dim] = input->dims[dim];                         \
    plan->final_dims[plan->final_rank++] = input->dims[dim];    \
    dim++;                                                      \
  } while (0)
  for (int64_t i = 0; i < spec_count; i++) {
    uint32_t bit = 1u << i;
    if (ellipsis & bit) {
      int64_t next = (int64_t)rank - (spec_count - i) + 1 + new_axes_after_ellipsis;
      if (next > rank) next = rank;
      while ((int64_t)dim < next) FULL_DIM();
      continue;
    }
    if (new_axis & bit) {
      plan->final_dims[plan->final_rank++] = 1;
      continue;
    }
    if (dim >= rank)
      return cpu_reason(reason, "STRIDED_SLICE: more index entries than input dims (%u)", rank);
    int64_t size_d = input->dims[dim];
    int64_t b = cpu_read_index(begin, begin_data, i);
    int64_t e = cpu_read_index(end, end_data, i);
    int64_t s = cpu_read_index(strides, strides_data, i);
    if (s == 0) return cpu_reason(reason, "STRIDED_SLICE: entry %lld has stride 0", (long long)i);
    if (params->offset) e += b;
    if (params->shrink_axis_mask & bit) {
      int64_t index = b < 0 ? b + size_d : b;
      if (index < 0 || index >= size_d)
        return cpu_reason(reason, "STRIDED_SLICE: index %lld is outside dim %u of size %lld",
                          (long long)b, dim, (long long)size_d);
      plan->start[dim] = index;
      plan->stride[dim] = 1;
      plan->size[dim] = 1;
      dim++;
      continue;
    }
    int64_t start, stop;
    if (params->begin_mask & bit) {
      start = s > 0 ? 0 : size_d - 1;
    } else {
      start = b < 0 ? b + size_d : b;
      start = s > 0 ? clamp64(start, 0, size_d) : clamp64(start, -1, size_d - 1);
    }
    if (params->end_mask & bit) {
      stop = s > 0 ? size_d : -1;
    } else {
      stop = e < 0 ? e + size_d : e;
      stop = s > 0 ? clamp64(stop, 0, size_d) : clamp64(stop, -1, size_d - 1);
    }
    int64_t length = s > 0 ? (stop - start + s - 1) / s : (start - stop + (-s) - 1) / (-s);
    if (length < 0) length = 0;
    plan->start[dim] = start;
    plan->stride[dim] = s;
    plan->size[dim] = length;
    plan->final_dims[plan->final_rank++] = length;
    dim++;
  }
  while (dim < rank) FULL_DIM();
#undef FULL_DIM
  return 1;
}

static int slice_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       char *reason) {
  if (!cpu_check_arity(graph, op, 4, 4, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (input->dtype != output->dtype)
    return cpu_reason(reason, "STRIDED_SLICE: input is %s, output %s",
                      cpu_dtype_name(input->dtype), cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(input, output, reason)) return 0;
  int64_t spec_count = -1;
  for (uint32_t i = 1; i < 4; i++) {
    const tflaccel_tensor_desc *index = cpu_op_input(graph, op, i);
    if (!cpu_is_index_dtype(index->dtype) || !cpu_is_constant(index) || index->rank != 1)
      return cpu_reason(reason,
                        "STRIDED_SLICE: begin, end and strides must be constant 1-D int32/int64");
    if (spec_count >= 0 && index->dims[0] != spec_count)
      return cpu_reason(reason, "STRIDED_SLICE: begin, end and strides differ in length");
    spec_count = index->dims[0];
  }
  slice_plan plan;
  if (!plan_slice(graph, op, cpu_op_input(graph, op, 1)->data, cpu_op_input(graph, op, 2)->data,
                  cpu_op_input(graph, op, 3)->data, &plan, reason))
    return 0;
  int matches = plan.final_rank == output->rank;
  for (uint32_t i = 0; matches && i < output->rank; i++)
    matches = plan.final_dims[i] == output->dims[i];
  if (!matches)
    return cpu_reason(reason, "STRIDED_SLICE: the slice's shape (rank %u) differs from the "
                      "output's (rank %u)", plan.final_rank, output->rank);
  return 1;
}

static tflaccel_status slice_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  slice_plan plan;
  char reason[TFLACCEL_REASON_SIZE];
  if (!plan_slice(context->graph, context->op, cpu_input_data(context, 1),
                  cpu_input_data(context, 2), cpu_input_data(context, 3), &plan, reason))
    return CPU_STATUS(context, TFLACCEL_INTERNAL, "%s", reason);
  const unsigned char *in = cpu_input_data(context, 0);
  unsigned char *out = cpu_output_data(context, 0);
  size_t element_size = cpu_dtype_size(input->dtype);
  uint32_t rank = plan.rank;
  int64_t total = 1;
  for (uint32_t d = 0; d < rank; d++) total *= plan.size[d];
  if (total == 0) return NULL;
  if (rank == 0) {
    memcpy(out, in, element_size);
    return NULL;
  }
  int64_t in_strides[SLICE_MAX_RANK], index[SLICE_MAX_RANK];
  int64_t stride = 1;
  for (int d = (int)rank - 1; d >= 0; d--) {
    in_strides[d] = stride;
    stride *= input->dims[d];
    index[d] = 0;
  }
  /* Innermost runs: contiguous when the last stride is 1. */
  int64_t run = plan.size[rank - 1];
  int64_t last_step = plan.stride[rank - 1];
  for (int64_t done = 0; done < total; done += run) {
    int64_t offset = plan.start[rank - 1];
    for (uint32_t d = 0; d + 1 < rank; d++)
      offset += (plan.start[d] + index[d] * plan.stride[d]) * in_strides[d];
    if (last_step == 1) {
      memcpy(out, in + offset * element_size, (size_t)run * element_size);
      out += (size_t)run * element_size;
    } else {
      for (int64_t i = 0; i < run; i++) {
        memcpy(out, in + (offset + i * last_step) * element_size, element_size);
        out += element_size;
      }
    }
    for (int d = (int)rank - 2; d >= 0; d--) {
      if (++index[d] < plan.size[d]) break;
      index[d] = 0;
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_strided_slice = {
    .op_code = TFLACCEL_OP_STRIDED_SLICE, .check = slice_check, .eval = slice_eval};
