/* Reads a TFLite flatbuffer (schema.fbs, identifier TFL3) table by table.
 * Small arrays (shapes, indices, quantization) are copied into the model's
 * pool; buffers and strings stay in the file. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/tflite/builtin_options.h"
#include "core/tflite/flatbuffer.h"
#include "core/tflite/quantization_check.h"
#include "core/tflite/reader.h"
#include "core/tflite/schema.h"

/* What every read below needs. */
typedef struct reader {
  stored_model *model;
  allocation_pool *pool;
  fb_file file;
} reader;

static const char *const tensor_type_names[TFLITE_TENSOR_TYPE_COUNT] = {
  "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16",
  "COMPLEX64", "INT8", "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT",
  "UINT32", "UINT16", "INT4", "BFLOAT16", "INT2", "UINT4", "FLOAT8_E4M3FN", "FLOAT8_E5M2",
};

const char *tflite_tensor_type_name(int32_t type) {
  if (type < 0 || type >= TFLITE_TENSOR_TYPE_COUNT) return NULL;
  return tensor_type_names[type];
}

static tflaccel_status out_of_memory(void) {
  return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory while reading the model");
}

static tflaccel_status invalid(const char *format, ...) __attribute__((format(printf, 1, 2)));

static tflaccel_status invalid(const char *format, ...) {
  va_list args;
  va_start(args, format);
  tflaccel_status status = tflaccel_status_make_v(TFLACCEL_INVALID_MODEL, format, args);
  va_end(args);
  return status;
}

/* Copies an [int] vector into the pool (NULL for an empty one). */
static tflaccel_status copy_i32_vector(reader *r, const fb_vector *vector, int32_t **values) {
  *values = NULL;
  if (vector->length == 0) return NULL;
  int32_t *copy = pool_alloc_array(r->pool, vector->length, sizeof *copy);
  if (copy == NULL) return out_of_memory();
  for (uint32_t i = 0; i < vector->length; ++i) copy[i] = fb_vector_i32(vector, i);
  *values = copy;
  return NULL;
}

static tflaccel_status read_i32_field(reader *r, const fb_table *table, unsigned slot,
                                      uint32_t *count, int32_t **values) {
  fb_vector vector;
  tflaccel_status status = fb_read_vector(table, slot, 4, &vector, NULL);
  if (status) return status;
  *count = vector.length;
  return copy_i32_vector(r, &vector, values);
}

/* ---- Buffers ------------------------------------------------------------ */

static tflaccel_status read_buffer(reader *r, const fb_table *table, model_buffer *buffer) {
  fb_vector data;
  tflaccel_status status = fb_read_vector(table, TFLITE_BUFFER_DATA, 1, &data, NULL);
  if (status) return tflaccel_status_annotate(status, "data");
  if (data.length > 0) {
    buffer->data = fb_vector_data(&data);
    buffer->size = data.length;
    return NULL;
  }
  /* Models over 2 GB keep buffers after the flatbuffer: offset and size from
   * the start of the file, meaningful when offset > 1. */
  uint64_t offset, size;
  status = fb_read_u64(table, TFLITE_BUFFER_OFFSET, 0, &offset);
  if (status == NULL) status = fb_read_u64(table, TFLITE_BUFFER_SIZE, 0, &size);
  if (status) return status;
  if (offset > 1) {
    if (offset > r->file.size || size > r->file.size - offset)
      return invalid("offset %" PRIu64 " and size %" PRIu64 " lie outside the file (%zu bytes)",
                     offset, size, r->file.size);
    buffer->data = size ? r->file.bytes + offset : NULL;
    buffer->size = size;
  }
  return NULL;
}

static tflaccel_status read_buffers(reader *r, const fb_table *root) {
  fb_vector buffers;
  tflaccel_status status = fb_read_vector(root, TFLITE_MODEL_BUFFERS, 4, &buffers, NULL);
  if (status) return tflaccel_status_annotate(status, "buffers");
  stored_model *model = r->model;
  model->buffer_count = buffers.length;
  model->buffers = pool_alloc_array(r->pool, buffers.length, sizeof *model->buffers);
  if (model->buffers == NULL) return out_of_memory();
  for (uint32_t i = 0; i < buffers.length; ++i) {
    fb_table table;
    status = fb_vector_table(&buffers, i, &table);
    if (status == NULL) status = read_buffer(r, &table, &model->buffers[i]);
    if (status) return tflaccel_status_annotate(status, "buffer %u", i);
  }
  return NULL;
}

