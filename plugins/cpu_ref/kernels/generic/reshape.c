/* RESHAPE, SQUEEZE and EXPAND_DIMS: the bytes do not change, only the shape
 * (which the output tensor already carries), so each is a copy. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int reshape_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                         char *reason) {
  /* RESHAPE's shape input and EXPAND_DIMS's axis input are optional here:
   * the output tensor's static shape is what counts. */
  uint32_t max_inputs = op->code == TFLACCEL_OP_SQUEEZE ? 1 : 2;
  if (!cpu_check_arity(graph, op, 1, max_inputs, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (input->dtype != output->dtype)
    return cpu_reason(reason, "%s: input is %s, output %s", cpu_op_name(op),
                      cpu_dtype_name(input->dtype), cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(input, output, reason)) return 0;
  if (cpu_element_count(input) != cpu_element_count(output))
    return cpu_reason(reason, "%s: input has %lld elements, output %lld", cpu_op_name(op),
                      (long long)cpu_element_count(input), (long long)cpu_element_count(output));
  if (op->code == TFLACCEL_OP_RESHAPE) {
    const tflaccel_tensor_desc *shape = cpu_op_input(graph, op, 1);
    if (shape != NULL && cpu_is_constant(shape) && cpu_is_index_dtype(shape->dtype) &&
        shape->rank == 1 && shape->dims[0] == (int32_t)output->rank) {
      for (uint32_t i = 0; i < output->rank; i++) {
        int64_t value = cpu_read_index(shape, shape->data, i);
        if (value != -1 && value != output->dims[i])
          return cpu_reason(reason, "RESHAPE: shape input dim %u is %lld, the output's %d", i,
                            (long long)value, output->dims[i]);
      }
    }
  }
  return 1;
}

static tflaccel_status reshape_eval(const cpu_op_context *context) {
  const void *in = cpu_input_data(context, 0);
  void *out = cpu_output_data(context, 0);
  size_t bytes = (size_t)cpu_output_tensor(context, 0)->byte_size;
  if (in != out && bytes > 0) memmove(out, in, bytes);
  return NULL;
}

#define RESHAPE_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = reshape_check, .eval = reshape_eval}

RESHAPE_KERNEL(cpu_kernel_reshape, TFLACCEL_OP_RESHAPE);
RESHAPE_KERNEL(cpu_kernel_squeeze, TFLACCEL_OP_SQUEEZE);
RESHAPE_KERNEL(cpu_kernel_expand_dims, TFLACCEL_OP_EXPAND_DIMS);
