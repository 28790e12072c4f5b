/* Test .tflite builder: records what a test asks for, then writes the
 * schema's tables with the flatbuffer writer. Slot numbers follow the field
 * order of schema.fbs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/model/flatbuffer_writer.h"
#include "tests/model/tflite_builder.h"

#define TB_MAX 256
#define TB_MAX_FIELDS 8
#define TB_MAX_LEVELS 8

typedef struct tb_tensor_record {
  char *name;
  int8_t type;
  uint32_t rank;
  int32_t shape[TB_MAX_LEVELS];
  uint32_t buffer;
  uint32_t quant_count;
  float scales[TB_MAX_LEVELS * 8];
  int64_t zero_points[TB_MAX_LEVELS * 8];
  int32_t quantized_dimension;
  int variable;
  uint32_t signature_rank;
  int32_t signature[TB_MAX_LEVELS];
  uint32_t levels, blocks;
  int32_t traversal_order[TB_MAX_LEVELS];
  int32_t block_map[TB_MAX_LEVELS];
  tb_dimension dimensions[TB_MAX_LEVELS];
} tb_tensor_record;

typedef struct tb_op_record {
  uint32_t opcode;
  uint32_t input_count, output_count;
  int32_t inputs[TB_MAX], outputs[16];
  uint8_t options_type;
  uint32_t field_count;
  tb_field fields[TB_MAX_FIELDS];
  uint8_t *custom_options;
  size_t custom_options_size;
} tb_op_record;

typedef struct tb_opcode_record {
  int32_t code;
  int deprecated_only;
  char *custom_code;
} tb_opcode_record;

typedef struct tb_buffer_record {
  uint8_t *data;
  size_t size;
  int after_end;        /* stored past the flatbuffer, by offset and size */
  int64_t offset_shift;
  uint64_t offset;      /* where it lands, once known */
} tb_buffer_record;

struct tb_model {
  uint32_t version;
  char *description, *subgraph_name;
  char *extra_subgraphs[4];
  uint32_t extra_count;
  tb_buffer_record buffers[TB_MAX];
  uint32_t buffer_count;
  tb_tensor_record tensors[TB_MAX];
  uint32_t tensor_count;
  tb_opcode_record opcodes[TB_MAX];
  uint32_t opcode_count;
  tb_op_record *ops[TB_MAX];
  uint32_t op_count;
  int32_t inputs[16], outputs[16];
  uint32_t input_count, output_count;
  char *metadata_names[4];
  uint32_t metadata_buffers[4], metadata_count;
  char *signature_key, *signature_input;
  uint32_t signature_tensor;
  fbw *writer;
  fbw_node *tensors_vector;
};

tb_model *tb_create(void) {
  tb_model *model = calloc(1, sizeof *model);
  if (model == NULL) return NULL;
  model->version = 3;
  model->buffer_count = 1;
  return model;
}

void tb_destroy(tb_model *model) {
  if (model == NULL) return;
  free(model->description);
  free(model->subgraph_name);
  for (uint32_t i = 0; i < model->extra_count; ++i) free(model->extra_subgraphs[i]);
  for (uint32_t i = 0; i < model->buffer_count; ++i) free(model->buffers[i].data);
  for (uint32_t i = 0; i < model->tensor_count; ++i) free(model->tensors[i].name);
  for (uint32_t i = 0; i < model->opcode_count; ++i) free(model->opcodes[i].custom_code);
  for (uint32_t i = 0; i < model->op_count; ++i) {
    free(model->ops[i]->custom_options);
    free(model->ops[i]);
  }
  for (uint32_t i = 0; i < model->metadata_count; ++i) free(model->metadata_names[i]);
  free(model->signature_key);
  free(model->signature_input);
  fbw_destroy(model->writer);
  free(model);
}

static char *copy_text(const char *text) { return text ? strdup(text) : NULL; }

void tb_version(tb_model *model, uint32_t version) { model->version = version; }