/* ---- Operator codes ----------------------------------------------------- */

static tflaccel_status read_operator_code(const fb_table *table, model_operator_code *code) {
  int8_t deprecated_code;
  int32_t builtin_code;
  tflaccel_status status =
      fb_read_i8(table, TFLITE_OPERATOR_CODE_DEPRECATED_BUILTIN_CODE, 0, &deprecated_code);
  if (status == NULL)
    status = fb_read_string(table, TFLITE_OPERATOR_CODE_CUSTOM_CODE, &code->custom_code, NULL);
  if (status == NULL) status = fb_read_i32(table, TFLITE_OPERATOR_CODE_VERSION, 1, &code->version);
  if (status == NULL)
    status = fb_read_i32(table, TFLITE_OPERATOR_CODE_BUILTIN_CODE, 0, &builtin_code);
  if (status) return status;
  /* builtin_code was added after the byte-sized code ran out; files written
   * before it leave it 0, files after it write both. */
  code->code = deprecated_code > builtin_code ? deprecated_code : builtin_code;
  if (code->code < 0) return invalid("builtin code %d is negative", code->code);
  if (code->code == TFLACCEL_OP_CUSTOM && code->custom_code == NULL)
    return invalid("a CUSTOM operator code without a custom_code");
  if (code->code != TFLACCEL_OP_CUSTOM) code->custom_code = NULL;
  return NULL;
}

static tflaccel_status read_operator_codes(reader *r, const fb_table *root) {
  fb_vector codes;
  tflaccel_status status = fb_read_vector(root, TFLITE_MODEL_OPERATOR_CODES, 4, &codes, NULL);
  if (status) return tflaccel_status_annotate(status, "operator_codes");
  stored_model *model = r->model;
  model->operator_code_count = codes.length;
  model->operator_codes =
      pool_alloc_array(r->pool, codes.length, sizeof *model->operator_codes);
  if (model->operator_codes == NULL) return out_of_memory();
  for (uint32_t i = 0; i < codes.length; ++i) {
    fb_table table;
    status = fb_vector_table(&codes, i, &table);
    if (status == NULL) status = read_operator_code(&table, &model->operator_codes[i]);
    if (status) return tflaccel_status_annotate(status, "operator code %u", i);
  }
  return NULL;
}

/* ---- Tensors ------------------------------------------------------------ */

static tflaccel_status read_quantization(reader *r, const fb_table *table,
                                         tflaccel_quantization *quantization) {
  fb_vector scales, zero_points;
  tflaccel_status status = fb_read_vector(table, TFLITE_QUANTIZATION_SCALE, 4, &scales, NULL);
  if (status) return tflaccel_status_annotate(status, "scale");
  int zero_points_present;
  status = fb_read_vector(table, TFLITE_QUANTIZATION_ZERO_POINT, 8, &zero_points,
                          &zero_points_present);
  if (status) return tflaccel_status_annotate(status, "zero_point");
  if (scales.length == 0) return NULL; /* min/max only, or nothing: not quantized */
  if (!zero_points_present)
    return invalid("quantization has %u scales but no zero_point", scales.length);
  if (zero_points.length != scales.length)
    return invalid("quantization has %u scales but %u zero points", scales.length,
                   zero_points.length);
  int32_t dimension;
  status = fb_read_i32(table, TFLITE_QUANTIZATION_QUANTIZED_DIMENSION, 0, &dimension);
  if (status) return tflaccel_status_annotate(status, "quantized_dimension");
  float *scale_values = pool_alloc_array(r->pool, scales.length, sizeof(float));
  int32_t *zero_point_values = pool_alloc_array(r->pool, scales.length, sizeof(int32_t));
  if (scale_values == NULL || zero_point_values == NULL) return out_of_memory();
  for (uint32_t i = 0; i < scales.length; ++i) {
    scale_values[i] = fb_vector_f32(&scales, i);
    int64_t zero_point = fb_vector_i64(&zero_points, i);
    if (zero_point < INT32_MIN || zero_point > INT32_MAX)
      return invalid("zero point %u (%" PRId64 ") is outside the int32 range", i, zero_point);
    zero_point_values[i] = (int32_t)zero_point;
  }
  /* Whether the values make sense for the tensor's dtype and shape is
   * checked once both are read (quantization_check). */
  quantization->count = scales.length;
  quantization->scales = scale_values;
  quantization->zero_points = zero_point_values;
  quantization->quantized_dimension = dimension;
  return NULL;
}

