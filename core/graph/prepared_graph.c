/* The prepared graph: tensor and op descriptors in the accelerator ABI's
 * form, producer/consumer links, and the model's size estimates. */
#include "config.h"

#include <stdlib.h>

#include "core/facts/dtype.h"
#include "core/memory/arena_planner.h"
#include "core/graph/prepared_graph.h"

#define ACTIVATION_ALIGNMENT 64
/* Real models have a few thousand activations at most. */
#define ACTIVATION_PLAN_LIMIT 65536

static tflaccel_status out_of_memory(void) {
  return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory preparing the graph");
}

/* Element count * dtype size of a known shape; 0 when unknown. */
static tflaccel_status shape_bytes(const model_shape *shape, int32_t dtype, uint32_t tensor,
                                   uint64_t *bytes) {
  *bytes = 0;
  if (!shape->known) return NULL;
  uint64_t count = dtype_size(dtype);
  for (uint32_t i = 0; i < shape->rank; ++i) {
    uint64_t dim = (uint64_t)shape->dims[i];
    if (dim != 0 && count > MODEL_MAX_TENSOR_BYTES / dim)
      return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                  "tensor %u: its inferred shape is too large", tensor);
    count *= dim;
  }
  *bytes = count;
  return NULL;
}

static tflaccel_status build_tensors(tflaccel_model *model, prepared_graph *graph) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  graph->tensors = pool_alloc_array(&model->pool, subgraph->tensor_count ? subgraph->tensor_count : 1,
                                    sizeof *graph->tensors);
  if (graph->tensors == NULL) return out_of_memory();
  for (uint32_t t = 0; t < subgraph->tensor_count; ++t) {
    const model_tensor *stored = &subgraph->tensors[t];
    tflaccel_tensor_desc *desc = &graph->tensors[t];
    desc->struct_size = sizeof *desc;
    desc->dtype = stored->dtype;
    desc->rank = model->shapes[t].rank;
    desc->dims = model->shapes[t].dims;
    desc->name = stored->name;
    desc->quantization = stored->quantization;
    if (model->folded_data[t]) {
      desc->dtype = model->folded_dtype[t];
      desc->data = model->folded_data[t];
      desc->data_size = model->folded_size[t];
      desc->flags |= TFLACCEL_TENSOR_CONSTANT;
    } else if (stored->data) {
      desc->data = stored->data;
      desc->data_size = stored->data_size;
      /* A variable's buffer is its initial value, not a constant. */
      if (!stored->is_variable) desc->flags |= TFLACCEL_TENSOR_CONSTANT;
    }
    if (stored->is_variable) desc->flags |= TFLACCEL_TENSOR_VARIABLE;
    tflaccel_status status = shape_bytes(&model->shapes[t], desc->dtype, t, &desc->byte_size);
    if (status) return status;
  }
  for (uint32_t i = 0; i < subgraph->input_count; ++i)
    graph->tensors[subgraph->inputs[i]].flags |= TFLACCEL_TENSOR_GRAPH_INPUT;
  for (uint32_t i = 0; i < subgraph->output_count; ++i)
    graph->tensors[subgraph->outputs[i]].flags |= TFLACCEL_TENSOR_GRAPH_OUTPUT;
  return NULL;
}

static void convert_indices(const int32_t *stored, uint32_t count, uint32_t *out) {
  for (uint32_t i = 0; i < count; ++i)
    out[i] = stored[i] < 0 ? TFLACCEL_NO_TENSOR : (uint32_t)stored[i];
}