void tb_description(tb_model *model, const char *description) {
  free(model->description);
  model->description = copy_text(description);
}

void tb_subgraph_name(tb_model *model, const char *name) {
  free(model->subgraph_name);
  model->subgraph_name = copy_text(name);
}

void tb_extra_subgraph(tb_model *model, const char *name) {
  if (model->extra_count < 4) model->extra_subgraphs[model->extra_count++] = copy_text(name);
}

uint32_t tb_buffer(tb_model *model, const void *data, size_t size) {
  uint32_t index = model->buffer_count++;
  model->buffers[index].data = malloc(size ? size : 1);
  if (size) memcpy(model->buffers[index].data, data, size);
  model->buffers[index].size = size;
  return index;
}

uint32_t tb_buffer_after_end(tb_model *model, const void *data, size_t size, int64_t offset_shift) {
  uint32_t index = tb_buffer(model, data, size);
  model->buffers[index].after_end = 1;
  model->buffers[index].offset_shift = offset_shift;
  model->buffers[index].offset = 2; /* any value > 1 until the real one is known */
  return index;
}

uint32_t tb_tensor(tb_model *model, const char *name, int8_t type, uint32_t rank,
                   const int32_t *shape, uint32_t buffer) {
  uint32_t index = model->tensor_count++;
  tb_tensor_record *tensor = &model->tensors[index];
  tensor->name = copy_text(name);
  tensor->type = type;
  tensor->rank = rank;
  if (rank) memcpy(tensor->shape, shape, rank * sizeof *shape);
  tensor->buffer = buffer;
  return index;
}

void tb_tensor_quantization(tb_model *model, uint32_t tensor, uint32_t count, const float *scales,
                            const int64_t *zero_points, int32_t quantized_dimension) {
  tb_tensor_record *record = &model->tensors[tensor];
  record->quant_count = count;
  if (count) {
    memcpy(record->scales, scales, count * sizeof *scales);
    memcpy(record->zero_points, zero_points, count * sizeof *zero_points);
  }
  record->quantized_dimension = quantized_dimension;
}

void tb_tensor_variable(tb_model *model, uint32_t tensor) { model->tensors[tensor].variable = 1; }

void tb_tensor_signature(tb_model *model, uint32_t tensor, uint32_t rank, const int32_t *signature) {
  model->tensors[tensor].signature_rank = rank;
  if (rank) memcpy(model->tensors[tensor].signature, signature, rank * sizeof *signature);
}

void tb_tensor_sparsity(tb_model *model, uint32_t tensor, uint32_t levels,
                        const int32_t *traversal_order, uint32_t blocks, const int32_t *block_map,
                        const tb_dimension *dimensions) {
  tb_tensor_record *record = &model->tensors[tensor];
  record->levels = levels;
  record->blocks = blocks;
  if (levels == 0) return;
  memcpy(record->traversal_order, traversal_order, levels * sizeof *traversal_order);
  if (blocks) memcpy(record->block_map, block_map, blocks * sizeof *block_map);
  memcpy(record->dimensions, dimensions, levels * sizeof *dimensions);
}

uint32_t tb_opcode(tb_model *model, int32_t code, const char *custom_code) {
  uint32_t index = model->opcode_count++;
  model->opcodes[index].code = code;
  model->opcodes[index].custom_code = copy_text(custom_code);
  return index;
}

uint32_t tb_opcode_deprecated(tb_model *model, int8_t code) {
  uint32_t index = tb_opcode(model, code, NULL);
  model->opcodes[index].deprecated_only = 1;
  return index;
}

uint32_t tb_op(tb_model *model, uint32_t opcode, uint32_t input_count, const int32_t *inputs,
               uint32_t output_count, const int32_t *outputs) {
  tb_op_record *op = calloc(1, sizeof *op);
  uint32_t index = model->op_count;
  if (op == NULL) return index;
  model->ops[model->op_count++] = op;
  op->opcode = opcode;
  op->input_count = input_count;
  op->output_count = output_count;
  if (input_count) memcpy(op->inputs, inputs, input_count * sizeof *inputs);
  if (output_count) memcpy(op->outputs, outputs, output_count * sizeof *outputs);
  return index;
}