static tflaccel_status read_index_array(const fb_table *dimension, unsigned type_slot,
                                        unsigned value_slot, const char *what,
                                        model_index_array *array) {
  uint8_t type;
  tflaccel_status status = fb_read_u8(dimension, type_slot, 0, &type);
  if (status) return status;
  fb_table table;
  int present = 0;
  if (type != TFLITE_SPARSE_INDEX_NONE) status = fb_read_table(dimension, value_slot, &table, &present);
  if (status) return tflaccel_status_annotate(status, "%s", what);
  if (!present) return invalid("a SPARSE_CSR dimension without %s", what);
  uint32_t element_size;
  switch (type) {
  case TFLITE_SPARSE_INDEX_INT32: element_size = 4; break;
  case TFLITE_SPARSE_INDEX_UINT16: element_size = 2; break;
  case TFLITE_SPARSE_INDEX_UINT8: element_size = 1; break;
  default: return invalid("%s has unknown index vector type %u", what, type);
  }
  fb_vector values;
  status = fb_read_vector(&table, TFLITE_SPARSE_INDEX_VALUES, element_size, &values, NULL);
  if (status) return tflaccel_status_annotate(status, "%s", what);
  array->type = type;
  array->values = values.length ? fb_vector_data(&values) : NULL;
  array->length = values.length;
  return NULL;
}

static tflaccel_status read_dimension(const fb_table *table, model_dimension *dimension) {
  int8_t format;
  tflaccel_status status = fb_read_i8(table, TFLITE_DIMENSION_FORMAT, 0, &format);
  if (status == NULL)
    status = fb_read_i32(table, TFLITE_DIMENSION_DENSE_SIZE, 0, &dimension->dense_size);
  if (status) return status;
  dimension->format = format;
  if (format == TFLITE_DIMENSION_DENSE) {
    if (dimension->dense_size < 0)
      return invalid("dense dimension of negative size %d", dimension->dense_size);
    return NULL;
  }
  if (format != TFLITE_DIMENSION_SPARSE_CSR)
    return invalid("unknown dimension format %d", format);
  status = read_index_array(table, TFLITE_DIMENSION_ARRAY_SEGMENTS_TYPE,
                            TFLITE_DIMENSION_ARRAY_SEGMENTS, "array_segments",
                            &dimension->segments);
  if (status == NULL)
    status = read_index_array(table, TFLITE_DIMENSION_ARRAY_INDICES_TYPE,
                              TFLITE_DIMENSION_ARRAY_INDICES, "array_indices",
                              &dimension->indices);
  return status;
}

/* Checks that values[0, count) is a permutation of first .. first + count - 1. */
static tflaccel_status check_permutation(reader *r, const int32_t *values, uint32_t count,
                                         int32_t first, const char *what) {
  uint8_t *seen = pool_alloc(r->pool, count);
  if (seen == NULL) return out_of_memory();
  for (uint32_t i = 0; i < count; ++i) {
    int64_t slot = (int64_t)values[i] - first;
    if (slot < 0 || slot >= count || seen[slot])
      return invalid("%s entry %u (%d) is not a permutation of %d..%lld", what, i, values[i],
                     first, (long long)first + count - 1);
    seen[slot] = 1;
  }
  return NULL;
}

