/* DEQUANTIZE of a non-constant float16 tensor to float32 (constant float16
 * weights are folded at load; integer DEQUANTIZE is a quantized kernel). */
#include "config.h"

#include <string.h>

#include "core/facts/half.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int dequantize_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT16, "DEQUANTIZE input", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "DEQUANTIZE output", reason))
    return 0;
  if (cpu_element_count(input) != cpu_element_count(output))
    return cpu_reason(reason, "DEQUANTIZE: input and output element counts differ");
  return 1;
}

static tflaccel_status dequantize_eval(const cpu_op_context *context) {
  const unsigned char *in = cpu_input_data(context, 0);
  float *out = cpu_output_data(context, 0);
  int64_t count = cpu_element_count(cpu_output_tensor(context, 0));
  for (int64_t i = 0; i < count; i++) {
    uint16_t bits;
    memcpy(&bits, in + 2 * i, sizeof bits);
    out[i] = half_to_float(bits);
  }
  return NULL;
}

const cpu_kernel cpu_kernel_dequantize = {
    .op_code = TFLACCEL_OP_DEQUANTIZE, .check = dequantize_check, .eval = dequantize_eval};
