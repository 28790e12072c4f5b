#include "config.h"

#include <stddef.h>

#include "plugins/cpu_ref/kernel.h"

/* Custom ops by custom_code; then quantized kernels: they claim
 * uint8/int8/int16 ops (and the recurrent ones) that the generic
 * data-movement kernels would also take without requantizing. */
const cpu_kernel *cpu_kernel_lookup(const tflaccel_graph_view *graph, const tflaccel_op_desc *op) {
  const cpu_kernel *kernel = cpu_custom_kernel_find(graph, op);
  if (kernel != NULL) return kernel;
  kernel = cpu_quantized_kernel_find(graph, op);
  if (kernel != NULL) return kernel;
  return cpu_generic_kernel_find(graph, op);
}