static tflaccel_status read_sparsity(reader *r, const fb_table *table, uint32_t rank,
                                     model_sparsity **out) {
  model_sparsity *sparsity = pool_alloc(r->pool, sizeof *sparsity);
  if (sparsity == NULL) return out_of_memory();
  tflaccel_status status = read_i32_field(r, table, TFLITE_SPARSITY_TRAVERSAL_ORDER,
                                          &sparsity->level_count, &sparsity->traversal_order);
  if (status) return tflaccel_status_annotate(status, "traversal_order");
  status = read_i32_field(r, table, TFLITE_SPARSITY_BLOCK_MAP, &sparsity->block_count,
                          &sparsity->block_map);
  if (status) return tflaccel_status_annotate(status, "block_map");
  fb_vector dimensions;
  status = fb_read_vector(table, TFLITE_SPARSITY_DIM_METADATA, 4, &dimensions, NULL);
  if (status) return tflaccel_status_annotate(status, "dim_metadata");
  if ((uint64_t)rank + sparsity->block_count != sparsity->level_count)
    return invalid("traversal_order has %u entries, expected rank %u + %u block dimensions",
                   sparsity->level_count, rank, sparsity->block_count);
  if (dimensions.length != sparsity->level_count)
    return invalid("dim_metadata has %u entries, traversal_order %u", dimensions.length,
                   sparsity->level_count);
  status = check_permutation(r, sparsity->traversal_order, rank, 0, "traversal_order");
  if (status == NULL)
    status = check_permutation(r, sparsity->traversal_order + rank, sparsity->block_count,
                               (int32_t)rank, "traversal_order (block part)");
  if (status) return status;
  for (uint32_t i = 0; i < sparsity->block_count; ++i)
    if (sparsity->block_map[i] < 0 || (uint32_t)sparsity->block_map[i] >= rank)
      return invalid("block_map entry %u (%d) is not a dimension of the rank-%u tensor", i,
                     sparsity->block_map[i], rank);
  sparsity->dimensions =
      pool_alloc_array(r->pool, dimensions.length, sizeof *sparsity->dimensions);
  if (sparsity->dimensions == NULL && dimensions.length) return out_of_memory();
  for (uint32_t i = 0; i < dimensions.length; ++i) {
    fb_table dimension;
    status = fb_vector_table(&dimensions, i, &dimension);
    if (status == NULL) status = read_dimension(&dimension, &sparsity->dimensions[i]);
    if (status) return tflaccel_status_annotate(status, "dim_metadata %u", i);
  }
  *out = sparsity;
  return NULL;
}

/* "[1,2,3]" into text, truncated to fit. */
static const char *format_shape(char *text, size_t size, uint32_t rank, const int32_t *dims) {
  size_t used = (size_t)snprintf(text, size, "[");
  for (uint32_t i = 0; i < rank && used < size; ++i)
    used += (size_t)snprintf(text + used, size - used, "%s%d", i ? "," : "", dims[i]);
  if (used < size) snprintf(text + used, size - used, "]");
  return text;
}

/* Element count and byte size of the stored shape, overflow-checked. */
static tflaccel_status size_tensor(model_tensor *tensor) {
  uint64_t elements = 1;
  int unknown = 0;
  for (uint32_t i = 0; i < tensor->rank; ++i) {
    int32_t dim = tensor->shape[i];
    if (dim == -1) {
      unknown = 1; /* a dynamic dimension left in the stored shape */
      continue;
    }
    if (dim < 0) return invalid("dimension %u of the shape is %d", i, dim);
    if (dim != 0 && elements > (UINT64_C(1) << 62) / (uint64_t)dim) {
      char shape[160];
      return invalid("shape %s has too many elements",
                     format_shape(shape, sizeof shape, tensor->rank, tensor->shape));
    }
    elements *= (uint64_t)dim;
  }
  tensor->element_count = unknown ? 0 : elements;
  uint64_t element_size = dtype_size(tensor->dtype);
  if (element_size != 0 && tensor->element_count > MODEL_MAX_TENSOR_BYTES / element_size) {
    char shape[160];
    return invalid("shape %s needs more than %llu bytes",
                   format_shape(shape, sizeof shape, tensor->rank, tensor->shape),
                   (unsigned long long)MODEL_MAX_TENSOR_BYTES);
  }
  tensor->byte_size = tensor->element_count * element_size;
  if (unknown && tensor->data)
    return invalid("a constant tensor with a dynamic (-1) dimension");
  return NULL;
}

static tflaccel_status read_tensor_data(reader *r, model_tensor *tensor) {
  const model_buffer *buffer = &r->model->buffers[tensor->buffer];
  if (buffer->size == 0) return NULL;
  tensor->data = buffer->data;
  tensor->data_size = buffer->size;
  /* Kernels read constants as typed arrays: a buffer a writer left
   * misaligned for its type is copied once; aligned ones stay in place. */
  uint64_t alignment = dtype_size(tensor->dtype);
  if (alignment > 8) alignment = 8;
  if (alignment > 1 && (uintptr_t)tensor->data % alignment != 0) {
    if (buffer->size > SIZE_MAX) return out_of_memory();
    uint8_t *copy = pool_alloc(r->pool, (size_t)buffer->size);
    if (copy == NULL) return out_of_memory();
    memcpy(copy, buffer->data, (size_t)buffer->size);
    tensor->data = copy;
  }
  return NULL;
}

