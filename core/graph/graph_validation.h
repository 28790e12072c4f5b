/* Dependency checks of a stored subgraph. */
#ifndef TFLACCEL_CORE_GRAPH_GRAPH_VALIDATION_H
#define TFLACCEL_CORE_GRAPH_GRAPH_VALIDATION_H

#include "core/graph/model_internal.h"

/* Checks that every op input is a constant, a graph input, a variable, an
 * empty tensor or the output of an earlier op (so the graph has no cycle and
 * its ops are in execution order), that no tensor is produced twice or is
 * both constant and produced, and that every graph output is produced. */
tflaccel_status graph_validate_dependencies(const model_subgraph *subgraph);

#endif
