/* Folding keeps the stored graph untouched: the prepared graph (see
 * prepared_graph.c) drops the folded ops and shows their outputs as
 * constants whose data the model owns. */
#include "config.h"

#include <string.h>

#include "core/facts/dtype.h"
#include "core/facts/half.h"
#include "core/graph/folding.h"
#include "core/tflite/densify.h"
#include "core/tflite/flatbuffer.h"

/* A sparse tensor may expand a lot, but a corrupt shape must not make the
 * loader allocate without bound: a folded constant may be at most this many
 * times the file (plus 1 MiB) and at most 4 GiB. */
#define FOLD_EXPANSION_LIMIT 256
#define FOLD_ABSOLUTE_LIMIT (UINT64_C(4) << 30)

typedef struct fold_context {
  tflaccel_model *model;
  const model_subgraph *subgraph;
  uint8_t *is_output; /* per tensor: a graph output */
} fold_context;

static uint64_t shape_elements(const model_shape *shape) {
  uint64_t count = 1;
  for (uint32_t i = 0; i < shape->rank; ++i) count *= (uint64_t)shape->dims[i];
  return count;
}

static tflaccel_status allocate_folded(fold_context *c, uint32_t op, uint64_t bytes, void **memory) {
  uint64_t limit = (uint64_t)c->model->size * FOLD_EXPANSION_LIMIT + (UINT64_C(1) << 20);
  if (limit > FOLD_ABSOLUTE_LIMIT) limit = FOLD_ABSOLUTE_LIMIT;
  const model_op *stored = &c->subgraph->ops[op];
  if (bytes > limit || bytes > SIZE_MAX)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "op %u (%s): folding it needs %llu bytes, more than a model of "
                                "%zu bytes can plausibly hold", op, model_op_name(stored),
                                (unsigned long long)bytes, c->model->size);
  *memory = pool_alloc(&c->model->pool, (size_t)bytes);
  if (*memory == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "op %u (%s): out of memory folding it",
                                op, model_op_name(stored));
  return NULL;
}

/* The single input and output of a foldable op, or 0 when it cannot fold. */
static int fold_operands(const fold_context *c, const model_op *op, int32_t *input,
                         int32_t *output) {
  if (op->input_count < 1 || op->output_count != 1 || op->inputs[0] < 0) return 0;
  *input = op->inputs[0];
  *output = op->outputs[0];
  const model_tensor *out = &c->subgraph->tensors[*output];
  if (c->is_output[*output] || out->is_variable || !c->model->shapes[*output].known) return 0;
  return 1;
}

static tflaccel_status fold_densify(fold_context *c, uint32_t o) {
  const model_op *op = &c->subgraph->ops[o];
  int32_t input, output;
  if (!fold_operands(c, op, &input, &output)) return NULL;
  const model_tensor *sparse = &c->subgraph->tensors[input];
  const model_tensor *dense = &c->subgraph->tensors[output];
  if (sparse->sparsity == NULL || sparse->data == NULL || sparse->is_variable) return NULL;
  if (dense->dtype != sparse->dtype)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "op %u (DENSIFY): output type %s differs from the input's %s", o,
                                dtype_name(dense->dtype),
                                dtype_name(sparse->dtype));
  uint64_t elements = sparse->element_count;
  if (shape_elements(&c->model->shapes[output]) != elements) return NULL;
  void *memory;
  uint64_t bytes = elements * dtype_size(sparse->dtype);
  tflaccel_status status = allocate_folded(c, o, bytes, &memory);
  if (status) return status;
  status = densify_tensor(sparse, memory);
  if (status)
    return tflaccel_status_annotate(status, "op %u (DENSIFY) of tensor %d ('%s')", o, input,
                                    sparse->name);
  c->model->folded_data[output] = memory;
  c->model->folded_size[output] = bytes;
  c->model->folded_dtype[output] = sparse->dtype;
  c->model->op_folded[o] = 1;
  return NULL;
}

static tflaccel_status fold_dequantize(fold_context *c, uint32_t o) {
  const model_op *op = &c->subgraph->ops[o];
  int32_t input, output;
  if (!fold_operands(c, op, &input, &output)) return NULL;
  tflaccel_model *model = c->model;
  const model_tensor *source = &c->subgraph->tensors[input];
  const uint8_t *data;
  uint64_t size;
  int32_t dtype;
  if (model->folded_data[input]) {
    data = model->folded_data[input];
    size = model->folded_size[input];
    dtype = model->folded_dtype[input];
  } else {
    if (source->data == NULL || source->sparsity || source->is_variable) return NULL;
    data = source->data;
    size = source->data_size;
    dtype = source->dtype;
  }
  if (dtype != TFLACCEL_DTYPE_FLOAT16 ||
      c->subgraph->tensors[output].dtype != TFLACCEL_DTYPE_FLOAT32)
    return NULL; /* integer dequantization stays an op */
  uint64_t elements = size / 2;
  if (size % 2 != 0 || shape_elements(&model->shapes[output]) != elements) return NULL;
  void *memory;
  tflaccel_status status = allocate_folded(c, o, elements * 4, &memory);
  if (status) return status;
  float *values = memory;
  half_to_float_array(data, (size_t)elements, values);
  model->folded_data[output] = memory;
  model->folded_size[output] = elements * 4;
  model->folded_dtype[output] = TFLACCEL_DTYPE_FLOAT32;
  model->op_folded[o] = 1;
  return NULL;
}

tflaccel_status fold_constants(tflaccel_model *model) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  allocation_pool *pool = &model->pool;
  size_t tensors = subgraph->tensor_count ? subgraph->tensor_count : 1;
  model->folded_data = pool_alloc_array(pool, tensors, sizeof *model->folded_data);
  model->folded_size = pool_alloc_array(pool, tensors, sizeof *model->folded_size);
  model->folded_dtype = pool_alloc_array(pool, tensors, sizeof *model->folded_dtype);
  model->op_folded = pool_alloc(pool, subgraph->op_count);
  fold_context c = {.model = model, .subgraph = subgraph, .is_output = pool_alloc(pool, tensors)};
  if (!model->folded_data || !model->folded_size || !model->folded_dtype || !model->op_folded ||
      !c.is_output)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory folding constants");
  for (uint32_t i = 0; i < subgraph->output_count; ++i) c.is_output[subgraph->outputs[i]] = 1;
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    tflaccel_status status = NULL;
    if (subgraph->ops[o].code == TFLACCEL_OP_DENSIFY) status = fold_densify(&c, o);
    else if (subgraph->ops[o].code == TFLACCEL_OP_DEQUANTIZE) status = fold_dequantize(&c, o);
    if (status) return status;
  }
  return NULL;
}
