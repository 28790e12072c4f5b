/* tflaccel_compiled_model_graph_*: the prepared graph's ops and tensors and
 * where each lives, read from the compiled model's plan and arena. */
#include "config.h"

#include <string.h>

#include "core/facts/op_names.h"
#include "core/runtime/compiled_model.h"

uint32_t tflaccel_compiled_model_graph_op_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->graph->op_count : 0;
}

uint32_t tflaccel_compiled_model_graph_tensor_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->graph->tensor_count : 0;
}

uint64_t tflaccel_compiled_model_arena_bytes(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->arena_size : 0;
}

/* The partition that runs op, or UINT32_MAX. */
static uint32_t partition_of_op(const tflaccel_compiled_model *compiled, uint32_t op) {
  const partition_plan *plan = compiled->plan;
  for (uint32_t p = 0; p < plan->partition_count; ++p)
    for (uint32_t i = 0; i < plan->partitions[p].op_count; ++i)
      if (plan->partitions[p].ops[i] == op) return p;
  return UINT32_MAX;
}

tflaccel_status tflaccel_compiled_model_graph_op_info(const tflaccel_compiled_model *compiled,
                                                      uint32_t index,
                                                      tflaccel_graph_op_info *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "graph_op_info: NULL argument");
  if (info->struct_size < sizeof *info)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "graph_op_info: struct_size too small");
  if (index >= compiled->graph->op_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "op %u out of range (%u ops)", index,
                                compiled->graph->op_count);
  const tflaccel_op_desc *op = &compiled->graph->ops[index];
  info->code = op->code;
  const char *name = op->code == TFLACCEL_OP_CUSTOM ? op->custom_code : op_code_name(op->code);
  info->name = name ? name : "UNKNOWN";
  info->output_name = "";
  if (op->output_count > 0 && op->outputs[0] < compiled->graph->tensor_count)
    info->output_name = compiled->graph->tensors[op->outputs[0]].name;
  info->partition = partition_of_op(compiled, index);
  return NULL;
}

tflaccel_status tflaccel_compiled_model_graph_tensor_info(const tflaccel_compiled_model *compiled,
                                                          uint32_t index,
                                                          tflaccel_graph_tensor_info *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "graph_tensor_info: NULL argument");
  if (info->struct_size < sizeof *info)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "graph_tensor_info: struct_size too small");
  const tflaccel_graph_view *graph = compiled->graph;
  if (index >= graph->tensor_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor %u out of range (%u tensors)",
                                index, graph->tensor_count);
  const tflaccel_tensor_desc *desc = &graph->tensors[index];
  info->name = desc->name;
  info->dtype = desc->dtype;
  info->rank = desc->rank;
  info->shape = desc->dims;
  info->byte_size = desc->byte_size;
  info->is_variable = (desc->flags & TFLACCEL_TENSOR_VARIABLE) != 0;
  info->partition = -1;
  info->arena_offset = 0;
  for (uint32_t op = 0; op < graph->op_count && info->partition < 0; ++op)
    for (uint32_t o = 0; o < graph->ops[op].output_count; ++o)
      if (graph->ops[op].outputs[o] == index) {
        uint32_t producer = partition_of_op(compiled, op);
        info->partition = producer == UINT32_MAX ? -1 : (int32_t)producer;
        break;
      }
  if (compiled->tensor_offset[index] != UINT64_MAX) {
    info->storage = TFLACCEL_STORAGE_HOST_ARENA;
    info->arena_offset = compiled->tensor_offset[index];
  } else if ((desc->flags & TFLACCEL_TENSOR_CONSTANT) && !info->is_variable) {
    info->storage = TFLACCEL_STORAGE_CONSTANT;
  } else if (info->partition >= 0 || info->is_variable) {
    info->storage = TFLACCEL_STORAGE_PARTITION;
  } else {
    info->storage = TFLACCEL_STORAGE_NONE;
  }
  return NULL;
}
