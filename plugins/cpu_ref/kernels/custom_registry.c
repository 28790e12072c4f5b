/* Which cpu_ref kernel serves a custom op: looked up by custom_code. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "plugins/cpu_ref/kernel.h"
#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"

static const cpu_kernel *const custom_kernels[] = {
    &cpu_custom_landmarks_to_transform_matrix_kernel,
    &cpu_custom_transform_tensor_bilinear_kernel,
    &cpu_custom_transform_landmarks_kernel,
    &cpu_custom_posenet_decoder_kernel,
};

const cpu_kernel *cpu_custom_kernel_find(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op) {
  (void)graph;
  if (op == NULL || op->code != TFLACCEL_OP_CUSTOM || op->custom_code == NULL) return NULL;
  for (size_t i = 0; i < sizeof custom_kernels / sizeof custom_kernels[0]; i++)
    if (strcmp(custom_kernels[i]->custom_code, op->custom_code) == 0) return custom_kernels[i];
  return NULL;
}
