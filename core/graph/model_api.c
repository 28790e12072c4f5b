/* The public tflaccel_model_* introspection functions (tflaccel.h): the
 * model as stored in the file, subgraph 0. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "core/facts/op_names.h"
#include "core/graph/model_internal.h"

/* Copies the part of `full` (a struct starting with uint32_t struct_size)
 * that the caller's struct has room for, as its struct_size says. */
static tflaccel_status copy_out(void *destination, const void *full, size_t full_size,
                                const char *what) {
  uint32_t caller_size;
  memcpy(&caller_size, destination, sizeof caller_size);
  if (caller_size < sizeof(uint32_t))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s.struct_size is %u: set it to sizeof(%s)", what, caller_size,
                                what);
  size_t size = caller_size < full_size ? caller_size : full_size;
  memcpy(destination, full, size);
  uint32_t written = (uint32_t)size;
  memcpy(destination, &written, sizeof written);
  return NULL;
}

static tflaccel_status null_argument(const char *function) {
  return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: NULL argument", function);
}

tflaccel_status tflaccel_model_get_summary(const tflaccel_model *model,
                                           tflaccel_model_summary *summary) {
  if (model == NULL || summary == NULL) return null_argument("tflaccel_model_get_summary");
  const model_subgraph *main_graph = &model->stored.subgraphs[0];
  tflaccel_model_summary full = {
    .struct_size = sizeof full,
    .schema_version = model->stored.schema_version,
    .subgraph_count = model->stored.subgraph_count,
    .tensor_count = main_graph->tensor_count,
    .op_count = main_graph->op_count,
    .input_count = main_graph->input_count,
    .output_count = main_graph->output_count,
    .signature_count = model->stored.signature_count,
    .metadata_count = model->stored.metadata_count,
    .weight_bytes = model->weight_bytes,
    .peak_activation_bytes = model->peak_activation_bytes,
    .description = model->stored.description,
  };
  return copy_out(summary, &full, sizeof full, "tflaccel_model_summary");
}

tflaccel_status tflaccel_model_tensor_info(const tflaccel_model *model, uint32_t tensor_index,
                                           tflaccel_tensor_info *info) {
  if (model == NULL || info == NULL) return null_argument("tflaccel_model_tensor_info");
  const model_subgraph *main_graph = &model->stored.subgraphs[0];
  if (tensor_index >= main_graph->tensor_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor index %u is out of range (subgraph 0 has %u tensors)",
                                tensor_index, main_graph->tensor_count);
  const model_tensor *tensor = &main_graph->tensors[tensor_index];
  tflaccel_tensor_info full = {
    .struct_size = sizeof full,
    .name = tensor->name,
    .dtype = tensor->dtype,
    .rank = tensor->rank,
    .shape = tensor->shape,
    .shape_signature_rank = tensor->shape_signature_rank,
    .shape_signature = tensor->shape_signature,
    .quantization = tensor->quantization,
    .is_variable = tensor->is_variable,
    .is_constant = tensor->data != NULL,
    .is_sparse = tensor->sparsity != NULL,
    .byte_size = tensor->byte_size,
  };
  return copy_out(info, &full, sizeof full, "tflaccel_tensor_info");
}

tflaccel_status tflaccel_model_op_info(const tflaccel_model *model, uint32_t op_index,
                                       tflaccel_op_info *info) {
  if (model == NULL || info == NULL) return null_argument("tflaccel_model_op_info");
  const model_subgraph *main_graph = &model->stored.subgraphs[0];
  if (op_index >= main_graph->op_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "op index %u is out of range (subgraph 0 has %u ops)", op_index,
                                main_graph->op_count);
  const model_op *op = &main_graph->ops[op_index];
  const char *name = op_code_name(op->code);
  tflaccel_op_info full = {
    .struct_size = sizeof full,
    .code = op->code,
    .version = op->version,
    .name = name ? name : "UNKNOWN",
    .custom_code = op->custom_code,
    .input_count = op->input_count,
    .output_count = op->output_count,
    .inputs = op->inputs,
    .outputs = op->outputs,
  };
  return copy_out(info, &full, sizeof full, "tflaccel_op_info");
}

static tflaccel_status graph_tensor(const tflaccel_model *model, uint32_t index, int input,
                                    uint32_t *tensor_index) {
  const char *function = input ? "tflaccel_model_input_tensor" : "tflaccel_model_output_tensor";
  if (model == NULL || tensor_index == NULL) return null_argument(function);
  const model_subgraph *main_graph = &model->stored.subgraphs[0];
  uint32_t count = input ? main_graph->input_count : main_graph->output_count;
  if (index >= count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s index %u is out of range (the model has %u)",
                                input ? "input" : "output", index, count);
  *tensor_index = (uint32_t)(input ? main_graph->inputs[index] : main_graph->outputs[index]);
  return NULL;
}

tflaccel_status tflaccel_model_input_tensor(const tflaccel_model *model, uint32_t index,
                                            uint32_t *tensor_index) {
  return graph_tensor(model, index, 1, tensor_index);
}

tflaccel_status tflaccel_model_output_tensor(const tflaccel_model *model, uint32_t index,
                                             uint32_t *tensor_index) {
  return graph_tensor(model, index, 0, tensor_index);
}

const char *tflaccel_model_subgraph_name(const tflaccel_model *model, uint32_t index) {
  if (model == NULL || index >= model->stored.subgraph_count) return NULL;
  return model->stored.subgraphs[index].name;
}

const char *tflaccel_model_metadata_name(const tflaccel_model *model, uint32_t index) {
  if (model == NULL || index >= model->stored.metadata_count) return NULL;
  return model->stored.metadata_names[index];
}

tflaccel_status tflaccel_model_metadata_buffer(const tflaccel_model *model, const char *name,
                                               const void **data, size_t *size) {
  if (model == NULL || name == NULL || data == NULL || size == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "metadata_buffer: NULL argument");
  *data = NULL;
  *size = 0;
  for (uint32_t i = 0; i < model->stored.metadata_count; ++i) {
    if (strcmp(model->stored.metadata_names[i], name) != 0) continue;
    const model_buffer *buffer = &model->stored.buffers[model->stored.metadata_buffers[i]];
    *data = buffer->data;
    *size = (size_t)buffer->size;
    return NULL;
  }
  return tflaccel_status_make(TFLACCEL_NOT_FOUND, "the model has no metadata named '%s'", name);
}

const char *tflaccel_model_signature_key(const tflaccel_model *model, uint32_t index) {
  if (model == NULL || index >= model->stored.signature_count) return NULL;
  return model->stored.signature_keys[index];
}