static tflaccel_status read_tensor(reader *r, const fb_table *table, uint32_t index,
                                   model_tensor *tensor) {
  tflaccel_status status = fb_read_string(table, TFLITE_TENSOR_NAME, &tensor->name, NULL);
  if (status) return tflaccel_status_annotate(status, "tensor %u: name", index);
  if (tensor->name == NULL) tensor->name = "";
  status = read_i32_field(r, table, TFLITE_TENSOR_SHAPE, &tensor->rank, &tensor->shape);
  if (status) status = tflaccel_status_annotate(status, "shape");
  if (status == NULL) {
    status = read_i32_field(r, table, TFLITE_TENSOR_SHAPE_SIGNATURE,
                            &tensor->shape_signature_rank, &tensor->shape_signature);
    if (status) status = tflaccel_status_annotate(status, "shape_signature");
  }
  int8_t type = 0;
  if (status == NULL) status = fb_read_i8(table, TFLITE_TENSOR_TYPE, 0, &type);
  if (status == NULL) status = fb_read_u32(table, TFLITE_TENSOR_BUFFER, 0, &tensor->buffer);
  if (status == NULL) status = fb_read_bool(table, TFLITE_TENSOR_IS_VARIABLE, 0, &tensor->is_variable);
  if (status == NULL) status = fb_read_bool(table, TFLITE_TENSOR_HAS_RANK, 0, &tensor->has_rank);
  fb_table child;
  int present = 0;
  if (status == NULL) {
    status = fb_read_table(table, TFLITE_TENSOR_QUANTIZATION, &child, &present);
    if (status == NULL && present) status = read_quantization(r, &child, &tensor->quantization);
    if (status) status = tflaccel_status_annotate(status, "quantization");
  }
  if (status == NULL) {
    status = fb_read_table(table, TFLITE_TENSOR_SPARSITY, &child, &present);
    if (status == NULL && present) status = read_sparsity(r, &child, tensor->rank, &tensor->sparsity);
    if (status) status = tflaccel_status_annotate(status, "sparsity");
  }
  if (status == NULL) {
    tensor->dtype = type;
    if (type < 0 || type >= TFLACCEL_DTYPE_COUNT) {
      const char *name = tflite_tensor_type_name(type);
      status = name ? tflaccel_status_make(TFLACCEL_UNSUPPORTED, "type %d (%s) is not supported",
                                           type, name)
                    : invalid("unknown type %d", type);
    } else if (tensor->buffer >= r->model->buffer_count) {
      status = invalid("buffer index %u is out of range (the model has %u buffers)",
                       tensor->buffer, r->model->buffer_count);
    }
  }
  if (status == NULL) status = read_tensor_data(r, tensor);
  if (status == NULL) status = size_tensor(tensor);
  if (status == NULL) status = quantization_check(tensor);
  if (status == NULL && tensor->data && tensor->sparsity == NULL &&
      dtype_size(tensor->dtype) != 0 && tensor->data_size != tensor->byte_size) {
    char shape[160];
    status = invalid("buffer %u holds %" PRIu64 " bytes, but shape %s of %s needs %" PRIu64,
                     tensor->buffer, tensor->data_size,
                     format_shape(shape, sizeof shape, tensor->rank, tensor->shape),
                     dtype_name(tensor->dtype), tensor->byte_size);
  }
  if (status) {
    if (tensor->name)
      return tflaccel_status_annotate(status, "tensor %u ('%s')", index, tensor->name);
    return tflaccel_status_annotate(status, "tensor %u", index);
  }
  return NULL;
}

/* ---- Operators ---------------------------------------------------------- */

static tflaccel_status check_tensor_indices(const int32_t *indices, uint32_t count,
                                            uint32_t tensor_count, int absent_allowed,
                                            const char *what) {
  for (uint32_t i = 0; i < count; ++i) {
    if (indices[i] == -1 && absent_allowed) continue;
    if (indices[i] < 0 || (uint32_t)indices[i] >= tensor_count)
      return invalid("%s %u is tensor %d, out of range (the subgraph has %u tensors)", what, i,
                     indices[i], tensor_count);
  }
  return NULL;
}

