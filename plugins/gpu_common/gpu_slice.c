/* STRIDED_SLICE planning (gpu_slice.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_slice.h"

int64_t gpu_index_value(const tflaccel_tensor_desc *tensor, int64_t i) {
  if (tensor->dtype == TFLACCEL_DTYPE_INT64) {
    int64_t value;
    memcpy(&value, (const char *)tensor->data + i * 8, 8);
    return value;
  }
  int32_t value;
  memcpy(&value, (const char *)tensor->data + i * 4, 4);
  return value;
}

static int64_t clamp64(int64_t value, int64_t low, int64_t high) {
  return value < low ? low : (value > high ? high : value);
}

static const tflaccel_tensor_desc *input_of(const tflaccel_graph_view *graph,
                                            const tflaccel_op_desc *op, uint32_t index) {
  if (index >= op->input_count || op->inputs[index] >= graph->tensor_count) return NULL;
  return &graph->tensors[op->inputs[index]];
}

int gpu_slice_plan(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, gpu_slice_box *box,
                   char *reason, size_t reason_size) {
  const tflaccel_tensor_desc *input = input_of(graph, op, 0);
  const tflaccel_tensor_desc *spec[3] = {input_of(graph, op, 1), input_of(graph, op, 2),
                                         input_of(graph, op, 3)};
  if (input == NULL || spec[0] == NULL || spec[1] == NULL || spec[2] == NULL) {
    snprintf(reason, reason_size, "STRIDED_SLICE needs input, begin, end and strides");
    return 0;
  }
  int64_t count = -1;
  for (int i = 0; i < 3; ++i) {
    const tflaccel_tensor_desc *t = spec[i];
    if ((t->dtype != TFLACCEL_DTYPE_INT32 && t->dtype != TFLACCEL_DTYPE_INT64) ||
        !(t->flags & TFLACCEL_TENSOR_CONSTANT) || t->data == NULL || t->rank != 1 ||
        (count >= 0 && t->dims[0] != count)) {
      snprintf(
          reason, reason_size,
          "STRIDED_SLICE begin, end and strides must be constant 1-D int32/int64 of one length");
      return 0;
    }
    count = t->dims[0];
  }
  uint32_t rank = input->rank;
  if (rank > GPU_SLICE_MAX_SPEC || count > GPU_SLICE_MAX_SPEC) {
    snprintf(reason, reason_size, "STRIDED_SLICE of rank above %d", GPU_SLICE_MAX_SPEC);
    return 0;
  }
  const tflaccel_strided_slice_params *params = &op->params->strided_slice;
  uint32_t ellipsis = (uint32_t)params->ellipsis_mask, new_axis = (uint32_t)params->new_axis_mask;
  int64_t ellipsis_at = -1;
  for (int64_t i = 0; i < count && ellipsis_at < 0; i++)
    if (ellipsis & (1u << i)) ellipsis_at = i;
  int64_t new_axes_after = 0;
  if (ellipsis_at >= 0)
    for (int64_t i = ellipsis_at + 1; i < count; i++)
      if ((new_axis & (1u << i)) && !(ellipsis & (1u << i))) new_axes_after++;
  box->rank = rank;
  box->final_rank = 0;
  uint32_t dim = 0;
  for (int64_t i = 0; i < count; i++) {
    uint32_t bit = 1u << i;
    if (ellipsis & bit) {
      int64_t next = (int64_t)rank - (count - i) + 1 + new_axes_after;
      if (next > (int64_t)rank) next = rank;
      for (; (int64_t)dim < next; dim++) {
        box->start[dim] = 0;
        box->stride[dim] = 1;
        box->size[dim] = input->dims[dim];
        box->final_dims[box->final_rank++] = input->dims[dim];
      }
      continue;
    }
    if (new_axis & bit) {
      box->final_dims[box->final_rank++] = 1;
      continue;
    }
    if (dim >= rank) {
      snprintf(reason, reason_size, "STRIDED_SLICE has more index entries than input dims");
      return 0;
    }
    int64_t extent = input->dims[dim];
    int64_t b = gpu_index_value(spec[0], i), e = gpu_index_value(spec[1], i);
    int64_t s = gpu_index_value(spec[2], i);
    if (s == 0) {
      snprintf(reason, reason_size, "STRIDED_SLICE entry %lld has stride 0", (long long)i);
      return 0;
    }
    if (params->offset) e += b;
    if (params->shrink_axis_mask & bit) {
      int64_t index = b < 0 ? b + extent : b;
      if (index < 0 || index >= extent) {
        snprintf(reason, reason_size, "STRIDED_SLICE index %lld is outside dim %u", (long long)b,
                 dim);
        return 0;
      }
      box->start[dim] = index;
      box->stride[dim] = 1;
      box->size[dim] = 1;
      dim++;
      continue;
    }
    int64_t first, stop;
    if (params->begin_mask & bit) {
      first = s > 0 ? 0 : extent - 1;
    } else {
      first = b < 0 ? b + extent : b;
      first = s > 0 ? clamp64(first, 0, extent) : clamp64(first, -1, extent - 1);
    }
    if (params->end_mask & bit) {
      stop = s > 0 ? extent : -1;
    } else {
      stop = e < 0 ? e + extent : e;
      stop = s > 0 ? clamp64(stop, 0, extent) : clamp64(stop, -1, extent - 1);
    }
    int64_t length = s > 0 ? (stop - first + s - 1) / s : (first - stop - s - 1) / (-s);
    if (length < 0) length = 0;
    box->start[dim] = first;
    box->stride[dim] = s;
    box->size[dim] = length;
    box->final_dims[box->final_rank++] = length;
    dim++;
  }
  for (; dim < rank; dim++) {
    box->start[dim] = 0;
    box->stride[dim] = 1;
    box->size[dim] = input->dims[dim];
    box->final_dims[box->final_rank++] = input->dims[dim];
  }
  return 1;
}
