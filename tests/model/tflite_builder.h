/* Builds small .tflite files for tests, following ../shared/tflite/schema.fbs
 * (written with tests/model/flatbuffer_writer.h). One main subgraph, plus
 * optional empty extra subgraphs. Indices are returned in creation order, so
 * tests can also make them wrong on purpose. */
#ifndef TFLACCEL_TESTS_MODEL_TFLITE_BUILDER_H
#define TFLACCEL_TESTS_MODEL_TFLITE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

typedef struct tb_model tb_model;

/* One scalar field of an options table: slot, size in bytes (1 or 4) and
 * value (for a float, its bits). */
typedef struct tb_field {
  unsigned slot;
  unsigned size;
  uint32_t value;
} tb_field;

/* One level of a sparse tensor (DimensionMetadata); index vectors are of
 * index_type 1 (int32), 2 (uint16) or 3 (uint8). */
typedef struct tb_dimension {
  int8_t format;          /* 0 DENSE, 1 SPARSE_CSR */
  int32_t dense_size;
  uint8_t index_type;
  const void *segments;
  uint32_t segment_count;
  const void *indices;
  uint32_t index_count;
} tb_dimension;

tb_model *tb_create(void);  /* with buffer 0, the empty sentinel */
void tb_destroy(tb_model *model);

void tb_version(tb_model *model, uint32_t version);
void tb_description(tb_model *model, const char *description);
void tb_subgraph_name(tb_model *model, const char *name);
/* An extra (empty) subgraph after the main one. */
void tb_extra_subgraph(tb_model *model, const char *name);

uint32_t tb_buffer(tb_model *model, const void *data, size_t size);
/* A buffer stored after the flatbuffer, found through the Buffer table's
 * offset and size fields (the form models over 2 GB use). offset_shift is
 * added to the written offset, so that tests can point it elsewhere. */
uint32_t tb_buffer_after_end(tb_model *model, const void *data, size_t size, int64_t offset_shift);
uint32_t tb_tensor(tb_model *model, const char *name, int8_t type, uint32_t rank,
                   const int32_t *shape, uint32_t buffer);
void tb_tensor_quantization(tb_model *model, uint32_t tensor, uint32_t count, const float *scales,
                            const int64_t *zero_points, int32_t quantized_dimension);
void tb_tensor_variable(tb_model *model, uint32_t tensor);
void tb_tensor_signature(tb_model *model, uint32_t tensor, uint32_t rank, const int32_t *signature);
void tb_tensor_sparsity(tb_model *model, uint32_t tensor, uint32_t levels,
                        const int32_t *traversal_order, uint32_t blocks, const int32_t *block_map,
                        const tb_dimension *dimensions);

/* Operator code: builtin `code` (written to both code fields, as current
 * converters do), custom_code for CUSTOM. */
uint32_t tb_opcode(tb_model *model, int32_t code, const char *custom_code);
/* Operator code with only the deprecated byte field set (old files). */
uint32_t tb_opcode_deprecated(tb_model *model, int8_t code);
uint32_t tb_op(tb_model *model, uint32_t opcode, uint32_t input_count, const int32_t *inputs,
               uint32_t output_count, const int32_t *outputs);
void tb_op_options(tb_model *model, uint32_t op, uint8_t options_type, uint32_t field_count,
                   const tb_field *fields);
void tb_op_custom_options(tb_model *model, uint32_t op, const void *data, size_t size);

void tb_inputs(tb_model *model, uint32_t count, const int32_t *tensors);
void tb_outputs(tb_model *model, uint32_t count, const int32_t *tensors);
void tb_metadata(tb_model *model, const char *name, uint32_t buffer);
void tb_signature(tb_model *model, const char *key, const char *input_name, uint32_t input_tensor);

/* The .tflite bytes (malloc'ed, the caller frees), NULL on failure. */
uint8_t *tb_serialize(tb_model *model, size_t *size);
/* After tb_serialize: the position of the length field of the main
 * subgraph's tensors vector. */
size_t tb_tensors_vector_position(const tb_model *model);

#endif
