/* Building the prepared graph of subgraph 0 (model.h) and its estimates. */
#ifndef TFLACCEL_CORE_GRAPH_PREPARED_GRAPH_H
#define TFLACCEL_CORE_GRAPH_PREPARED_GRAPH_H

#include "core/graph/model_internal.h"

/* Fills model->prepared from the stored subgraph 0, the inferred shapes and
 * the folding results, then model->weight_bytes and
 * model->peak_activation_bytes. */
tflaccel_status prepared_graph_build(tflaccel_model *model);

#endif
