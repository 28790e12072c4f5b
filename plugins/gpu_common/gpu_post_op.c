/* TFLite elementwise op codes -> the kernels' post-op codes (gpu_post_op.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_post_op.h"
#include "tflaccel/accelerator.h"

int32_t gpu_post_unary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_RELU: return GPU_UNARY_RELU;
    case TFLACCEL_OP_RELU6: return GPU_UNARY_RELU6;
    case TFLACCEL_OP_RELU_N1_TO_1: return GPU_UNARY_RELU_N1_TO_1;
    case TFLACCEL_OP_LOGISTIC: return GPU_UNARY_LOGISTIC;
    case TFLACCEL_OP_HARD_SWISH: return GPU_UNARY_HARD_SWISH;
    case TFLACCEL_OP_TANH: return GPU_UNARY_TANH;
    case TFLACCEL_OP_EXP: return GPU_UNARY_EXP;
    case TFLACCEL_OP_LEAKY_RELU: return GPU_UNARY_LEAKY_RELU;
    case TFLACCEL_OP_SQRT: return GPU_UNARY_SQRT;
    default: return 0;
  }
}

int32_t gpu_post_binary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_ADD: return GPU_BINARY_ADD;
    case TFLACCEL_OP_SUB: return GPU_BINARY_SUB;
    case TFLACCEL_OP_MUL: return GPU_BINARY_MUL;
    case TFLACCEL_OP_DIV: return GPU_BINARY_DIV;
    case TFLACCEL_OP_MAXIMUM: return GPU_BINARY_MAXIMUM;
    case TFLACCEL_OP_MINIMUM: return GPU_BINARY_MINIMUM;
    case TFLACCEL_OP_LOGICAL_AND: return GPU_BINARY_LOGICAL_AND;
    case TFLACCEL_OP_FLOOR_DIV: return GPU_BINARY_FLOOR_DIV;
    default: return 0;
  }
}
