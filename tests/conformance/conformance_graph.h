/* Small graphs built in memory for the conformance cases: tensors (graph
 * inputs, intermediates, constants) and ops, as a tflaccel_graph_view. */
#ifndef TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_GRAPH_H
#define TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_GRAPH_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

#define CF_MAX_TENSORS 32
#define CF_MAX_OPS 8
#define CF_MAX_OP_INPUTS 20 /* UNIDIRECTIONAL_SEQUENCE_LSTM */
#define CF_MAX_BOUNDARY 8

typedef struct cf_graph {
  tflaccel_tensor_desc tensors[CF_MAX_TENSORS];
  int32_t dims[CF_MAX_TENSORS][4];
  void *data[CF_MAX_TENSORS];                                  /* constants' values (owned) */
  float input_low[CF_MAX_TENSORS], input_high[CF_MAX_TENSORS]; /* graph inputs' range */
  tflaccel_op_desc ops[CF_MAX_OPS];
  tflaccel_op_params params[CF_MAX_OPS];
  uint32_t op_inputs[CF_MAX_OPS][CF_MAX_OP_INPUTS];
  uint32_t op_outputs[CF_MAX_OPS][1];
  uint32_t tensor_count, op_count;
  uint32_t inputs[CF_MAX_BOUNDARY], input_count;
  uint32_t outputs[CF_MAX_BOUNDARY], output_count;
  uint32_t random_state; /* xorshift32 for constants and inputs */
  tflaccel_graph_view view;
} cf_graph;

void cf_graph_init(cf_graph *graph, uint32_t seed);
void cf_graph_release(cf_graph *graph);
/* The view over what was built (valid until the graph changes). */
const tflaccel_graph_view *cf_graph_view(cf_graph *graph);

/* A uniform random float in [low, high). */
float cf_random(cf_graph *graph, float low, float high);

/* An intermediate or output tensor (not yet marked as a graph output). */
uint32_t cf_tensor(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims);
/* A graph input whose run-time values are uniform in [low, high). */
uint32_t cf_input(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims, float low,
                  float high);
/* Constants: random floats in [low, high), given int32 values, one float. */
uint32_t cf_constant(cf_graph *graph, uint32_t rank, const int32_t *dims, float low, float high);
uint32_t cf_constant_int32(cf_graph *graph, uint32_t rank, const int32_t *dims,
                           const int32_t *values);
/* A constant of random integers in [low, high] of dtype (uint8, int8,
 * int16 or int32). */
uint32_t cf_constant_integers(cf_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                              int32_t low, int32_t high);
/* Gives tensor t count scales and zero points (static storage: the graph
 * keeps pointers) along axis. */
void cf_quantize(cf_graph *graph, uint32_t t, uint32_t count, const float *scales,
                 const int32_t *zero_points, int32_t axis);
void cf_output(cf_graph *graph, uint32_t tensor);

/* Adds an op; returns its params for the caller to fill. Absent inputs are
 * TFLACCEL_NO_TENSOR. */
tflaccel_op_params *cf_op(cf_graph *graph, int32_t code, uint32_t input_count,
                          const uint32_t *inputs, uint32_t output);

/* Element count of a tensor. */
int64_t cf_elements(const tflaccel_tensor_desc *tensor);

#endif
