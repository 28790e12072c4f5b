/* The model as the rest of the core sees it: the prepared graph of
 * subgraph 0 (after load-time folding), in the form plugins receive. */
#ifndef TFLACCEL_CORE_GRAPH_MODEL_H
#define TFLACCEL_CORE_GRAPH_MODEL_H

#include <stdint.h>

#include "tflaccel/accelerator.h"
#include "tflaccel/tflaccel.h"

/* The prepared graph of subgraph 0 (after folding): what plugins see.
 * tensors[] has one entry per stored tensor (same indices as the file);
 * ops[] are the ops that remain after folding, in execution order.
 * Folded DEQUANTIZE/DENSIFY outputs become TFLACCEL_TENSOR_CONSTANT
 * tensors (float32 for DEQUANTIZE) whose data the model owns. Every op_desc
 * has params != NULL. Valid as long as the model. */
const tflaccel_graph_view *model_prepared_graph(const tflaccel_model *model);
const uint32_t *model_graph_inputs(const tflaccel_model *model, uint32_t *count);
const uint32_t *model_graph_outputs(const tflaccel_model *model, uint32_t *count);
/* Stored (file) op index that prepared op `op` came from. */
uint32_t model_prepared_op_source(const tflaccel_model *model, uint32_t op);
/* Producer (prepared op index) of a tensor, -1 for constants, inputs, variables. */
int32_t model_tensor_producer(const tflaccel_model *model, uint32_t tensor);
/* Prepared ops that read the tensor, in increasing order, each once. */
const uint32_t *model_tensor_consumers(const tflaccel_model *model, uint32_t tensor,
                                       uint32_t *count);

/* The model's token for the compiled-model cache: the SHA-256 of its
 * bytes in hex, computed on the first call (only when a cache is on), then
 * kept; safe from any thread. */
const char *model_token(const tflaccel_model *model);
/* The last component of the file it was loaded from ("" when loaded from
 * memory): what `tflaccel cache list` shows beside the token. */
const char *model_file_name(const tflaccel_model *model);

#endif
