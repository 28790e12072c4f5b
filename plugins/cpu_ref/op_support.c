#include "config.h"

#include <stdio.h>

#include "plugins/cpu_ref/kernels/kernel_util.h"
#include "plugins/cpu_ref/op_support.h"

/* Dims above this are not something any kernel indexes. */
#define MAX_TENSOR_RANK 16

/* Checks what every kernel relies on: the tensor's byte size matches its
 * shape and dtype, and a constant carries all its bytes. */
static int check_tensor(const tflaccel_graph_view *graph, uint32_t index, const char *role,
                        uint32_t position, char *reason) {
  if (index >= graph->tensor_count)
    return cpu_reason(reason, "%s %u names tensor %u, the graph has %u", role, position, index,
                      graph->tensor_count);
  const tflaccel_tensor_desc *tensor = &graph->tensors[index];
  size_t element_size = cpu_dtype_size(tensor->dtype);
  if (element_size == 0)
    return cpu_reason(reason, "tensor %u '%s' has dtype %s, which cpu_ref does not handle",
                      index, tensor->name, cpu_dtype_name(tensor->dtype));
  if (tensor->rank > MAX_TENSOR_RANK || (tensor->rank > 0 && tensor->dims == NULL))
    return cpu_reason(reason, "tensor %u '%s' has an unusable rank %u", index, tensor->name,
                      tensor->rank);
  uint64_t count = 1;
  for (uint32_t i = 0; i < tensor->rank; i++) {
    if (tensor->dims[i] < 0)
      return cpu_reason(reason, "tensor %u '%s' has a dynamic or negative dim %d", index,
                        tensor->name, tensor->dims[i]);
    count *= (uint64_t)tensor->dims[i];
    if (count > ((uint64_t)1 << 40))
      return cpu_reason(reason, "tensor %u '%s' is too large", index, tensor->name);
  }
  if (tensor->byte_size != count * element_size)
    return cpu_reason(reason, "tensor %u '%s': byte_size %llu does not match its shape (%llu)",
                      index, tensor->name, (unsigned long long)tensor->byte_size,
                      (unsigned long long)(count * element_size));
  if ((tensor->flags & TFLACCEL_TENSOR_CONSTANT) && tensor->data == NULL)
    return cpu_reason(reason, "constant tensor %u '%s' has no data", index, tensor->name);
  if (tensor->data != NULL && tensor->data_size < tensor->byte_size)
    return cpu_reason(reason, "tensor %u '%s' holds %llu bytes of data, its shape needs %llu",
                      index, tensor->name, (unsigned long long)tensor->data_size,
                      (unsigned long long)tensor->byte_size);
  if (tensor->quantization.count > 0 && tensor->quantization.scales == NULL)
    return cpu_reason(reason, "tensor %u '%s' has quantization without scales", index,
                      tensor->name);
  return 1;
}

/* The dtype that names the op's type family in messages: its first
 * non-constant input (weights may be of another type), else input 0. */
static int32_t op_data_dtype(const tflaccel_graph_view *graph, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *first = NULL;
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *tensor = cpu_op_input(graph, op, i);
    if (tensor == NULL) continue;
    if (first == NULL) first = tensor;
    if (!cpu_is_constant(tensor)) return tensor->dtype;
  }
  if (first != NULL) return first->dtype;
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  return output != NULL ? output->dtype : TFLACCEL_DTYPE_FLOAT32;
}

const cpu_kernel *cpu_op_kernel(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                char *reason) {
  reason[0] = '\0';
  if ((op->input_count > 0 && op->inputs == NULL) || (op->output_count > 0 && op->outputs == NULL) ||
      op->params == NULL) {
    cpu_reason(reason, "%s: the op lacks its input, output or parameter list", cpu_op_name(op));
    return NULL;
  }
  /* Indices first: kernel lookup reads the tensors' dtypes. */
  for (uint32_t i = 0; i < op->input_count + op->output_count; i++) {
    int is_input = i < op->input_count;
    uint32_t tensor = is_input ? op->inputs[i] : op->outputs[i - op->input_count];
    if (tensor != TFLACCEL_NO_TENSOR && tensor >= graph->tensor_count) {
      cpu_reason(reason, "%s %u names tensor %u, the graph has %u", is_input ? "input" : "output",
                 is_input ? i : i - op->input_count, tensor, graph->tensor_count);
      return NULL;
    }
  }
  /* Custom kernels, then the quantized table, as cpu_kernel_lookup does;
   * when a kernel declines (say, a case the quantized table leaves to the
   * dtype-generic one), the next gets its turn, and the first refusal is
   * the reason given. */
  const cpu_kernel *candidates[3] = {cpu_custom_kernel_find(graph, op),
                                     cpu_quantized_kernel_find(graph, op),
                                     cpu_generic_kernel_find(graph, op)};
  if (candidates[0] == NULL && candidates[1] == NULL && candidates[2] == NULL) {
    if (op->code == TFLACCEL_OP_CUSTOM)
      cpu_reason(reason, "no cpu_ref kernel for CUSTOM op '%s'",
                 op->custom_code != NULL ? op->custom_code : "");
    else
      cpu_reason(reason, "cpu_ref has no kernel for op code #%d (%s) with %s inputs", op->code,
                 cpu_op_name(op), cpu_dtype_name(op_data_dtype(graph, op)));
    return NULL;
  }
  /* What every kernel relies on, before any kernel looks further. */
  for (uint32_t i = 0; i < op->input_count; i++) {
    if (op->inputs[i] == TFLACCEL_NO_TENSOR) continue;
    if (!check_tensor(graph, op->inputs[i], "input", i, reason)) return NULL;
  }
  for (uint32_t i = 0; i < op->output_count; i++) {
    if (op->outputs[i] == TFLACCEL_NO_TENSOR) continue;
    if (!check_tensor(graph, op->outputs[i], "output", i, reason)) return NULL;
    if (cpu_is_constant(&graph->tensors[op->outputs[i]])) {
      cpu_reason(reason, "output %u is the constant tensor %u", i, op->outputs[i]);
      return NULL;
    }
  }
  char refusal[TFLACCEL_REASON_SIZE];
  refusal[0] = '\0';
  int refused = 0;
  for (int i = 0; i < 3; i++) {
    const cpu_kernel *kernel = candidates[i];
    if (kernel == NULL) continue;
    reason[0] = '\0';
    if (kernel->check(graph, op, reason)) return kernel;
    if (!refused) {
      if (reason[0] == '\0') cpu_reason(reason, "%s: declined by its kernel", cpu_op_name(op));
      snprintf(refusal, sizeof refusal, "%s", reason);
    }
    refused = 1;
  }
  snprintf(reason, TFLACCEL_REASON_SIZE, "%s", refusal);
  return NULL;
}