static tflaccel_status build_ops(tflaccel_model *model, prepared_graph *graph) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  uint32_t kept = 0;
  uint64_t index_count = 0;
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    if (model->op_folded[o]) continue;
    const model_op *op = &subgraph->ops[o];
    ++kept;
    index_count += (uint64_t)op->input_count + op->output_count + op->intermediate_count;
  }
  allocation_pool *pool = &model->pool;
  graph->ops = pool_alloc_array(pool, kept ? kept : 1, sizeof *graph->ops);
  graph->op_source = pool_alloc_array(pool, kept ? kept : 1, sizeof *graph->op_source);
  uint32_t *indices = index_count > SIZE_MAX / sizeof(uint32_t) ? NULL :
                      pool_alloc_array(pool, index_count ? (size_t)index_count : 1, sizeof *indices);
  if (graph->ops == NULL || graph->op_source == NULL || indices == NULL) return out_of_memory();
  uint32_t p = 0;
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    if (model->op_folded[o]) continue;
    const model_op *op = &subgraph->ops[o];
    tflaccel_op_desc *desc = &graph->ops[p];
    desc->struct_size = sizeof *desc;
    desc->code = op->code;
    desc->version = op->version;
    desc->custom_code = op->custom_code;
    desc->custom_options = op->custom_options;
    desc->custom_options_size = op->custom_options_size;
    desc->params = &op->params;
    desc->input_count = op->input_count;
    desc->output_count = op->output_count;
    desc->intermediate_count = op->intermediate_count;
    desc->inputs = indices;
    convert_indices(op->inputs, op->input_count, indices);
    indices += op->input_count;
    desc->outputs = indices;
    convert_indices(op->outputs, op->output_count, indices);
    indices += op->output_count;
    desc->intermediates = indices;
    convert_indices(op->intermediates, op->intermediate_count, indices);
    indices += op->intermediate_count;
    graph->op_source[p++] = o;
  }
  graph->view.struct_size = sizeof graph->view;
  graph->view.tensor_count = subgraph->tensor_count;
  graph->view.tensors = graph->tensors;
  graph->view.op_count = kept;
  graph->view.ops = graph->ops;
  return NULL;
}

static tflaccel_status build_links(tflaccel_model *model, prepared_graph *graph) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  allocation_pool *pool = &model->pool;
  uint32_t tensor_count = subgraph->tensor_count;
  graph->input_count = subgraph->input_count;
  graph->output_count = subgraph->output_count;
  graph->inputs = pool_alloc_array(pool, subgraph->input_count ? subgraph->input_count : 1,
                                   sizeof *graph->inputs);
  graph->outputs = pool_alloc_array(pool, subgraph->output_count ? subgraph->output_count : 1,
                                    sizeof *graph->outputs);
  graph->producer = pool_alloc_array(pool, tensor_count ? tensor_count : 1, sizeof *graph->producer);
  graph->consumer_start = pool_alloc_array(pool, (size_t)tensor_count + 1,
                                           sizeof *graph->consumer_start);
  if (!graph->inputs || !graph->outputs || !graph->producer || !graph->consumer_start)
    return out_of_memory();
  convert_indices(subgraph->inputs, subgraph->input_count, graph->inputs);
  convert_indices(subgraph->outputs, subgraph->output_count, graph->outputs);
  for (uint32_t t = 0; t < tensor_count; ++t) graph->producer[t] = -1;
  /* Consumers as one array sliced per tensor (counting sort); an op that
   * reads a tensor twice is listed once (last_reader remembers the op that
   * last counted it). */
  uint32_t *counts = graph->consumer_start + 1;
  uint32_t *last_reader = malloc((tensor_count ? tensor_count : 1) * sizeof *last_reader);
  if (last_reader == NULL) return out_of_memory();
  for (uint32_t t = 0; t < tensor_count; ++t) last_reader[t] = UINT32_MAX;
  uint64_t total = 0;
  for (uint32_t p = 0; p < graph->view.op_count; ++p) {
    const tflaccel_op_desc *op = &graph->ops[p];
    for (uint32_t k = 0; k < op->output_count; ++k) graph->producer[op->outputs[k]] = (int32_t)p;
    for (uint32_t k = 0; k < op->input_count; ++k) {
      uint32_t t = op->inputs[k];
      if (t == TFLACCEL_NO_TENSOR || last_reader[t] == p) continue;
      last_reader[t] = p;
      counts[t]++;
      total++;
    }
  }
  for (uint32_t t = 0; t < tensor_count; ++t) graph->consumer_start[t + 1] += graph->consumer_start[t];
  graph->consumers = pool_alloc_array(pool, total ? (size_t)total : 1, sizeof *graph->consumers);
  if (graph->consumers == NULL) {
    free(last_reader);
    return out_of_memory();
  }
  /* Second pass: last_reader[t] becomes the next free slot of t's slice. */
  for (uint32_t t = 0; t < tensor_count; ++t) last_reader[t] = graph->consumer_start[t];
  for (uint32_t p = 0; p < graph->view.op_count; ++p) {
    const tflaccel_op_desc *op = &graph->ops[p];
    for (uint32_t k = 0; k < op->input_count; ++k) {
      uint32_t t = op->inputs[k];
      if (t == TFLACCEL_NO_TENSOR) continue;
      uint32_t slot = last_reader[t];
      if (slot > graph->consumer_start[t] && graph->consumers[slot - 1] == p) continue;
      graph->consumers[slot] = p;
      last_reader[t] = slot + 1;
    }
  }
  free(last_reader);
  return NULL;
}

