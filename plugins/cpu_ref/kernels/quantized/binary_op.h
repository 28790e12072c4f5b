/* What the quantized elementwise ops of two broadcast inputs share (ADD,
 * SUB, MUL, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE on uint8/int8 tensors):
 * their checks, the inputs' offsets and the output's zero point, the clamp
 * of the fused activation, and the walk over the broadcast output that
 * computes each element with the op's own arithmetic. */
#ifndef TFLACCEL_CPU_REF_QUANT_BINARY_OP_H
#define TFLACCEL_CPU_REF_QUANT_BINARY_OP_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/cpu_ref/kernel.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"

typedef struct q_binary_op {
  q_broadcast broadcast;
  int32_t dtype; /* of the inputs and the output: uint8 or int8 */
  int32_t input1_offset, input2_offset; /* minus the inputs' zero points */
  int32_t output_offset;                /* the output's zero point */
  int32_t act_min, act_max;
} q_binary_op;

/* Every tensor's quantization is well-formed; inputs 0 and 1 and output 0
 * are uint8 or int8 of one dtype, quantized per tensor; the shapes broadcast;
 * the fused activation (arithmetic params) is one quantized outputs take. */
int q_binary_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason);
/* The same without the fused activation: for ops that have no options. */
int q_binary_check_operands(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason);
/* Prepared data of an op: `size` bytes, zeroed, that begin with a
 * q_binary_op, filled from the op's tensors and its arithmetic params. */
tflaccel_status q_binary_op_data_create(const cpu_op_context *context, size_t size,
                                        void **op_data);
/* The release() of such data. */
void q_binary_op_data_release(const tflaccel_host_services *host, void *op_data);

/* One output element, clamped to the activation range, from one element of
 * each input as stored; op_data is the op's prepared data. */
typedef int32_t (*q_binary_element_fn)(const void *op_data, int32_t x1, int32_t x2);
/* The eval() of such data: every output element with `element`, the inputs
 * broadcast. */
tflaccel_status q_binary_eval(const cpu_op_context *context, q_binary_element_fn element);

#endif
