/* The float32 and dtype-generic kernels of cpu_ref, one per op code; the
 * table that maps op codes and dtypes to them is generic_registry.c. */
#ifndef TFLACCEL_CPU_REF_GENERIC_KERNELS_H
#define TFLACCEL_CPU_REF_GENERIC_KERNELS_H

#include "plugins/cpu_ref/kernel.h"

/* elementwise_binary.c */
extern const cpu_kernel cpu_kernel_add, cpu_kernel_sub, cpu_kernel_mul, cpu_kernel_div,
    cpu_kernel_maximum, cpu_kernel_minimum, cpu_kernel_floor_div;
/* elementwise_unary.c */
extern const cpu_kernel cpu_kernel_logistic, cpu_kernel_tanh, cpu_kernel_relu, cpu_kernel_relu6,
    cpu_kernel_relu_n1_to_1, cpu_kernel_leaky_relu, cpu_kernel_hard_swish, cpu_kernel_exp,
    cpu_kernel_sqrt, cpu_kernel_rsqrt, cpu_kernel_abs, cpu_kernel_neg, cpu_kernel_log,
    cpu_kernel_floor, cpu_kernel_ceil, cpu_kernel_square;
/* logical.c */
extern const cpu_kernel cpu_kernel_logical_and, cpu_kernel_logical_or, cpu_kernel_logical_not;
/* prelu.c */
extern const cpu_kernel cpu_kernel_prelu;
/* pool_2d.c */
extern const cpu_kernel cpu_kernel_average_pool_2d, cpu_kernel_max_pool_2d,
    cpu_kernel_l2_pool_2d;
/* conv_2d.c, depthwise_conv_2d.c, fully_connected.c, transpose_conv.c */
extern const cpu_kernel cpu_kernel_conv_2d;
extern const cpu_kernel cpu_kernel_depthwise_conv_2d;
extern const cpu_kernel cpu_kernel_fully_connected;
extern const cpu_kernel cpu_kernel_transpose_conv, cpu_kernel_transpose_conv_bias;
/* lstm_basic.c: LSTM with kernel_type BASIC */
extern const cpu_kernel cpu_kernel_lstm_basic;
/* Data movement, any dtype: concatenation.c, reshape.c, pad.c,
 * strided_slice.c, transpose.c, pack.c, gather_nd.c, depth_space.c */
extern const cpu_kernel cpu_kernel_concatenation;
extern const cpu_kernel cpu_kernel_reshape, cpu_kernel_squeeze, cpu_kernel_expand_dims;
extern const cpu_kernel cpu_kernel_pad, cpu_kernel_padv2;
extern const cpu_kernel cpu_kernel_strided_slice;
extern const cpu_kernel cpu_kernel_transpose;
extern const cpu_kernel cpu_kernel_pack, cpu_kernel_unpack;
extern const cpu_kernel cpu_kernel_gather_nd;
extern const cpu_kernel cpu_kernel_depth_to_space, cpu_kernel_space_to_depth;
/* resize.c */
extern const cpu_kernel cpu_kernel_resize_bilinear, cpu_kernel_resize_nearest_neighbor;
/* reduce.c */
extern const cpu_kernel cpu_kernel_mean, cpu_kernel_sum, cpu_kernel_reduce_max,
    cpu_kernel_reduce_min, cpu_kernel_reduce_prod;
/* softmax.c */
extern const cpu_kernel cpu_kernel_softmax, cpu_kernel_log_softmax;
/* cast.c, arg_min_max.c, dequantize.c */
extern const cpu_kernel cpu_kernel_cast;
extern const cpu_kernel cpu_kernel_arg_max, cpu_kernel_arg_min;
extern const cpu_kernel cpu_kernel_dequantize;

#endif