void tb_op_options(tb_model *model, uint32_t op, uint8_t options_type, uint32_t field_count,
                   const tb_field *fields) {
  tb_op_record *record = model->ops[op];
  record->options_type = options_type;
  record->field_count = field_count;
  if (field_count) memcpy(record->fields, fields, field_count * sizeof *fields);
}

void tb_op_custom_options(tb_model *model, uint32_t op, const void *data, size_t size) {
  tb_op_record *record = model->ops[op];
  record->custom_options = malloc(size ? size : 1);
  if (size) memcpy(record->custom_options, data, size);
  record->custom_options_size = size;
}

void tb_inputs(tb_model *model, uint32_t count, const int32_t *tensors) {
  model->input_count = count;
  if (count) memcpy(model->inputs, tensors, count * sizeof *tensors);
}

void tb_outputs(tb_model *model, uint32_t count, const int32_t *tensors) {
  model->output_count = count;
  if (count) memcpy(model->outputs, tensors, count * sizeof *tensors);
}

void tb_metadata(tb_model *model, const char *name, uint32_t buffer) {
  if (model->metadata_count >= 4) return;
  model->metadata_names[model->metadata_count] = copy_text(name);
  model->metadata_buffers[model->metadata_count++] = buffer;
}

void tb_signature(tb_model *model, const char *key, const char *input_name, uint32_t input_tensor) {
  model->signature_key = copy_text(key);
  model->signature_input = copy_text(input_name);
  model->signature_tensor = input_tensor;
}

/* ---- Writing ------------------------------------------------------------- */

static fbw_node *int_vector(fbw *w, const int32_t *values, uint32_t count) {
  return fbw_vector(w, values, count, 4, 4);
}

static fbw_node *index_vector(fbw *w, uint8_t type, const void *values, uint32_t count) {
  uint32_t size = type == 1 ? 4 : type == 2 ? 2 : 1;
  fbw_node *table = fbw_table(w);
  fbw_ref(table, 0, fbw_vector(w, values, count, size, 4));
  return table;
}

static fbw_node *write_tensor(fbw *w, const tb_tensor_record *tensor) {
  fbw_node *table = fbw_table(w);
  fbw_ref(table, 0, int_vector(w, tensor->shape, tensor->rank));
  if (tensor->type != 0) fbw_scalar(table, 1, 1, (uint8_t)tensor->type);
  if (tensor->buffer != 0) fbw_scalar(table, 2, 4, tensor->buffer);
  if (tensor->name) fbw_ref(table, 3, fbw_string(w, tensor->name));
  if (tensor->quant_count) {
    fbw_node *quantization = fbw_table(w);
    fbw_ref(quantization, 2, fbw_vector(w, tensor->scales, tensor->quant_count, 4, 4));
    fbw_ref(quantization, 3, fbw_vector(w, tensor->zero_points, tensor->quant_count, 8, 8));
    if (tensor->quantized_dimension)
      fbw_scalar(quantization, 6, 4, (uint32_t)tensor->quantized_dimension);
    fbw_ref(table, 4, quantization);
  }
  if (tensor->variable) fbw_scalar(table, 5, 1, 1);
  if (tensor->levels) {
    fbw_node *sparsity = fbw_table(w);
    fbw_ref(sparsity, 0, int_vector(w, tensor->traversal_order, tensor->levels));
    if (tensor->blocks) fbw_ref(sparsity, 1, int_vector(w, tensor->block_map, tensor->blocks));
    fbw_node *dimensions[TB_MAX_LEVELS];
    for (uint32_t l = 0; l < tensor->levels; ++l) {
      const tb_dimension *d = &tensor->dimensions[l];
      fbw_node *dimension = fbw_table(w);
      if (d->format) fbw_scalar(dimension, 0, 1, (uint8_t)d->format);
      if (d->dense_size) fbw_scalar(dimension, 1, 4, (uint32_t)d->dense_size);
      if (d->format) {
        fbw_scalar(dimension, 2, 1, d->index_type);
        fbw_ref(dimension, 3, index_vector(w, d->index_type, d->segments, d->segment_count));
        fbw_scalar(dimension, 4, 1, d->index_type);
        fbw_ref(dimension, 5, index_vector(w, d->index_type, d->indices, d->index_count));
      }
      dimensions[l] = dimension;
    }
    fbw_ref(sparsity, 2, fbw_vector_of(w, dimensions, tensor->levels));
    fbw_ref(table, 6, sparsity);
  }
  if (tensor->signature_rank)
    fbw_ref(table, 7, int_vector(w, tensor->signature, tensor->signature_rank));
  return table;
}

