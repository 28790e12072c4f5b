/* Building conformance graphs (conformance_graph.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "tests/conformance/conformance_graph.h"

void cf_graph_init(cf_graph *graph, uint32_t seed) {
  memset(graph, 0, sizeof *graph);
  graph->random_state = seed ? seed : 1;
}

void cf_graph_release(cf_graph *graph) {
  for (uint32_t t = 0; t < graph->tensor_count; ++t) free(graph->data[t]);
  memset(graph, 0, sizeof *graph);
}

const tflaccel_graph_view *cf_graph_view(cf_graph *graph) {
  graph->view.struct_size = sizeof graph->view;
  graph->view.tensor_count = graph->tensor_count;
  graph->view.tensors = graph->tensors;
  graph->view.op_count = graph->op_count;
  graph->view.ops = graph->ops;
  return &graph->view;
}

float cf_random(cf_graph *graph, float low, float high) {
  uint32_t s = graph->random_state;
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  graph->random_state = s;
  return low + (high - low) * (float)((double)s / 4294967296.0);
}

int64_t cf_elements(const tflaccel_tensor_desc *tensor) {
  int64_t count = 1;
  for (uint32_t d = 0; d < tensor->rank; ++d) count *= tensor->dims[d];
  return count;
}

uint32_t cf_tensor(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims) {
  ck_assert_uint_lt(graph->tensor_count, CF_MAX_TENSORS);
  ck_assert_uint_le(rank, 4);
  uint32_t index = graph->tensor_count++;
  tflaccel_tensor_desc *tensor = &graph->tensors[index];
  memset(tensor, 0, sizeof *tensor);
  tensor->struct_size = sizeof *tensor;
  tensor->dtype = dtype;
  tensor->rank = rank;
  for (uint32_t d = 0; d < rank; ++d) graph->dims[index][d] = dims[d];
  tensor->dims = graph->dims[index];
  tensor->name = "";
  tensor->byte_size = (uint64_t)cf_elements(tensor) * dtype_size(dtype);
  return index;
}

uint32_t cf_input(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims, float low,
                  float high) {
  uint32_t index = cf_tensor(graph, dtype, rank, dims);
  graph->tensors[index].flags = TFLACCEL_TENSOR_GRAPH_INPUT;
  graph->input_low[index] = low;
  graph->input_high[index] = high;
  ck_assert_uint_lt(graph->input_count, CF_MAX_BOUNDARY);
  graph->inputs[graph->input_count++] = index;
  return index;
}

static void set_constant(cf_graph *graph, uint32_t index, void *data) {
  tflaccel_tensor_desc *tensor = &graph->tensors[index];
  graph->data[index] = data;
  tensor->flags = TFLACCEL_TENSOR_CONSTANT;
  tensor->data = data;
  tensor->data_size = tensor->byte_size;
}

uint32_t cf_constant(cf_graph *graph, uint32_t rank, const int32_t *dims, float low, float high) {
  uint32_t index = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, rank, dims);
  int64_t count = cf_elements(&graph->tensors[index]);
  float *values = malloc(sizeof(float) * (size_t)(count > 0 ? count : 1));
  ck_assert_ptr_nonnull(values);
  for (int64_t i = 0; i < count; ++i) values[i] = cf_random(graph, low, high);
  set_constant(graph, index, values);
  return index;
}

uint32_t cf_constant_int32(cf_graph *graph, uint32_t rank, const int32_t *dims,
                           const int32_t *values) {
  uint32_t index = cf_tensor(graph, TFLACCEL_DTYPE_INT32, rank, dims);
  size_t bytes = (size_t)graph->tensors[index].byte_size;
  int32_t *copy = malloc(bytes ? bytes : 1);
  ck_assert_ptr_nonnull(copy);
  memcpy(copy, values, bytes);
  set_constant(graph, index, copy);
  return index;
}

void cf_quantize(cf_graph *graph, uint32_t t, uint32_t count, const float *scales,
                 const int32_t *zero_points, int32_t axis) {
  tflaccel_quantization *q = &graph->tensors[t].quantization;
  q->count = count;
  q->scales = scales;
  q->zero_points = zero_points;
  q->quantized_dimension = axis;
}

uint32_t cf_constant_integers(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                              int32_t low, int32_t high) {
  uint32_t t = cf_tensor(graph, dtype, rank, dims);
  tflaccel_tensor_desc *tensor = &graph->tensors[t];
  int64_t count = cf_elements(tensor);
  size_t bytes = (size_t)tensor->byte_size;
  void *data = malloc(bytes ? bytes : 1);
  ck_assert_ptr_nonnull(data);
  for (int64_t k = 0; k < count; ++k) {
    int32_t value = (int32_t)cf_random(graph, (float)low, (float)high + 1.0f);
    if (value > high) value = high;
    if (dtype == TFLACCEL_DTYPE_UINT8)
      ((uint8_t *)data)[k] = (uint8_t)value;
    else if (dtype == TFLACCEL_DTYPE_INT8)
      ((int8_t *)data)[k] = (int8_t)value;
    else if (dtype == TFLACCEL_DTYPE_INT16)
      ((int16_t *)data)[k] = (int16_t)value;
    else
      ((int32_t *)data)[k] = value;
  }
  graph->data[t] = data;
  tensor->flags = TFLACCEL_TENSOR_CONSTANT;
  tensor->data = data;
  tensor->data_size = tensor->byte_size;
  return t;
}

void cf_output(cf_graph *graph, uint32_t tensor) {
  ck_assert_uint_lt(graph->output_count, CF_MAX_BOUNDARY);
  graph->tensors[tensor].flags |= TFLACCEL_TENSOR_GRAPH_OUTPUT;
  graph->outputs[graph->output_count++] = tensor;
}

tflaccel_op_params *cf_op(cf_graph *graph, int32_t code, uint32_t input_count,
                          const uint32_t *inputs, uint32_t output) {
  ck_assert_uint_lt(graph->op_count, CF_MAX_OPS);
  ck_assert_uint_le(input_count, CF_MAX_OP_INPUTS);
  uint32_t index = graph->op_count++;
  tflaccel_op_desc *op = &graph->ops[index];
  memset(op, 0, sizeof *op);
  memset(&graph->params[index], 0, sizeof graph->params[index]);
  memcpy(graph->op_inputs[index], inputs, sizeof(uint32_t) * input_count);
  graph->op_outputs[index][0] = output;
  op->struct_size = sizeof *op;
  op->code = code;
  op->version = 1;
  op->params = &graph->params[index];
  op->input_count = input_count;
  op->output_count = 1;
  op->inputs = graph->op_inputs[index];
  op->outputs = graph->op_outputs[index];
  return &graph->params[index];
}
