#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/facts/op_names.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"
#include "tflaccel/tflaccel.h"

const tflaccel_tensor_desc *cpu_op_input(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op, uint32_t index) {
  if (index >= op->input_count) return NULL;
  uint32_t tensor = op->inputs[index];
  if (tensor == TFLACCEL_NO_TENSOR || tensor >= graph->tensor_count) return NULL;
  return &graph->tensors[tensor];
}

const tflaccel_tensor_desc *cpu_op_output(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op, uint32_t index) {
  if (index >= op->output_count) return NULL;
  uint32_t tensor = op->outputs[index];
  if (tensor == TFLACCEL_NO_TENSOR || tensor >= graph->tensor_count) return NULL;
  return &graph->tensors[tensor];
}

void *cpu_input_data(const cpu_op_context *context, uint32_t index) {
  if (cpu_input_tensor(context, index) == NULL) return NULL;
  return context->tensor_data[context->op->inputs[index]];
}

void *cpu_output_data(const cpu_op_context *context, uint32_t index) {
  if (cpu_output_tensor(context, index) == NULL) return NULL;
  return context->tensor_data[context->op->outputs[index]];
}

int64_t cpu_element_count(const tflaccel_tensor_desc *tensor) {
  return cpu_dims_product(tensor, 0, tensor->rank);
}

int64_t cpu_dims_product(const tflaccel_tensor_desc *tensor, uint32_t begin, uint32_t end) {
  int64_t product = 1;
  for (uint32_t i = begin; i < end && i < tensor->rank; i++) product *= tensor->dims[i];
  return product;
}

