# libcpu_xnnpack.so: the host CPU through the distribution's XNNPACK
# (libxnnpack-dev, libpthreadpool-dev). Built when configure finds them.
if BUILD_XNNPACK
plugin_LTLIBRARIES += plugins/libcpu_xnnpack.la
plugins_libcpu_xnnpack_la_SOURCES = \
	plugins/cpu_xnnpack/plugin.c \
	plugins/cpu_xnnpack/xnn_device.h \
	plugins/cpu_common/host_buffer.c \
	plugins/cpu_common/host_cpu.c \
	plugins/cpu_xnnpack/thread_pools.c \
	plugins/cpu_xnnpack/op_support.c \
	plugins/cpu_xnnpack/executable.c \
	plugins/cpu_xnnpack/subgraph_build.h \
	plugins/cpu_xnnpack/build_util.c \
	plugins/cpu_xnnpack/tensor_values.c \
	plugins/cpu_xnnpack/op_table.c \
	plugins/cpu_xnnpack/ops_convolution.c \
	plugins/cpu_xnnpack/ops_pooling.c \
	plugins/cpu_xnnpack/ops_binary.c \
	plugins/cpu_xnnpack/ops_unary.c \
	plugins/cpu_xnnpack/ops_data_movement.c \
	plugins/cpu_xnnpack/ops_concatenation.c
plugins_libcpu_xnnpack_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_libcpu_xnnpack_la_CFLAGS = $(PLUGIN_C_FLAGS) $(PTHREAD_CFLAGS)
plugins_libcpu_xnnpack_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
# A plugin links nothing of the core but the facts library (op and dtype
# names for its messages).
plugins_libcpu_xnnpack_la_LIBADD = core/facts/libtflaccel_facts.la $(XNNPACK_LIBS) \
	$(PTHREAD_LIBS) -lm
endif
