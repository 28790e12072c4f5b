/* Shape inference and validation of subgraph 0. */
#ifndef TFLACCEL_CORE_GRAPH_SHAPE_INFERENCE_H
#define TFLACCEL_CORE_GRAPH_SHAPE_INFERENCE_H

#include "core/graph/model_internal.h"

/* Walks subgraph 0's ops in order. For every op it knows, computes the
 * output shapes from the input shapes (and constant inputs such as a
 * RESHAPE's shape or a PAD's paddings) and compares them with the stored
 * ones: a mismatch is an error "op N (NAME): reason". An output stored
 * without a shape ([] without has_rank) takes the computed shape. Ops it
 * does not know, or whose inputs have unknown shapes, are left alone.
 * Fills model->shapes (one per tensor of subgraph 0). */
tflaccel_status shape_inference_run(tflaccel_model *model);

#endif
