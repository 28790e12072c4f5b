/* Whether cpu_ref can run one op, and with which kernel. */
#ifndef TFLACCEL_CPU_REF_OP_SUPPORT_H
#define TFLACCEL_CPU_REF_OP_SUPPORT_H

#include "plugins/cpu_ref/kernel.h"

/* Validates the op's tensors (indices, shapes, sizes), finds its kernel and
 * runs the kernel's check. Returns the kernel, or NULL with a one-line
 * reason in reason[TFLACCEL_REASON_SIZE]. */
const cpu_kernel *cpu_op_kernel(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                char *reason);

#endif
