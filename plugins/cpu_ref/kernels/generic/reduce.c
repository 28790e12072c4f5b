/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD over the axes of a
 * constant axis input (negative and repeated axes allowed), keep_dims or
 * not: float32, and int32 for all but MEAN (integer sums wrap). Sums
 * accumulate in float32 in the output, as TFLite's float kernels do. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/facts/axis.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define REDUCE_MAX_RANK 16

/* Marks reduced[d] for every axis; 0 with a reason when an axis is bad. */
static int reduced_axes(const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *axes,
                        const void *axes_data, int reduced[REDUCE_MAX_RANK], char *reason) {
  for (uint32_t d = 0; d < REDUCE_MAX_RANK; d++) reduced[d] = 0;
  int64_t count = cpu_element_count(axes);
  for (int64_t i = 0; i < count; i++) {
    int64_t raw = cpu_read_index(axes, axes_data, i);
    int32_t axis = axis_normalize(raw, input->rank);
    if (axis < 0)
      return cpu_reason(reason, "reduction axis %lld is outside rank %u", (long long)raw,
                        input->rank);
    reduced[axis] = 1;
  }
  return 1;
}

static int reduce_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  const char *name = cpu_op_name(op);
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *axes = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  int dtype_ok = input->dtype == TFLACCEL_DTYPE_FLOAT32 ||
                 (input->dtype == TFLACCEL_DTYPE_INT32 && op->code != TFLACCEL_OP_MEAN);
  if (!dtype_ok)
    return cpu_reason(reason, "%s: %s input is not supported", name, cpu_dtype_name(input->dtype));
  if (output->dtype != input->dtype)
    return cpu_reason(reason, "%s: output is %s, input %s", name, cpu_dtype_name(output->dtype),
                      cpu_dtype_name(input->dtype));
  if (input->rank > REDUCE_MAX_RANK) return cpu_reason(reason, "%s: rank above %d", name, REDUCE_MAX_RANK);
  if (!cpu_is_index_dtype(axes->dtype) || !cpu_is_constant(axes) || axes->rank > 1)
    return cpu_reason(reason, "%s: axes must be a constant int32/int64 scalar or vector", name);
  int reduced[REDUCE_MAX_RANK];
  if (!reduced_axes(input, axes, axes->data, reduced, reason)) return 0;
  int keep_dims = op->params->reducer.keep_dims != 0;
  uint32_t out_rank = 0;
  int32_t expected[REDUCE_MAX_RANK];
  for (uint32_t d = 0; d < input->rank; d++) {
    if (!reduced[d])
      expected[out_rank++] = input->dims[d];
    else if (keep_dims)
      expected[out_rank++] = 1;
  }
  int matches = out_rank == output->rank;
  for (uint32_t d = 0; matches && d < out_rank; d++) matches = expected[d] == output->dims[d];
  /* A full reduction without keep_dims may be stored as [1] instead of []. */
  if (!matches && out_rank == 0 && cpu_element_count(output) == 1) matches = 1;
  if (!matches) return cpu_reason(reason, "%s: output shape does not match the reduction", name);
  return 1;
}

static tflaccel_status reduce_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *axes = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  int32_t code = context->op->code;
  char reason[TFLACCEL_REASON_SIZE];
  int reduced[REDUCE_MAX_RANK];
  if (!reduced_axes(input, axes, cpu_input_data(context, 1), reduced, reason))
    return CPU_STATUS(context, TFLACCEL_INTERNAL, "%s", reason);
  int64_t out_count = cpu_element_count(output);
  int64_t in_count = cpu_element_count(input);
  int is_float = input->dtype == TFLACCEL_DTYPE_FLOAT32;
  float *out_f = cpu_output_data(context, 0);
  int32_t *out_i = cpu_output_data(context, 0);
  const float *in_f = cpu_input_data(context, 0);
  const int32_t *in_i = cpu_input_data(context, 0);

  for (int64_t i = 0; i < out_count; i++) {
    if (is_float) {
      out_f[i] = code == TFLACCEL_OP_REDUCE_MAX   ? -INFINITY
                 : code == TFLACCEL_OP_REDUCE_MIN ? INFINITY
                 : code == TFLACCEL_OP_REDUCE_PROD ? 1.0f
                                                  : 0.0f;
    } else {
      out_i[i] = code == TFLACCEL_OP_REDUCE_MAX   ? INT32_MIN
                 : code == TFLACCEL_OP_REDUCE_MIN ? INT32_MAX
                 : code == TFLACCEL_OP_REDUCE_PROD ? 1
                                                  : 0;
    }
  }
  if (in_count == 0) return NULL;

  /* Output strides over the input's dims (0 along reduced dims). */
  uint32_t rank = input->rank;
  int64_t out_strides[REDUCE_MAX_RANK], index[REDUCE_MAX_RANK];
  int64_t stride = 1, reduce_count = 1;
  for (int d = (int)rank - 1; d >= 0; d--) {
    index[d] = 0;
    if (reduced[d]) {
      out_strides[d] = 0;
      reduce_count *= input->dims[d];
    } else {
      out_strides[d] = stride;
      stride *= input->dims[d];
    }
  }
  int64_t run = rank > 0 ? input->dims[rank - 1] : 1;
  int64_t run_stride = rank > 0 ? out_strides[rank - 1] : 0;
  for (int64_t done = 0; done < in_count; done += run) {
    int64_t base = 0;
    for (uint32_t d = 0; d + 1 < rank; d++) base += index[d] * out_strides[d];
    for (int64_t k = 0; k < run; k++) {
      int64_t o = base + k * run_stride;
      int64_t i = done + k;
      if (is_float) {
        float x = in_f[i];
        switch (code) {
        case TFLACCEL_OP_REDUCE_MAX: out_f[o] = x > out_f[o] ? x : out_f[o]; break;
        case TFLACCEL_OP_REDUCE_MIN: out_f[o] = x < out_f[o] ? x : out_f[o]; break;
        case TFLACCEL_OP_REDUCE_PROD: out_f[o] *= x; break;
        default: out_f[o] += x; break;
        }
      } else {
        int32_t x = in_i[i];
        switch (code) {
        case TFLACCEL_OP_REDUCE_MAX: out_i[o] = x > out_i[o] ? x : out_i[o]; break;
        case TFLACCEL_OP_REDUCE_MIN: out_i[o] = x < out_i[o] ? x : out_i[o]; break;
        case TFLACCEL_OP_REDUCE_PROD: out_i[o] = (int32_t)((uint32_t)out_i[o] * (uint32_t)x); break;
        default: out_i[o] = (int32_t)((uint32_t)out_i[o] + (uint32_t)x); break;
        }
      }
    }
    for (int d = (int)rank - 2; d >= 0; d--) {
      if (++index[d] < input->dims[d]) break;
      index[d] = 0;
    }
  }
  if (code == TFLACCEL_OP_MEAN)
    for (int64_t i = 0; i < out_count; i++) out_f[i] = out_f[i] / (float)reduce_count;
  return NULL;
}

#define REDUCE_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = reduce_check, .eval = reduce_eval}

REDUCE_KERNEL(cpu_kernel_mean, TFLACCEL_OP_MEAN);
REDUCE_KERNEL(cpu_kernel_sum, TFLACCEL_OP_SUM);
REDUCE_KERNEL(cpu_kernel_reduce_max, TFLACCEL_OP_REDUCE_MAX);
REDUCE_KERNEL(cpu_kernel_reduce_min, TFLACCEL_OP_REDUCE_MIN);
REDUCE_KERNEL(cpu_kernel_reduce_prod, TFLACCEL_OP_REDUCE_PROD);
