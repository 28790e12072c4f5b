# libcpu_ref.so: the CPU reference accelerator, always available.
# Its code is built into a convenience library first, so that the tests in
# tests/cpu_ref can drive the plugin's functions without dlopen(); the module
# itself only adds the link flags that keep everything but the entry hidden.
noinst_LTLIBRARIES += plugins/libcpu_ref_impl.la
plugin_LTLIBRARIES += plugins/libcpu_ref.la

plugins_libcpu_ref_impl_la_SOURCES = \
	plugins/cpu_ref/plugin.c \
	plugins/cpu_ref/device.h \
	plugins/cpu_common/host_buffer.c \
	plugins/cpu_common/host_buffer.h \
	plugins/cpu_common/host_cpu.c \
	plugins/cpu_common/host_cpu.h \
	plugins/cpu_ref/executable.c \
	plugins/cpu_ref/graph_copy.c \
	plugins/cpu_ref/graph_copy.h \
	plugins/cpu_ref/op_support.c \
	plugins/cpu_ref/op_support.h \
	plugins/cpu_ref/thread_pool.c \
	plugins/cpu_ref/thread_pool.h \
	plugins/cpu_ref/kernel.h \
	plugins/cpu_ref/kernel_registry.c \
	plugins/cpu_ref/kernels/kernel_util.c \
	plugins/cpu_ref/kernels/kernel_util.h \
	plugins/cpu_ref/kernels/generic_registry.c \
	plugins/cpu_ref/kernels/generic/generic_kernels.h \
	plugins/cpu_ref/kernels/generic/arg_min_max.c \
	plugins/cpu_ref/kernels/generic/cast.c \
	plugins/cpu_ref/kernels/generic/concatenation.c \
	plugins/cpu_ref/kernels/generic/conv_2d.c \
	plugins/cpu_ref/kernels/generic/depth_space.c \
	plugins/cpu_ref/kernels/generic/depthwise_conv_2d.c \
	plugins/cpu_ref/kernels/generic/dequantize.c \
	plugins/cpu_ref/kernels/generic/elementwise_binary.c \
	plugins/cpu_ref/kernels/generic/elementwise_unary.c \
	plugins/cpu_ref/kernels/generic/fully_connected.c \
	plugins/cpu_ref/kernels/generic/gather_nd.c \
	plugins/cpu_ref/kernels/generic/logical.c \
	plugins/cpu_ref/kernels/generic/lstm_basic.c \
	plugins/cpu_ref/kernels/generic/pack.c \
	plugins/cpu_ref/kernels/generic/pad.c \
	plugins/cpu_ref/kernels/generic/pool_2d.c \
	plugins/cpu_ref/kernels/generic/prelu.c \
	plugins/cpu_ref/kernels/generic/reduce.c \
	plugins/cpu_ref/kernels/generic/reshape.c \
	plugins/cpu_ref/kernels/generic/resize.c \
	plugins/cpu_ref/kernels/generic/softmax.c \
	plugins/cpu_ref/kernels/generic/strided_slice.c \
	plugins/cpu_ref/kernels/generic/transpose.c \
	plugins/cpu_ref/kernels/generic/transpose_conv.c
plugins_libcpu_ref_impl_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_libcpu_ref_impl_la_CFLAGS = $(PLUGIN_C_FLAGS) $(PTHREAD_CFLAGS)
# A plugin links nothing of the core; the facts library (op and dtype
# names, half, window geometry) is made to be linked by plugins.
plugins_libcpu_ref_impl_la_LIBADD = core/facts/libtflaccel_facts.la $(PTHREAD_LIBS)

plugins_libcpu_ref_la_SOURCES =
plugins_libcpu_ref_la_LIBADD = plugins/libcpu_ref_impl.la
plugins_libcpu_ref_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)

# The quantized and recurrent kernels ("quant") append their sources here.
include $(srcdir)/plugins/cpu_ref/quantized.mk
include $(srcdir)/plugins/cpu_ref/custom.mk
