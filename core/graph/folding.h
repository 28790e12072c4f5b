/* Load-time folding of subgraph 0's constant DENSIFY and DEQUANTIZE ops. */
#ifndef TFLACCEL_CORE_GRAPH_FOLDING_H
#define TFLACCEL_CORE_GRAPH_FOLDING_H

#include "core/graph/model_internal.h"

/* Computes, once, the outputs of DENSIFY ops on constant sparse tensors and
 * of DEQUANTIZE ops on constant float16 tensors (including the dense results
 * of the former), so accelerators see plain constants: fills
 * model->folded_* and marks the folded ops in model->op_folded. Ops whose
 * output is a graph output or a variable are kept. Needs the shapes from
 * shape_inference_run. */
tflaccel_status fold_constants(tflaccel_model *model);

#endif
