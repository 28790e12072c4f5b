/* The table of cpu_ref's float32 and dtype-generic kernels. An entry applies
 * when the op code (and custom code) match and the dtype of the op's data
 * input is in its set; the kernel's check() then looks at the rest. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define DT(dtype) (1u << (dtype))
#define F32 DT(TFLACCEL_DTYPE_FLOAT32)
#define F16 DT(TFLACCEL_DTYPE_FLOAT16)
#define I32 DT(TFLACCEL_DTYPE_INT32)
#define I64 DT(TFLACCEL_DTYPE_INT64)
#define I16 DT(TFLACCEL_DTYPE_INT16)
#define I8 DT(TFLACCEL_DTYPE_INT8)
#define U8 DT(TFLACCEL_DTYPE_UINT8)
#define BOOL DT(TFLACCEL_DTYPE_BOOL)
/* Every dtype a byte copy moves. */
#define ANY (F32 | F16 | I32 | I64 | I16 | I8 | U8 | BOOL | DT(TFLACCEL_DTYPE_FLOAT64) | \
             DT(TFLACCEL_DTYPE_UINT16) | DT(TFLACCEL_DTYPE_UINT32) |                     \
             DT(TFLACCEL_DTYPE_UINT64) | DT(TFLACCEL_DTYPE_BFLOAT16))

typedef struct generic_entry {
  const cpu_kernel *kernel;
  uint32_t dtypes;     /* DT() set of the data input's dtype */
  uint32_t data_input; /* which input carries the data */
} generic_entry;

static const generic_entry generic_kernels[] = {
    {&cpu_kernel_add, F32 | I32 | I64, 0},
    {&cpu_kernel_sub, F32 | I32 | I64, 0},
    {&cpu_kernel_mul, F32 | I32 | I64, 0},
    {&cpu_kernel_div, F32 | I32, 0},
    {&cpu_kernel_maximum, F32 | I32 | I64, 0},
    {&cpu_kernel_minimum, F32 | I32 | I64, 0},
    {&cpu_kernel_floor_div, F32 | I32, 0},
    {&cpu_kernel_logistic, F32, 0},
    {&cpu_kernel_tanh, F32, 0},
    {&cpu_kernel_relu, F32, 0},
    {&cpu_kernel_relu6, F32, 0},
    {&cpu_kernel_relu_n1_to_1, F32, 0},
    {&cpu_kernel_leaky_relu, F32, 0},
    {&cpu_kernel_hard_swish, F32, 0},
    {&cpu_kernel_exp, F32, 0},
    {&cpu_kernel_sqrt, F32, 0},
    {&cpu_kernel_rsqrt, F32, 0},
    {&cpu_kernel_abs, F32 | I32 | I64, 0},
    {&cpu_kernel_neg, F32 | I32 | I64, 0},
    {&cpu_kernel_log, F32, 0},
    {&cpu_kernel_floor, F32, 0},
    {&cpu_kernel_ceil, F32, 0},
    {&cpu_kernel_square, F32, 0},
    {&cpu_kernel_logical_and, BOOL, 0},
    {&cpu_kernel_logical_or, BOOL, 0},
    {&cpu_kernel_logical_not, BOOL, 0},
    {&cpu_kernel_prelu, F32, 0},
    {&cpu_kernel_average_pool_2d, F32, 0},
    {&cpu_kernel_max_pool_2d, F32, 0},
    {&cpu_kernel_l2_pool_2d, F32, 0},
    {&cpu_kernel_conv_2d, F32, 0},
    {&cpu_kernel_depthwise_conv_2d, F32, 0},
    {&cpu_kernel_fully_connected, F32, 0},
    /* The basic LSTM cell; the full kernel is in the quantized table. */
    {&cpu_kernel_lstm_basic, F32, 0},
    {&cpu_kernel_transpose_conv, F32, 2},
    {&cpu_kernel_transpose_conv_bias, F32, 0},
    {&cpu_kernel_concatenation, ANY, 0},
    {&cpu_kernel_reshape, ANY, 0},
    {&cpu_kernel_squeeze, ANY, 0},
    {&cpu_kernel_expand_dims, ANY, 0},
    {&cpu_kernel_pad, ANY, 0},
    {&cpu_kernel_padv2, ANY, 0},
    {&cpu_kernel_strided_slice, ANY, 0},
    {&cpu_kernel_transpose, ANY, 0},
    {&cpu_kernel_pack, ANY, 0},
    {&cpu_kernel_unpack, ANY, 0},
    {&cpu_kernel_gather_nd, ANY, 0},
    {&cpu_kernel_depth_to_space, ANY, 0},
    {&cpu_kernel_space_to_depth, ANY, 0},
    {&cpu_kernel_resize_bilinear, F32, 0},
    {&cpu_kernel_resize_nearest_neighbor, ANY, 0},
    {&cpu_kernel_mean, F32, 0},
    {&cpu_kernel_sum, F32 | I32, 0},
    {&cpu_kernel_reduce_max, F32 | I32, 0},
    {&cpu_kernel_reduce_min, F32 | I32, 0},
    {&cpu_kernel_reduce_prod, F32 | I32, 0},
    {&cpu_kernel_softmax, F32, 0},
    {&cpu_kernel_log_softmax, F32, 0},
    {&cpu_kernel_cast, F32 | F16 | I32 | I64 | I16 | I8 | U8 | BOOL, 0},
    {&cpu_kernel_arg_max, F32 | I32 | I64 | I16 | I8 | U8 | BOOL, 0},
    {&cpu_kernel_arg_min, F32 | I32 | I64 | I16 | I8 | U8 | BOOL, 0},
    {&cpu_kernel_dequantize, F16, 0},
};

const cpu_kernel *cpu_generic_kernel_find(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op) {
  for (size_t i = 0; i < sizeof generic_kernels / sizeof generic_kernels[0]; i++) {
    const generic_entry *entry = &generic_kernels[i];
    const cpu_kernel *kernel = entry->kernel;
    if (kernel->op_code != op->code) continue;
    if (op->code == TFLACCEL_OP_CUSTOM &&
        (op->custom_code == NULL || kernel->custom_code == NULL ||
         strcmp(op->custom_code, kernel->custom_code) != 0))
      continue;
    const tflaccel_tensor_desc *data = cpu_op_input(graph, op, entry->data_input);
    if (data == NULL) data = cpu_op_output(graph, op, 0);
    if (data == NULL || data->dtype < 0 || data->dtype >= 32) continue;
    if ((entry->dtypes & DT(data->dtype)) == 0) continue;
    return kernel;
  }
  return NULL;
}