static tflaccel_status read_custom_options(reader *r, const fb_table *table, model_op *op) {
  fb_vector options;
  tflaccel_status status = fb_read_vector(table, TFLITE_OPERATOR_CUSTOM_OPTIONS, 1, &options, NULL);
  if (status) return tflaccel_status_annotate(status, "custom_options");
  if (options.length > 0) {
    op->custom_options = fb_vector_data(&options);
    op->custom_options_size = options.length;
  } else {
    /* Models over 2 GB: options after the flatbuffer, valid when offset > 1. */
    uint64_t offset, size;
    status = fb_read_u64(table, TFLITE_OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET, 0, &offset);
    if (status == NULL)
      status = fb_read_u64(table, TFLITE_OPERATOR_LARGE_CUSTOM_OPTIONS_SIZE, 0, &size);
    if (status) return status;
    if (offset > 1) {
      if (offset > r->file.size || size > r->file.size - offset || size > UINT32_MAX)
        return invalid("large custom options at offset %" PRIu64 ", size %" PRIu64
                       " lie outside the file (%zu bytes)", offset, size, r->file.size);
      op->custom_options = size ? r->file.bytes + offset : NULL;
      op->custom_options_size = (uint32_t)size;
    }
  }
  return custom_options_parse(op->custom_code, op->custom_options, op->custom_options_size,
                              &op->params);
}

static tflaccel_status read_op(reader *r, const fb_table *table, uint32_t tensor_count,
                               model_op *op) {
  tflaccel_status status = fb_read_u32(table, TFLITE_OPERATOR_OPCODE_INDEX, 0, &op->opcode_index);
  if (status) return status;
  const stored_model *model = r->model;
  if (op->opcode_index >= model->operator_code_count)
    return invalid("opcode index %u is out of range (the model has %u operator codes)",
                   op->opcode_index, model->operator_code_count);
  const model_operator_code *code = &model->operator_codes[op->opcode_index];
  op->code = code->code;
  op->version = code->version;
  op->custom_code = code->custom_code;

  status = read_i32_field(r, table, TFLITE_OPERATOR_INPUTS, &op->input_count, &op->inputs);
  if (status) return tflaccel_status_annotate(status, "inputs");
  status = read_i32_field(r, table, TFLITE_OPERATOR_OUTPUTS, &op->output_count, &op->outputs);
  if (status) return tflaccel_status_annotate(status, "outputs");
  status = read_i32_field(r, table, TFLITE_OPERATOR_INTERMEDIATES, &op->intermediate_count,
                          &op->intermediates);
  if (status) return tflaccel_status_annotate(status, "intermediates");
  status = check_tensor_indices(op->inputs, op->input_count, tensor_count, 1, "input");
  if (status == NULL)
    status = check_tensor_indices(op->outputs, op->output_count, tensor_count, 0, "output");
  if (status == NULL)
    status = check_tensor_indices(op->intermediates, op->intermediate_count, tensor_count, 1,
                                  "intermediate");
  if (status) return status;

  if (op->code == TFLACCEL_OP_CUSTOM) return read_custom_options(r, table, op);
  uint8_t options_type;
  status = fb_read_u8(table, TFLITE_OPERATOR_BUILTIN_OPTIONS_TYPE, 0, &options_type);
  if (status) return status;
  fb_table options;
  int present = 0;
  if (options_type != 0) {
    status = fb_read_table(table, TFLITE_OPERATOR_BUILTIN_OPTIONS, &options, &present);
    if (status) return tflaccel_status_annotate(status, "builtin_options");
  }
  return builtin_options_parse(op->code, options_type, present ? &options : NULL, &op->params);
}

/* ---- Subgraphs ---------------------------------------------------------- */

