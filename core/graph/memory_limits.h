/* The documented memory limit of a model: what its declared shapes would
 * make the runtime allocate (activations, folded constants, device buffers)
 * is bounded at load, so that a corrupt or hostile file is refused with the
 * reason instead of exhausting the machine later. */
#ifndef TFLACCEL_CORE_GRAPH_MEMORY_LIMITS_H
#define TFLACCEL_CORE_GRAPH_MEMORY_LIMITS_H

#include "core/graph/model_internal.h"

/* The default: 8 GiB of non-constant tensors in all (each tensor counted
 * whole, before the arena planner shares memory); far above any edge model.
 * TFLACCEL_MEMORY_LIMIT_MB (a positive number of MiB) sets another. */
#define MODEL_DEFAULT_MEMORY_LIMIT (UINT64_C(8) << 30)

/* Refuses the model when one non-constant tensor of a subgraph, or all of
 * them together, need more bytes than the limit. Subgraph 0 is measured
 * with its inferred shapes (run after shape inference, before folding). */
tflaccel_status memory_limits_check(const tflaccel_model *model);

#endif
