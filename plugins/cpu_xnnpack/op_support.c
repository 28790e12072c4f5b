/* supports_op: the op is defined alone in a scratch subgraph and a runtime
 * is created from it, so the answer is XNNPACK's own (datatypes, parameter
 * limits, requantization ranges), not a guess about this library version. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"
#include "plugins/cpu_xnnpack/xnn_device.h"

/* Estimated time against cpu_ref for the same op: XNNPACK's kernels measured
 * 8-30x faster on the corpus (bench/RESULTS.md); a conservative figure. */
#define XNNPACK_RELATIVE_COST 0.1f

/* Defines op_index's non-constant inputs and its output as external values,
 * then the op; creates and drops a runtime. */
static int try_op(xnnp_build *build, const tflaccel_op_desc *op) {
  if (!xnnp_op_listed(build, op) || !xnnp_check_op_lists(build, op)) return 0;
  uint32_t external = 0;
  for (uint32_t i = 0; i < op->input_count; i++) {
    uint32_t tensor = op->inputs[i];
    if (tensor == TFLACCEL_NO_TENSOR || xnnp_is_constant(&build->graph->tensors[tensor])) continue;
    if (!xnnp_external_value(build, tensor, external++, XNN_VALUE_FLAG_EXTERNAL_INPUT)) return 0;
  }
  if (!xnnp_external_value(build, op->outputs[0], external, XNN_VALUE_FLAG_EXTERNAL_OUTPUT))
    return 0;
  if (!xnnp_define_op(build, op)) return 0;
  xnn_runtime_t runtime = NULL;
  enum xnn_status status = xnn_create_runtime_v2(build->subgraph, NULL, 0, &runtime);
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK cannot set up %s with these types and parameters (status %d)",
                     xnnp_op_name(op), (int)status);
  xnn_delete_runtime(runtime);
  return 1;
}

tflaccel_status xnnp_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                 uint32_t op_index, const tflaccel_compile_options *options,
                                 tflaccel_op_support *support) {
  (void)options;
  const tflaccel_host_services *host = ((xnnp_device *)device)->host;
  if (graph == NULL || support == NULL || op_index >= graph->op_count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_xnnpack supports_op: no graph, no answer struct, or op %u is "
                             "outside the graph",
                             op_index);
  support->level = TFLACCEL_SUPPORT_NO;
  support->relative_cost = 0.0f;
  support->reason[0] = '\0';
  const tflaccel_op_desc *op = &graph->ops[op_index];
  uint32_t *value_ids = host->alloc(host->context, (graph->tensor_count + 1) * sizeof *value_ids, 0);
  if (value_ids == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory");
  memset(value_ids, 0xFF, (graph->tensor_count + 1) * sizeof *value_ids);
  xnn_subgraph_t subgraph = NULL;
  enum xnn_status status = xnn_create_subgraph(op->input_count + op->output_count, 0, &subgraph);
  if (status != xnn_status_success) {
    host->free(host->context, value_ids);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "cpu_xnnpack: cannot create a subgraph (status %d)", (int)status);
  }
  xnnp_build build = {subgraph, graph, value_ids, support->reason};
  if (try_op(&build, op)) {
    support->level = TFLACCEL_SUPPORT_YES;
    support->relative_cost = XNNPACK_RELATIVE_COST;
    support->reason[0] = '\0';
  }
  xnn_delete_subgraph(subgraph);
  host->free(host->context, value_ids);
  return NULL;
}