static tflaccel_status read_subgraph(reader *r, const fb_table *table, model_subgraph *subgraph) {
  allocation_pool *pool = r->pool;
  tflaccel_status status = fb_read_string(table, TFLITE_SUBGRAPH_NAME, &subgraph->name, NULL);
  if (status) return tflaccel_status_annotate(status, "name");
  if (subgraph->name == NULL) subgraph->name = "";

  fb_vector tensors;
  status = fb_read_vector(table, TFLITE_SUBGRAPH_TENSORS, 4, &tensors, NULL);
  if (status) return tflaccel_status_annotate(status, "tensors");
  subgraph->tensor_count = tensors.length;
  subgraph->tensors = pool_alloc_array(pool, tensors.length, sizeof *subgraph->tensors);
  if (subgraph->tensors == NULL) return out_of_memory();
  for (uint32_t i = 0; i < tensors.length; ++i) {
    fb_table tensor;
    status = fb_vector_table(&tensors, i, &tensor);
    if (status) return tflaccel_status_annotate(status, "tensor %u", i);
    status = read_tensor(r, &tensor, i, &subgraph->tensors[i]);
    if (status) return status;
  }

  status = read_i32_field(r, table, TFLITE_SUBGRAPH_INPUTS, &subgraph->input_count,
                          &subgraph->inputs);
  if (status) return tflaccel_status_annotate(status, "inputs");
  status = check_tensor_indices(subgraph->inputs, subgraph->input_count, tensors.length, 0,
                                "input");
  if (status) return status;
  status = read_i32_field(r, table, TFLITE_SUBGRAPH_OUTPUTS, &subgraph->output_count,
                          &subgraph->outputs);
  if (status) return tflaccel_status_annotate(status, "outputs");
  status = check_tensor_indices(subgraph->outputs, subgraph->output_count, tensors.length, 0,
                                "output");
  if (status) return status;

  fb_vector ops;
  status = fb_read_vector(table, TFLITE_SUBGRAPH_OPERATORS, 4, &ops, NULL);
  if (status) return tflaccel_status_annotate(status, "operators");
  subgraph->op_count = ops.length;
  subgraph->ops = pool_alloc_array(pool, ops.length, sizeof *subgraph->ops);
  if (subgraph->ops == NULL) return out_of_memory();
  for (uint32_t i = 0; i < ops.length; ++i) {
    fb_table op;
    status = fb_vector_table(&ops, i, &op);
    if (status) return tflaccel_status_annotate(status, "op %u", i);
    model_op *stored = &subgraph->ops[i];
    status = read_op(r, &op, tensors.length, stored);
    if (status) {
      if (stored->opcode_index < r->model->operator_code_count)
        return tflaccel_status_annotate(status, "op %u (%s)", i, model_op_name(stored));
      return tflaccel_status_annotate(status, "op %u", i);
    }
  }
  return NULL;
}

static tflaccel_status read_subgraphs(reader *r, const fb_table *root) {
  fb_vector subgraphs;
  tflaccel_status status = fb_read_vector(root, TFLITE_MODEL_SUBGRAPHS, 4, &subgraphs, NULL);
  if (status) return tflaccel_status_annotate(status, "subgraphs");
  if (subgraphs.length == 0) return invalid("the model has no subgraphs");
  stored_model *model = r->model;
  model->subgraph_count = subgraphs.length;
  model->subgraphs = pool_alloc_array(r->pool, subgraphs.length, sizeof *model->subgraphs);
  if (model->subgraphs == NULL) return out_of_memory();
  for (uint32_t i = 0; i < subgraphs.length; ++i) {
    fb_table table;
    status = fb_vector_table(&subgraphs, i, &table);
    if (status == NULL) status = read_subgraph(r, &table, &model->subgraphs[i]);
    if (status) return tflaccel_status_annotate(status, "subgraph %u", i);
  }
  return NULL;
}

/* ---- Metadata and signatures -------------------------------------------- */

static tflaccel_status read_metadata(reader *r, const fb_table *root) {
  fb_vector metadata;
  tflaccel_status status = fb_read_vector(root, TFLITE_MODEL_METADATA, 4, &metadata, NULL);
  if (status) return tflaccel_status_annotate(status, "metadata");
  stored_model *model = r->model;
  model->metadata_count = metadata.length;
  model->metadata_names = pool_alloc_array(r->pool, metadata.length, sizeof(const char *));
  if (model->metadata_names == NULL) return out_of_memory();
  for (uint32_t i = 0; i < metadata.length; ++i) {
    fb_table table;
    const char *name = NULL;
    uint32_t buffer = 0;
    status = fb_vector_table(&metadata, i, &table);
    if (status == NULL) status = fb_read_string(&table, TFLITE_METADATA_NAME, &name, NULL);
    if (status == NULL) status = fb_read_u32(&table, TFLITE_METADATA_BUFFER, 0, &buffer);
    if (status == NULL && buffer >= model->buffer_count)
      status = invalid("buffer index %u is out of range (the model has %u buffers)", buffer,
                       model->buffer_count);
    if (status) return tflaccel_status_annotate(status, "metadata %u", i);
    model->metadata_names[i] = name ? name : "";
  }
  return NULL;
}

