/* What every op family of the subgraph builder reads: op inputs and outputs,
 * type checks, fused activations, TFLite padding. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/facts/op_names.h"
#include "plugins/cpu_xnnpack/subgraph_build.h"
#include "tflaccel/tflaccel.h"

int xnnp_fail(xnnp_build *build, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(build->reason, TFLACCEL_REASON_SIZE, format, arguments);
  va_end(arguments);
  return 0;
}

const tflaccel_tensor_desc *xnnp_input(const xnnp_build *build, const tflaccel_op_desc *op,
                                       uint32_t position) {
  if (position >= op->input_count || op->inputs[position] == TFLACCEL_NO_TENSOR ||
      op->inputs[position] >= build->graph->tensor_count)
    return NULL;
  return &build->graph->tensors[op->inputs[position]];
}

const tflaccel_tensor_desc *xnnp_output(const xnnp_build *build, const tflaccel_op_desc *op,
                                        uint32_t position) {
  if (position >= op->output_count || op->outputs[position] == TFLACCEL_NO_TENSOR ||
      op->outputs[position] >= build->graph->tensor_count)
    return NULL;
  return &build->graph->tensors[op->outputs[position]];
}

int xnnp_is_constant(const tflaccel_tensor_desc *tensor) {
  return (tensor->flags & TFLACCEL_TENSOR_CONSTANT) != 0 &&
         (tensor->flags & TFLACCEL_TENSOR_VARIABLE) == 0;
}

int xnnp_is_quantized8(const tflaccel_tensor_desc *tensor) {
  return (tensor->dtype == TFLACCEL_DTYPE_INT8 || tensor->dtype == TFLACCEL_DTYPE_UINT8) &&
         tensor->quantization.count == 1;
}

int xnnp_same_type(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b) {
  if (a->dtype != b->dtype || a->quantization.count != b->quantization.count) return 0;
  for (uint32_t i = 0; i < a->quantization.count; i++) {
    if (a->quantization.scales[i] != b->quantization.scales[i]) return 0;
    int32_t za = a->quantization.zero_points ? a->quantization.zero_points[i] : 0;
    int32_t zb = b->quantization.zero_points ? b->quantization.zero_points[i] : 0;
    if (za != zb) return 0;
  }
  return 1;
}

int xnnp_activation_range(xnnp_build *build, int32_t activation, float *output_min,
                          float *output_max) {
  switch (activation) {
    case TFLACCEL_ACT_NONE:
      *output_min = -INFINITY;
      *output_max = INFINITY;
      return 1;
    case TFLACCEL_ACT_RELU:
      *output_min = 0.0f;
      *output_max = INFINITY;
      return 1;
    case TFLACCEL_ACT_RELU_N1_TO_1:
      *output_min = -1.0f;
      *output_max = 1.0f;
      return 1;
    case TFLACCEL_ACT_RELU6:
      *output_min = 0.0f;
      *output_max = 6.0f;
      return 1;
    default:
      return xnnp_fail(build, "fused activation %d has no XNNPACK output range", activation);
  }
}

void xnnp_padding(int32_t padding, int32_t input, int32_t output, int32_t stride,
                  int32_t kernel, int32_t dilation, uint32_t *before, uint32_t *after) {
  *before = *after = 0;
  if (padding != TFLACCEL_PADDING_SAME) return;
  int64_t effective = (int64_t)(kernel - 1) * dilation + 1;
  int64_t total = (int64_t)(output - 1) * stride + effective - input;
  if (total <= 0) return;
  *before = (uint32_t)(total / 2);
  *after = (uint32_t)(total - total / 2);
}

const char *xnnp_op_name(const tflaccel_op_desc *op) {
  if (op->code == TFLACCEL_OP_CUSTOM && op->custom_code != NULL) return op->custom_code;
  const char *name = op_code_name(op->code);
  return name != NULL ? name : "unknown op";
}

const char *xnnp_dtype_name(int32_t dtype) {
  const char *name = dtype_name(dtype);
  return name != NULL ? name : "unknown";
}
