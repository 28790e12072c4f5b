# The GPU layer shared by gpu_cl, gpu_vk and gpu_gl: the accelerator plugin
# itself (gpu_plugin), layout, op support, fusion, buffer planning, the
# dispatch list and its barrier plan, with no API type in it.
# A convenience library each GPU plugin links in.
noinst_LTLIBRARIES += plugins/libgpu_common.la
plugins_libgpu_common_la_SOURCES = \
	plugins/gpu_common/gpu_array.c \
	plugins/gpu_common/gpu_array.h \
	plugins/gpu_common/gpu_backend.h \
	plugins/gpu_common/gpu_buffer_range.c \
	plugins/gpu_common/gpu_buffer_range.h \
	plugins/gpu_common/gpu_disk_cache.c \
	plugins/gpu_common/gpu_disk_cache.h \
	plugins/gpu_common/gpu_executable.c \
	plugins/gpu_common/gpu_executable.h \
	plugins/gpu_common/gpu_extension_list.c \
	plugins/gpu_common/gpu_extension_list.h \
	plugins/gpu_common/gpu_hazard.c \
	plugins/gpu_common/gpu_hazard.h \
	plugins/gpu_common/gpu_kernel_catalog.c \
	plugins/gpu_common/gpu_kernel_catalog.h \
	plugins/gpu_common/gpu_layout.c \
	plugins/gpu_common/gpu_layout.h \
	plugins/gpu_common/gpu_lower_conv.c \
	plugins/gpu_common/gpu_lower_data.c \
	plugins/gpu_common/gpu_lower_elementwise.c \
	plugins/gpu_common/gpu_lower_lstm.c \
	plugins/gpu_common/gpu_lowering.c \
	plugins/gpu_common/gpu_lowering.h \
	plugins/gpu_common/gpu_lowering_internal.h \
	plugins/gpu_common/gpu_op_math.c \
	plugins/gpu_common/gpu_op_math.h \
	plugins/gpu_common/gpu_profile.c \
	plugins/gpu_common/gpu_profile.h \
	plugins/gpu_common/gpu_program.c \
	plugins/gpu_common/gpu_program.h \
	plugins/gpu_common/gpu_slice.c \
	plugins/gpu_common/gpu_slice.h \
	plugins/gpu_common/gpu_options.c \
	plugins/gpu_common/gpu_options.h \
	plugins/gpu_common/gpu_plugin.c \
	plugins/gpu_common/gpu_plugin.h \
	plugins/gpu_common/gpu_support.c \
	plugins/gpu_common/gpu_support.h \
	plugins/gpu_common/gpu_work_group.c \
	plugins/gpu_common/gpu_work_group.h
# Linked into modules built with -fvisibility=hidden: the same flags.
plugins_libgpu_common_la_CFLAGS = $(PLUGIN_C_FLAGS)