int cpu_same_shape(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b) {
  if (a->rank != b->rank) return 0;
  for (uint32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

size_t cpu_dtype_size(int32_t dtype) { return dtype_size(dtype); }

const char *cpu_dtype_name(int32_t dtype) { return dtype_name(dtype); }

const char *cpu_op_name(const tflaccel_op_desc *op) {
  if (op->code == TFLACCEL_OP_CUSTOM && op->custom_code != NULL) return op->custom_code;
  const char *name = op_code_name(op->code);
  return name != NULL ? name : "unknown op";
}

int cpu_is_constant(const tflaccel_tensor_desc *tensor) {
  return (tensor->flags & TFLACCEL_TENSOR_CONSTANT) != 0 && tensor->data != NULL &&
         (tensor->flags & TFLACCEL_TENSOR_VARIABLE) == 0;
}

int cpu_is_quantized(const tflaccel_tensor_desc *tensor) {
  return tensor->quantization.count > 0 &&
         (tensor->dtype == TFLACCEL_DTYPE_UINT8 || tensor->dtype == TFLACCEL_DTYPE_INT8 ||
          tensor->dtype == TFLACCEL_DTYPE_INT16);
}

int cpu_same_quantization(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b) {
  const tflaccel_quantization *qa = &a->quantization, *qb = &b->quantization;
  if (!cpu_is_quantized(a) && !cpu_is_quantized(b)) return 1;
  if (qa->count != qb->count) return 0;
  for (uint32_t i = 0; i < qa->count; i++) {
    if (qa->scales[i] != qb->scales[i]) return 0;
    int32_t za = qa->zero_points != NULL ? qa->zero_points[i] : 0;
    int32_t zb = qb->zero_points != NULL ? qb->zero_points[i] : 0;
    if (za != zb) return 0;
  }
  return 1;
}

int cpu_reason(char *reason, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(reason, TFLACCEL_REASON_SIZE, format, args);
  va_end(args);
  return 0;
}

int cpu_check_arity(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                    uint32_t required_inputs, uint32_t max_inputs, uint32_t outputs,
                    char *reason) {
  if (op->input_count < required_inputs || op->input_count > max_inputs) {
    if (required_inputs == max_inputs)
      return cpu_reason(reason, "%s expects %u inputs, the op has %u", cpu_op_name(op),
                        required_inputs, op->input_count);
    return cpu_reason(reason, "%s expects %u to %u inputs, the op has %u", cpu_op_name(op),
                      required_inputs, max_inputs, op->input_count);
  }
  if (op->output_count != outputs)
    return cpu_reason(reason, "%s expects %u outputs, the op has %u", cpu_op_name(op), outputs,
                      op->output_count);
  for (uint32_t i = 0; i < required_inputs; i++)
    if (cpu_op_input(graph, op, i) == NULL)
      return cpu_reason(reason, "%s: required input %u is absent", cpu_op_name(op), i);
  for (uint32_t i = 0; i < outputs; i++)
    if (cpu_op_output(graph, op, i) == NULL)
      return cpu_reason(reason, "%s: output %u is absent", cpu_op_name(op), i);
  return 1;
}

int cpu_check_dtype(const tflaccel_tensor_desc *tensor, int32_t dtype, const char *what,
                    char *reason) {
  if (tensor->dtype == dtype) return 1;
  return cpu_reason(reason, "%s is %s, expected %s", what, cpu_dtype_name(tensor->dtype),
                    cpu_dtype_name(dtype));
}

int cpu_check_rank(const tflaccel_tensor_desc *tensor, uint32_t rank, const char *what,
                   char *reason) {
  if (tensor->rank == rank) return 1;
  return cpu_reason(reason, "%s has rank %u, expected %u", what, tensor->rank, rank);
}

int cpu_check_same_quantization(const tflaccel_tensor_desc *input,
                                const tflaccel_tensor_desc *output, char *reason) {
  if (cpu_same_quantization(input, output)) return 1;
  return cpu_reason(reason,
                    "input and output quantization differ (needs a requantizing kernel)");
}

int cpu_check_activation(int32_t activation, char *reason) {
  switch (activation) {
  case TFLACCEL_ACT_NONE:
  case TFLACCEL_ACT_RELU:
  case TFLACCEL_ACT_RELU_N1_TO_1:
  case TFLACCEL_ACT_RELU6:
    return 1;
  case TFLACCEL_ACT_TANH:
    return cpu_reason(reason, "fused activation TANH is not supported");
  case TFLACCEL_ACT_SIGN_BIT:
    return cpu_reason(reason, "fused activation SIGN_BIT is not supported");
  }
  return cpu_reason(reason, "unknown fused activation %d", activation);
}

void cpu_activation_range(int32_t activation, float *low, float *high) {
  *low = -__builtin_inff();
  *high = __builtin_inff();
  switch (activation) {
  case TFLACCEL_ACT_RELU: *low = 0.0f; break;
  case TFLACCEL_ACT_RELU6: *low = 0.0f; *high = 6.0f; break;
  case TFLACCEL_ACT_RELU_N1_TO_1: *low = -1.0f; *high = 1.0f; break;
  default: break;
  }
}

void cpu_activation_range_int32(int32_t activation, int32_t *low, int32_t *high) {
  *low = INT32_MIN;
  *high = INT32_MAX;
  switch (activation) {
  case TFLACCEL_ACT_RELU: *low = 0; break;
  case TFLACCEL_ACT_RELU6: *low = 0; *high = 6; break;
  case TFLACCEL_ACT_RELU_N1_TO_1: *low = -1; *high = 1; break;
  default: break;
  }
}

int64_t cpu_read_index(const tflaccel_tensor_desc *tensor, const void *data, int64_t i) {
  if (tensor->dtype == TFLACCEL_DTYPE_INT64) return ((const int64_t *)data)[i];
  return ((const int32_t *)data)[i];
}

int cpu_is_index_dtype(int32_t dtype) {
  return dtype == TFLACCEL_DTYPE_INT32 || dtype == TFLACCEL_DTYPE_INT64;
}

int cpu_check_broadcast(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b,
                        const tflaccel_tensor_desc *out, char *reason) {
  if (a->rank > CPU_MAX_RANK || b->rank > CPU_MAX_RANK || out->rank > CPU_MAX_RANK)
    return cpu_reason(reason, "ranks above %d are not supported", CPU_MAX_RANK);
  if (a->rank > out->rank || b->rank > out->rank)
    return cpu_reason(reason, "output rank %u is below an input's rank", out->rank);
  for (uint32_t i = 0; i < out->rank; i++) {
    /* Right-aligned: dim i of the output meets dim i - (out - in) of an input. */
    int32_t o = out->dims[i];
    int32_t da = i + a->rank >= out->rank ? a->dims[i + a->rank - out->rank] : 1;
    int32_t db = i + b->rank >= out->rank ? b->dims[i + b->rank - out->rank] : 1;
    int32_t expected = da == 1 ? db : da;
    if ((da != 1 && db != 1 && da != db) || expected != o)
      return cpu_reason(reason, "shapes do not broadcast: dim %u is %d and %d, output %d", i,
                        da, db, o);
  }
  return 1;
}

static void broadcast_strides(int64_t *strides, const tflaccel_tensor_desc *tensor) {
  int64_t stride = 1;
  for (int i = CPU_MAX_RANK - 1; i >= 0; i--) {
    int from_end = CPU_MAX_RANK - 1 - i;
    if (from_end >= (int)tensor->rank) {
      strides[i] = 0;
      continue;
    }
    int32_t dim = tensor->dims[tensor->rank - 1 - from_end];
    strides[i] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
}

void cpu_broadcast_init(cpu_broadcast *broadcast, const tflaccel_tensor_desc *a,
                        const tflaccel_tensor_desc *b, const tflaccel_tensor_desc *out) {
  for (int i = 0; i < CPU_MAX_RANK; i++) {
    int from_end = CPU_MAX_RANK - 1 - i;
    broadcast->dims[i] = from_end < (int)out->rank ? out->dims[out->rank - 1 - from_end] : 1;
  }
  broadcast_strides(broadcast->stride_a, a);
  broadcast_strides(broadcast->stride_b, b);
}

void cpu_broadcast_row(const cpu_broadcast *broadcast, int64_t row, int64_t *offset_a,
                       int64_t *offset_b) {
  int64_t rest = row, a = 0, b = 0;
  for (int d = CPU_MAX_RANK - 2; d >= 0; d--) {
    int64_t index = rest % broadcast->dims[d];
    rest /= broadcast->dims[d];
    a += index * broadcast->stride_a[d];
    b += index * broadcast->stride_b[d];
  }
  *offset_a = a;
  *offset_b = b;
}

