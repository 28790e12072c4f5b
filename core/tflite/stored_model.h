/* A .tflite file as the reader stores it (core/tflite/reader.h): the
 * schema's tables with every index checked, small arrays in an allocation
 * pool, buffers and strings in place in the file's bytes. Nothing here knows
 * about graph passes; core/graph/model_internal.h builds on it. */
#ifndef TFLACCEL_CORE_TFLITE_STORED_MODEL_H
#define TFLACCEL_CORE_TFLITE_STORED_MODEL_H

#include <stdint.h>

#include "tflaccel/ops.h"
#include "tflaccel/status.h"
#include "tflaccel/types.h"

/* No tensor may need more bytes than this (64 TiB): larger is a corrupt
 * shape, and sums of tensor sizes then stay far from overflowing. */
#define MODEL_MAX_TENSOR_BYTES (UINT64_C(1) << 46)

/* One level of a sparse tensor's index arrays (SparseIndexVector), in place. */
typedef struct model_index_array {
  int32_t type;          /* TFLITE_SPARSE_INDEX_* */
  const uint8_t *values; /* little-endian elements of 4, 2 or 1 bytes */
  uint32_t length;
} model_index_array;

typedef struct model_dimension {
  int32_t format;        /* TFLITE_DIMENSION_DENSE or _SPARSE_CSR */
  int32_t dense_size;
  model_index_array segments, indices;
} model_dimension;

/* SparsityParameters: traversal_order has the tensor's rank + block count
 * entries, block_map one per block dimension, dimensions one per level. */
typedef struct model_sparsity {
  uint32_t level_count;
  int32_t *traversal_order;
  uint32_t block_count;
  int32_t *block_map;
  model_dimension *dimensions;
} model_sparsity;

typedef struct model_tensor {
  const char *name;               /* never NULL ("" when unnamed) */
  int32_t dtype;                  /* tflaccel_dtype */
  uint32_t rank;
  int32_t *shape;
  uint32_t shape_signature_rank;  /* 0 when absent */
  int32_t *shape_signature;
  int32_t has_rank;
  uint32_t buffer;
  const uint8_t *data;            /* the buffer's bytes, NULL when it is empty */
  uint64_t data_size;
  tflaccel_quantization quantization;
  int32_t is_variable;
  model_sparsity *sparsity;       /* NULL for dense tensors */
  uint64_t element_count;         /* of the stored shape */
  uint64_t byte_size;             /* element_count * dtype size (0 for strings) */
} model_tensor;

typedef struct model_op {
  int32_t code;                   /* tflaccel_op_code */
  int32_t version;
  uint32_t opcode_index;
  const char *custom_code;        /* custom ops only */
  const uint8_t *custom_options;
  uint32_t custom_options_size;
  tflaccel_op_params params;
  uint32_t input_count, output_count, intermediate_count;
  int32_t *inputs, *outputs, *intermediates; /* as stored: -1 = absent */
} model_op;

typedef struct model_subgraph {
  const char *name;               /* "" when unnamed */
  uint32_t tensor_count;
  model_tensor *tensors;
  uint32_t op_count;
  model_op *ops;
  uint32_t input_count, output_count;
  int32_t *inputs, *outputs;
} model_subgraph;

typedef struct model_operator_code {
  int32_t code;
  int32_t version;
  const char *custom_code;
} model_operator_code;

typedef struct model_buffer {
  const uint8_t *data;
  uint64_t size;
} model_buffer;

/* Everything the file holds, as stored. */
typedef struct stored_model {
  uint32_t schema_version;
  const char *description;        /* "" when absent */
  uint32_t operator_code_count;
  model_operator_code *operator_codes;
  uint32_t buffer_count;
  model_buffer *buffers;
  uint32_t subgraph_count;
  model_subgraph *subgraphs;
  uint32_t metadata_count;
  const char **metadata_names;
  uint32_t *metadata_buffers;     /* per metadata entry: its index into buffers */
  uint32_t signature_count;
  const char **signature_keys;
} stored_model;

/* Name of an op for messages: the builtin name, the custom code, or "UNKNOWN". */
const char *model_op_name(const model_op *op);

#endif
