/* Execution-order checks: one pass to find each tensor's producer, one pass
 * in op order to check that every input exists before the op reads it. */
#include "config.h"

#include <stdlib.h>

#include "core/graph/graph_validation.h"

#define NO_PRODUCER (-1)

/* Tensors that exist before the first op runs. */
static int available_at_start(const model_subgraph *subgraph, int32_t tensor) {
  const model_tensor *t = &subgraph->tensors[tensor];
  if (t->data || t->is_variable) return 1;
  /* A tensor of zero elements holds nothing to compute. */
  if (t->rank > 0 && t->element_count == 0) {
    for (uint32_t i = 0; i < t->rank; ++i)
      if (t->shape[i] == 0) return 1;
  }
  return 0;
}

static tflaccel_status check(const model_subgraph *subgraph, int32_t *producer,
                             const uint8_t *is_input) {
  for (uint32_t t = 0; t < subgraph->tensor_count; ++t) producer[t] = NO_PRODUCER;
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    const model_op *op = &subgraph->ops[o];
    for (uint32_t k = 0; k < op->output_count; ++k) {
      int32_t tensor = op->outputs[k];
      const model_tensor *t = &subgraph->tensors[tensor];
      if (producer[tensor] != NO_PRODUCER)
        return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "tensor %d ('%s') is produced by both op %d and op %u",
                                    tensor, t->name, producer[tensor], o);
      if (t->data)
        return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "op %u (%s): output %u is tensor %d ('%s'), which is a "
                                    "constant (buffer %u)", o, model_op_name(op), k, tensor,
                                    t->name, t->buffer);
      if (is_input[tensor])
        return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "op %u (%s): output %u is tensor %d ('%s'), which is a "
                                    "graph input", o, model_op_name(op), k, tensor, t->name);
      producer[tensor] = (int32_t)o;
    }
  }
  /* Second pass: a tensor is ready once its producer ran; producer[] now
   * holds -2 - op for tensors already produced, so that one array does. */
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    const model_op *op = &subgraph->ops[o];
    for (uint32_t k = 0; k < op->input_count; ++k) {
      int32_t tensor = op->inputs[k];
      if (tensor < 0 || producer[tensor] < NO_PRODUCER) continue;
      if (available_at_start(subgraph, tensor) || is_input[tensor]) continue;
      const model_tensor *t = &subgraph->tensors[tensor];
      if (producer[tensor] == NO_PRODUCER)
        return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "op %u (%s): input %u (tensor %d '%s') is not a constant, a "
                                    "graph input or a variable, and no op produces it",
                                    o, model_op_name(op), k, tensor, t->name);
      return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                  "op %u (%s): input %u (tensor %d '%s') is produced by op %d, "
                                  "which does not run before it (a cycle, or ops out of order)",
                                  o, model_op_name(op), k, tensor, t->name, producer[tensor]);
    }
    for (uint32_t k = 0; k < op->output_count; ++k)
      producer[op->outputs[k]] = -2 - (int32_t)o;
  }
  for (uint32_t k = 0; k < subgraph->output_count; ++k) {
    int32_t tensor = subgraph->outputs[k];
    if (producer[tensor] < NO_PRODUCER || available_at_start(subgraph, tensor) ||
        is_input[tensor])
      continue;
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "graph output %u (tensor %d '%s') is never produced", k, tensor,
                                subgraph->tensors[tensor].name);
  }
  return NULL;
}

tflaccel_status graph_validate_dependencies(const model_subgraph *subgraph) {
  size_t count = subgraph->tensor_count ? subgraph->tensor_count : 1;
  int32_t *producer = malloc(count * sizeof *producer);
  uint8_t *is_input = calloc(count, 1);
  if (producer == NULL || is_input == NULL) {
    free(producer);
    free(is_input);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory validating the graph");
  }
  for (uint32_t i = 0; i < subgraph->input_count; ++i) is_input[subgraph->inputs[i]] = 1;
  tflaccel_status status = check(subgraph, producer, is_input);
  free(producer);
  free(is_input);
  return status;
}