/* Bytes of the distinct buffers subgraph 0's tensors use, as stored. */
static tflaccel_status count_weights(tflaccel_model *model) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  uint8_t *counted = calloc(model->stored.buffer_count ? model->stored.buffer_count : 1, 1);
  if (counted == NULL) return out_of_memory();
  model->weight_bytes = 0;
  for (uint32_t t = 0; t < subgraph->tensor_count; ++t) {
    const model_tensor *tensor = &subgraph->tensors[t];
    if (tensor->data == NULL || counted[tensor->buffer]) continue;
    counted[tensor->buffer] = 1;
    model->weight_bytes += tensor->data_size;
  }
  free(counted);
  return NULL;
}

/* The arena a runtime would need for subgraph 0's non-constant tensors,
 * each alive from the step that produces it (0 for graph inputs and
 * variables) to its last reader (the end for graph outputs and variables). */
static tflaccel_status estimate_activations(tflaccel_model *model) {
  const prepared_graph *graph = &model->prepared;
  uint32_t tensor_count = graph->view.tensor_count;
  int32_t last_step = graph->view.op_count ? (int32_t)graph->view.op_count - 1 : 0;
  tflaccel_arena_request *requests =
      calloc(tensor_count ? tensor_count : 1, sizeof *requests);
  if (requests == NULL) return out_of_memory();
  uint32_t count = 0;
  for (uint32_t t = 0; t < tensor_count; ++t) {
    const tflaccel_tensor_desc *desc = &graph->tensors[t];
    if (desc->flags & TFLACCEL_TENSOR_CONSTANT) continue;
    uint32_t readers = graph->consumer_start[t + 1] - graph->consumer_start[t];
    int32_t producer = graph->producer[t];
    int persistent = (desc->flags & (TFLACCEL_TENSOR_GRAPH_INPUT | TFLACCEL_TENSOR_VARIABLE)) != 0;
    if (producer < 0 && !persistent && readers == 0 &&
        !(desc->flags & TFLACCEL_TENSOR_GRAPH_OUTPUT))
      continue; /* not used by the prepared graph */
    tflaccel_arena_request *request = &requests[count++];
    request->size = desc->byte_size;
    request->first_use = producer >= 0 ? producer : 0;
    request->last_use = request->first_use;
    if (readers > 0) {
      int32_t last_reader = (int32_t)graph->consumers[graph->consumer_start[t + 1] - 1];
      if (last_reader > request->last_use) request->last_use = last_reader;
    }
    if (desc->flags & (TFLACCEL_TENSOR_GRAPH_OUTPUT | TFLACCEL_TENSOR_VARIABLE))
      request->last_use = last_step;
  }
  uint64_t total = 0;
  tflaccel_status status = NULL;
  if (count <= ACTIVATION_PLAN_LIMIT) {
    status = arena_plan(requests, count, ACTIVATION_ALIGNMENT, &total);
  } else {
    /* The planner is quadratic; past any real model's size the estimate is
     * the plain sum, an upper bound. */
    for (uint32_t i = 0; i < count; ++i) {
      uint64_t size = (requests[i].size + ACTIVATION_ALIGNMENT - 1) / ACTIVATION_ALIGNMENT *
                      ACTIVATION_ALIGNMENT;
      total = size > UINT64_MAX - total ? UINT64_MAX : total + size;
    }
  }
  free(requests);
  if (status) return status;
  model->peak_activation_bytes = total;
  return NULL;
}

tflaccel_status prepared_graph_build(tflaccel_model *model) {
  prepared_graph *graph = &model->prepared;
  tflaccel_status status = build_tensors(model, graph);
  if (status == NULL) status = build_ops(model, graph);
  if (status == NULL) status = build_links(model, graph);
  if (status == NULL) status = count_weights(model);
  if (status == NULL) status = estimate_activations(model);
  return status;
}