static fbw_node *write_op(fbw *w, const tb_op_record *op) {
  fbw_node *table = fbw_table(w);
  if (op->opcode) fbw_scalar(table, 0, 4, op->opcode);
  fbw_ref(table, 1, int_vector(w, op->inputs, op->input_count));
  fbw_ref(table, 2, int_vector(w, op->outputs, op->output_count));
  if (op->options_type) {
    fbw_scalar(table, 3, 1, op->options_type);
    fbw_node *options = fbw_table(w);
    for (uint32_t i = 0; i < op->field_count; ++i)
      fbw_scalar(options, op->fields[i].slot, op->fields[i].size, op->fields[i].value);
    fbw_ref(table, 4, options);
  }
  if (op->custom_options)
    fbw_ref(table, 5, fbw_vector(w, op->custom_options, (uint32_t)op->custom_options_size, 1, 4));
  return table;
}

static fbw_node *write_main_subgraph(tb_model *model, fbw *w) {
  fbw_node *subgraph = fbw_table(w);
  fbw_node *tensors[TB_MAX], *ops[TB_MAX];
  for (uint32_t i = 0; i < model->tensor_count; ++i) tensors[i] = write_tensor(w, &model->tensors[i]);
  for (uint32_t i = 0; i < model->op_count; ++i) ops[i] = write_op(w, model->ops[i]);
  model->tensors_vector = fbw_vector_of(w, tensors, model->tensor_count);
  fbw_ref(subgraph, 0, model->tensors_vector);
  fbw_ref(subgraph, 1, int_vector(w, model->inputs, model->input_count));
  fbw_ref(subgraph, 2, int_vector(w, model->outputs, model->output_count));
  fbw_ref(subgraph, 3, fbw_vector_of(w, ops, model->op_count));
  if (model->subgraph_name) fbw_ref(subgraph, 4, fbw_string(w, model->subgraph_name));
  return subgraph;
}

