/* LOGICAL_AND, LOGICAL_OR (with broadcasting) and LOGICAL_NOT on bool. */
#include "config.h"

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int logical_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                         char *reason) {
  uint32_t inputs = op->code == TFLACCEL_OP_LOGICAL_NOT ? 1 : 2;
  if (!cpu_check_arity(graph, op, inputs, inputs, 1, reason)) return 0;
  const tflaccel_tensor_desc *out = cpu_op_output(graph, op, 0);
  for (uint32_t i = 0; i < inputs; i++)
    if (!cpu_check_dtype(cpu_op_input(graph, op, i), TFLACCEL_DTYPE_BOOL, "input", reason))
      return 0;
  if (!cpu_check_dtype(out, TFLACCEL_DTYPE_BOOL, "output", reason)) return 0;
  if (inputs == 1) {
    if (!cpu_same_shape(cpu_op_input(graph, op, 0), out))
      return cpu_reason(reason, "LOGICAL_NOT: input and output shapes differ");
    return 1;
  }
  return cpu_check_broadcast(cpu_op_input(graph, op, 0), cpu_op_input(graph, op, 1), out, reason);
}

static tflaccel_status logical_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *out_tensor = cpu_output_tensor(context, 0);
  const uint8_t *a = cpu_input_data(context, 0);
  uint8_t *out = cpu_output_data(context, 0);
  int64_t count = cpu_element_count(out_tensor);
  if (context->op->code == TFLACCEL_OP_LOGICAL_NOT) {
    for (int64_t i = 0; i < count; i++) out[i] = a[i] ? 0 : 1;
    return NULL;
  }
  const uint8_t *b = cpu_input_data(context, 1);
  int is_and = context->op->code == TFLACCEL_OP_LOGICAL_AND;
  cpu_broadcast shape;
  cpu_broadcast_init(&shape, cpu_input_tensor(context, 0), cpu_input_tensor(context, 1),
                     out_tensor);
  int64_t inner = shape.dims[CPU_MAX_RANK - 1];
  if (inner == 0) return NULL;
  int64_t stride_a = shape.stride_a[CPU_MAX_RANK - 1], stride_b = shape.stride_b[CPU_MAX_RANK - 1];
  for (int64_t row = 0; row < count / inner; row++) {
    int64_t offset_a, offset_b;
    cpu_broadcast_row(&shape, row, &offset_a, &offset_b);
    for (int64_t i = 0; i < inner; i++) {
      int x = a[offset_a + i * stride_a] != 0, y = b[offset_b + i * stride_b] != 0;
      out[row * inner + i] = (uint8_t)(is_and ? (x && y) : (x || y));
    }
  }
  return NULL;
}

#define LOGICAL_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = logical_check, .eval = logical_eval}

LOGICAL_KERNEL(cpu_kernel_logical_and, TFLACCEL_OP_LOGICAL_AND);
LOGICAL_KERNEL(cpu_kernel_logical_or, TFLACCEL_OP_LOGICAL_OR);
LOGICAL_KERNEL(cpu_kernel_logical_not, TFLACCEL_OP_LOGICAL_NOT);
