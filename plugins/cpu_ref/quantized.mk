# cpu_ref's quantized (uint8/int8/int16) and recurrent kernels, compiled into
# the plugin's convenience library defined in plugins/cpu_ref/local.mk.
plugins_libcpu_ref_impl_la_SOURCES += \
	plugins/cpu_ref/kernels/quantized_registry.c \
	plugins/cpu_ref/kernels/quantized/quantized_kernels.h \
	plugins/cpu_ref/kernels/quantized/fixed_point.c \
	plugins/cpu_ref/kernels/quantized/fixed_point.h \
	plugins/cpu_ref/kernels/quantized/quant_common.c \
	plugins/cpu_ref/kernels/quantized/quant_common.h \
	plugins/cpu_ref/kernels/quantized/weighted_op.c \
	plugins/cpu_ref/kernels/quantized/weighted_op.h \
	plugins/cpu_ref/kernels/quantized/binary_op.c \
	plugins/cpu_ref/kernels/quantized/binary_op.h \
	plugins/cpu_ref/kernels/quantized/conv.c \
	plugins/cpu_ref/kernels/quantized/depthwise_conv.c \
	plugins/cpu_ref/kernels/quantized/fully_connected.c \
	plugins/cpu_ref/kernels/quantized/add_sub.c \
	plugins/cpu_ref/kernels/quantized/mul.c \
	plugins/cpu_ref/kernels/quantized/maximum_minimum.c \
	plugins/cpu_ref/kernels/quantized/squared_difference.c \
	plugins/cpu_ref/kernels/quantized/pooling.c \
	plugins/cpu_ref/kernels/quantized/mean.c \
	plugins/cpu_ref/kernels/quantized/softmax.c \
	plugins/cpu_ref/kernels/quantized/activations.c \
	plugins/cpu_ref/kernels/quantized/resize_bilinear.c \
	plugins/cpu_ref/kernels/quantized/concatenation.c \
	plugins/cpu_ref/kernels/quantized/pad.c \
	plugins/cpu_ref/kernels/quantized/quantize.c \
	plugins/cpu_ref/kernels/quantized/cast.c \
	plugins/cpu_ref/kernels/quantized/arg_min_max.c \
	plugins/cpu_ref/kernels/quantized/lstm_common.h \
	plugins/cpu_ref/kernels/quantized/lstm.c \
	plugins/cpu_ref/kernels/quantized/lstm_float.c \
	plugins/cpu_ref/kernels/quantized/lstm_integer.c \
	plugins/cpu_ref/kernels/quantized/svdf.c