static uint8_t *serialize_flatbuffer(tb_model *model, size_t *size) {
  fbw_destroy(model->writer);
  fbw *w = model->writer = fbw_create();
  if (w == NULL) return NULL;
  fbw_node *root = fbw_table(w);
  fbw_scalar(root, 0, 4, model->version);

  fbw_node *opcodes[TB_MAX];
  for (uint32_t i = 0; i < model->opcode_count; ++i) {
    const tb_opcode_record *code = &model->opcodes[i];
    fbw_node *table = fbw_table(w);
    fbw_scalar(table, 0, 1, (uint8_t)(code->code < 127 ? code->code : 127));
    if (code->custom_code) fbw_ref(table, 1, fbw_string(w, code->custom_code));
    if (!code->deprecated_only) fbw_scalar(table, 3, 4, (uint32_t)code->code);
    opcodes[i] = table;
  }
  fbw_ref(root, 1, fbw_vector_of(w, opcodes, model->opcode_count));

  fbw_node *subgraphs[5];
  subgraphs[0] = write_main_subgraph(model, w);
  for (uint32_t i = 0; i < model->extra_count; ++i) {
    subgraphs[1 + i] = fbw_table(w);
    if (model->extra_subgraphs[i]) fbw_ref(subgraphs[1 + i], 4, fbw_string(w, model->extra_subgraphs[i]));
  }
  fbw_ref(root, 2, fbw_vector_of(w, subgraphs, 1 + model->extra_count));
  if (model->description) fbw_ref(root, 3, fbw_string(w, model->description));

  fbw_node *buffers[TB_MAX];
  for (uint32_t i = 0; i < model->buffer_count; ++i) {
    buffers[i] = fbw_table(w);
    if (model->buffers[i].after_end) {
      fbw_scalar(buffers[i], 1, 8, model->buffers[i].offset + (uint64_t)model->buffers[i].offset_shift);
      fbw_scalar(buffers[i], 2, 8, model->buffers[i].size);
    } else if (model->buffers[i].size)
      fbw_ref(buffers[i], 0, fbw_vector(w, model->buffers[i].data, (uint32_t)model->buffers[i].size,
                                        1, 16));
  }
  fbw_ref(root, 4, fbw_vector_of(w, buffers, model->buffer_count));

  if (model->metadata_count) {
    fbw_node *metadata[4];
    for (uint32_t i = 0; i < model->metadata_count; ++i) {
      metadata[i] = fbw_table(w);
      fbw_ref(metadata[i], 0, fbw_string(w, model->metadata_names[i]));
      fbw_scalar(metadata[i], 1, 4, model->metadata_buffers[i]);
    }
    fbw_ref(root, 6, fbw_vector_of(w, metadata, model->metadata_count));
  }
  if (model->signature_key) {
    fbw_node *map = fbw_table(w);
    fbw_ref(map, 0, fbw_string(w, model->signature_input));
    fbw_scalar(map, 1, 4, model->signature_tensor);
    fbw_node *signature = fbw_table(w);
    fbw_ref(signature, 0, fbw_vector_of(w, &map, 1));
    fbw_ref(signature, 2, fbw_string(w, model->signature_key));
    fbw_ref(root, 7, fbw_vector_of(w, &signature, 1));
  }
  return fbw_finish(w, root, "TFL3", size);
}

/* Buffers stored after the flatbuffer: the first pass tells where the
 * flatbuffer ends; the second writes the same layout with the real offsets
 * (the offset fields exist in both, so the size does not change). */
uint8_t *tb_serialize(tb_model *model, size_t *size) {
  size_t flatbuffer_size;
  uint8_t *bytes = serialize_flatbuffer(model, &flatbuffer_size);
  int external = 0;
  uint64_t end = flatbuffer_size;
  for (uint32_t i = 0; i < model->buffer_count; ++i) {
    tb_buffer_record *buffer = &model->buffers[i];
    if (!buffer->after_end) continue;
    external = 1;
    buffer->offset = (end + 15) / 16 * 16;
    end = buffer->offset + buffer->size;
  }
  if (!external || bytes == NULL) {
    *size = flatbuffer_size;
    return bytes;
  }
  free(bytes);
  bytes = serialize_flatbuffer(model, &flatbuffer_size);
  uint8_t *file = bytes ? calloc(1, (size_t)end) : NULL;
  if (file == NULL) {
    free(bytes);
    return NULL;
  }
  memcpy(file, bytes, flatbuffer_size);
  free(bytes);
  for (uint32_t i = 0; i < model->buffer_count; ++i)
    if (model->buffers[i].after_end)
      memcpy(file + model->buffers[i].offset, model->buffers[i].data, model->buffers[i].size);
  *size = (size_t)end;
  return file;
}

size_t tb_tensors_vector_position(const tb_model *model) {
  return fbw_position(model->tensors_vector);
}
