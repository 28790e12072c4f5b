/* The kernels of plugins/cpu_ref/kernels/quantized/, one object per op (or
 * op family); quantized_registry.c picks among them. */
#ifndef TFLACCEL_CPU_REF_QUANTIZED_KERNELS_H
#define TFLACCEL_CPU_REF_QUANTIZED_KERNELS_H

#include "plugins/cpu_ref/kernel.h"

extern const cpu_kernel cpu_quant_conv_2d_kernel;
extern const cpu_kernel cpu_quant_depthwise_conv_2d_kernel;
extern const cpu_kernel cpu_quant_fully_connected_kernel;
extern const cpu_kernel cpu_quant_add_kernel;
extern const cpu_kernel cpu_quant_sub_kernel;
extern const cpu_kernel cpu_quant_mul_kernel;
extern const cpu_kernel cpu_quant_maximum_kernel;
extern const cpu_kernel cpu_quant_minimum_kernel;
extern const cpu_kernel cpu_quant_squared_difference_kernel;
extern const cpu_kernel cpu_quant_average_pool_kernel;
extern const cpu_kernel cpu_quant_max_pool_kernel;
extern const cpu_kernel cpu_quant_mean_kernel;
extern const cpu_kernel cpu_quant_softmax_kernel;
extern const cpu_kernel cpu_quant_logistic_kernel;
extern const cpu_kernel cpu_quant_tanh_kernel;
extern const cpu_kernel cpu_quant_relu_kernel;
extern const cpu_kernel cpu_quant_relu6_kernel;
extern const cpu_kernel cpu_quant_relu_n1_to_1_kernel;
extern const cpu_kernel cpu_quant_resize_bilinear_kernel;
extern const cpu_kernel cpu_quant_concatenation_kernel;
extern const cpu_kernel cpu_quant_pad_kernel;
extern const cpu_kernel cpu_quant_padv2_kernel;
extern const cpu_kernel cpu_quant_quantize_kernel;
extern const cpu_kernel cpu_quant_dequantize_kernel;
extern const cpu_kernel cpu_quant_cast_kernel;
extern const cpu_kernel cpu_quant_arg_max_kernel;
extern const cpu_kernel cpu_quant_arg_min_kernel;
extern const cpu_kernel cpu_lstm_kernel;
extern const cpu_kernel cpu_sequence_lstm_kernel;
extern const cpu_kernel cpu_svdf_kernel;

#endif
