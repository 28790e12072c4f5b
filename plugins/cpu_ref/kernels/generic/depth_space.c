/* DEPTH_TO_SPACE and SPACE_TO_DEPTH, NHWC, any fixed-size dtype, in
 * TensorFlow's DCR order: depth index (by * block + bx) * C_small + c. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int depth_space_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                             char *reason) {
  const char *name = cpu_op_name(op);
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  int32_t block = op->params->block_size.block_size;
  if (input->dtype != output->dtype)
    return cpu_reason(reason, "%s: input is %s, output %s", name, cpu_dtype_name(input->dtype),
                      cpu_dtype_name(output->dtype));
  if (!cpu_check_same_quantization(input, output, reason)) return 0;
  if (!cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(output, 4, "output", reason))
    return 0;
  if (block < 1) return cpu_reason(reason, "%s: block size %d", name, block);
  /* The spatial side of the pair, and the deep side. */
  const tflaccel_tensor_desc *wide = op->code == TFLACCEL_OP_DEPTH_TO_SPACE ? output : input;
  const tflaccel_tensor_desc *deep = op->code == TFLACCEL_OP_DEPTH_TO_SPACE ? input : output;
  if (wide->dims[0] != deep->dims[0] || wide->dims[1] != deep->dims[1] * block ||
      wide->dims[2] != deep->dims[2] * block ||
      (int64_t)deep->dims[3] != (int64_t)wide->dims[3] * block * block)
    return cpu_reason(reason, "%s: shapes do not match block size %d", name, block);
  return 1;
}

static tflaccel_status depth_space_eval(const cpu_op_context *context) {
  int to_space = context->op->code == TFLACCEL_OP_DEPTH_TO_SPACE;
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const tflaccel_tensor_desc *deep = to_space ? input : output;
  const tflaccel_tensor_desc *wide = to_space ? output : input;
  int32_t block = context->op->params->block_size.block_size;
  unsigned char *deep_data = to_space ? cpu_input_data(context, 0) : cpu_output_data(context, 0);
  unsigned char *wide_data = to_space ? cpu_output_data(context, 0) : cpu_input_data(context, 0);
  size_t run = (size_t)wide->dims[3] * cpu_dtype_size(input->dtype); /* one block cell */
  int32_t height = deep->dims[1], width = deep->dims[2];
  for (int32_t n = 0; n < deep->dims[0]; n++)
    for (int32_t y = 0; y < height; y++)
      for (int32_t x = 0; x < width; x++)
        for (int32_t by = 0; by < block; by++)
          for (int32_t bx = 0; bx < block; bx++) {
            size_t deep_at =
                ((((size_t)n * height + y) * width + x) * block * block + (size_t)by * block + bx) * run;
            size_t wide_at = (((size_t)n * wide->dims[1] + (size_t)y * block + by) * wide->dims[2] +
                              (size_t)x * block + bx) * run;
            if (to_space)
              memcpy(wide_data + wide_at, deep_data + deep_at, run);
            else
              memcpy(deep_data + deep_at, wide_data + wide_at, run);
          }
  return NULL;
}

const cpu_kernel cpu_kernel_depth_to_space = {
    .op_code = TFLACCEL_OP_DEPTH_TO_SPACE, .check = depth_space_check, .eval = depth_space_eval};
const cpu_kernel cpu_kernel_space_to_depth = {
    .op_code = TFLACCEL_OP_SPACE_TO_DEPTH, .check = depth_space_check, .eval = depth_space_eval};