static tflaccel_status read_tensor_maps(const fb_table *signature, unsigned slot,
                                        uint32_t tensor_count, const char *what) {
  fb_vector maps;
  tflaccel_status status = fb_read_vector(signature, slot, 4, &maps, NULL);
  if (status) return tflaccel_status_annotate(status, "%s", what);
  for (uint32_t i = 0; i < maps.length; ++i) {
    fb_table map;
    const char *name;
    uint32_t tensor = 0;
    status = fb_vector_table(&maps, i, &map);
    if (status == NULL) status = fb_read_string(&map, TFLITE_TENSOR_MAP_NAME, &name, NULL);
    if (status == NULL) status = fb_read_u32(&map, TFLITE_TENSOR_MAP_TENSOR_INDEX, 0, &tensor);
    if (status == NULL && tensor >= tensor_count)
      status = invalid("tensor index %u is out of range (the subgraph has %u tensors)", tensor,
                       tensor_count);
    if (status) return tflaccel_status_annotate(status, "%s %u", what, i);
  }
  return NULL;
}

static tflaccel_status read_signature(reader *r, const fb_table *table, const char **key) {
  tflaccel_status status = fb_read_string(table, TFLITE_SIGNATURE_KEY, key, NULL);
  if (status) return tflaccel_status_annotate(status, "signature_key");
  if (*key == NULL) *key = "";
  uint32_t subgraph;
  status = fb_read_u32(table, TFLITE_SIGNATURE_SUBGRAPH_INDEX, 0, &subgraph);
  if (status) return status;
  if (subgraph >= r->model->subgraph_count)
    return invalid("subgraph index %u is out of range (the model has %u subgraphs)", subgraph,
                   r->model->subgraph_count);
  uint32_t tensor_count = r->model->subgraphs[subgraph].tensor_count;
  status = read_tensor_maps(table, TFLITE_SIGNATURE_INPUTS, tensor_count, "input");
  if (status == NULL) status = read_tensor_maps(table, TFLITE_SIGNATURE_OUTPUTS, tensor_count, "output");
  return status;
}

static tflaccel_status read_signatures(reader *r, const fb_table *root) {
  fb_vector signatures;
  tflaccel_status status = fb_read_vector(root, TFLITE_MODEL_SIGNATURE_DEFS, 4, &signatures, NULL);
  if (status) return tflaccel_status_annotate(status, "signature_defs");
  stored_model *model = r->model;
  model->signature_count = signatures.length;
  model->signature_keys = pool_alloc_array(r->pool, signatures.length, sizeof(const char *));
  if (model->signature_keys == NULL) return out_of_memory();
  for (uint32_t i = 0; i < signatures.length; ++i) {
    fb_table table;
    status = fb_vector_table(&signatures, i, &table);
    if (status == NULL) status = read_signature(r, &table, &model->signature_keys[i]);
    if (status) return tflaccel_status_annotate(status, "signature %u", i);
  }
  return NULL;
}

tflaccel_status tflite_read(const uint8_t *bytes, size_t size, allocation_pool *pool,
                            stored_model *model) {
  reader r = {.model = model, .pool = pool};
  fb_file_init(&r.file, bytes, size);
  fb_table root;
  tflaccel_status status = fb_root(&r.file, TFLITE_FILE_IDENTIFIER, &root);
  if (status) return status;
  status = fb_read_u32(&root, TFLITE_MODEL_VERSION, 0, &model->schema_version);
  if (status) return tflaccel_status_annotate(status, "version");
  if (model->schema_version != TFLITE_SCHEMA_VERSION)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "schema version %u is not supported (this reader reads version %u)",
                                model->schema_version, TFLITE_SCHEMA_VERSION);
  status = fb_read_string(&root, TFLITE_MODEL_DESCRIPTION, &model->description, NULL);
  if (status) return tflaccel_status_annotate(status, "description");
  if (model->description == NULL) model->description = "";
  status = read_buffers(&r, &root);
  if (status == NULL) status = read_operator_codes(&r, &root);
  if (status == NULL) status = read_subgraphs(&r, &root);
  if (status == NULL) status = read_metadata(&r, &root);
  if (status == NULL) status = read_signatures(&r, &root);
  return status;
}
