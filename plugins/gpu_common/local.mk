# The GPU layer shared by gpu_cl, gpu_vk and gpu_gl: the accelerator plugin
# itself (gpu_plugin), layout, op support, fusion, buffer planning, the
# dispatch list and its barrier plan, with no API type in it. ops/ holds one
# file per op family (support check + lowering), gathered by ops/op_table.c.
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
	plugins/gpu_common/gpu_build_id.c \
	plugins/gpu_common/gpu_build_id.h \
	plugins/gpu_common/gpu_partition_cache.c \
	plugins/gpu_common/gpu_partition_cache.h \
	plugins/gpu_common/gpu_emit.c \
	plugins/gpu_common/gpu_emit.h \
	plugins/gpu_common/gpu_emit_conv.c \
	plugins/gpu_common/gpu_emit_conv.h \
	plugins/gpu_common/gpu_emit_quant.c \
	plugins/gpu_common/gpu_emit_quant.h \
	plugins/gpu_common/gpu_executable.c \
	plugins/gpu_common/gpu_executable.h \
	plugins/gpu_common/gpu_fault.c \
	plugins/gpu_common/gpu_fault.h \
	plugins/gpu_common/gpu_external_fd.c \
	plugins/gpu_common/gpu_external_fd.h \
	plugins/gpu_common/gpu_extension_list.c \
	plugins/gpu_common/gpu_extension_list.h \
	plugins/gpu_common/gpu_hazard.c \
	plugins/gpu_common/gpu_hazard.h \
	plugins/gpu_common/gpu_kernel_catalog.c \
	plugins/gpu_common/gpu_kernel_catalog.h \
	plugins/gpu_common/gpu_layout.c \
	plugins/gpu_common/gpu_layout.h \
	plugins/gpu_common/gpu_lowering.c \
	plugins/gpu_common/gpu_lowering.h \
	plugins/gpu_common/gpu_lowering_state.h \
	plugins/gpu_common/gpu_native_event.c \
	plugins/gpu_common/gpu_native_event.h \
	plugins/gpu_common/gpu_op_builder.h \
	plugins/gpu_common/gpu_op_math.c \
	plugins/gpu_common/gpu_op_math.h \
	plugins/gpu_common/gpu_post_op.c \
	plugins/gpu_common/gpu_post_op.h \
	plugins/gpu_common/gpu_profile.c \
	plugins/gpu_common/gpu_quant.c \
	plugins/gpu_common/gpu_quant.h \
	plugins/gpu_common/gpu_profile.h \
	plugins/gpu_common/gpu_program.c \
	plugins/gpu_common/gpu_program.h \
	plugins/gpu_common/gpu_program_cache.c \
	plugins/gpu_common/gpu_program_cache.h \
	plugins/gpu_common/gpu_slice.c \
	plugins/gpu_common/gpu_slice.h \
	plugins/gpu_common/gpu_state.c \
	plugins/gpu_common/gpu_state.h \
	plugins/gpu_common/gpu_options.c \
	plugins/gpu_common/gpu_options.h \
	plugins/gpu_common/gpu_plugin.c \
	plugins/gpu_common/gpu_plugin.h \
	plugins/gpu_common/gpu_support.c \
	plugins/gpu_common/gpu_support.h \
	plugins/gpu_common/gpu_support_check.c \
	plugins/gpu_common/gpu_int_bounds.c \
	plugins/gpu_common/gpu_int_bounds.h \
	plugins/gpu_common/gpu_support_check.h \
	plugins/gpu_common/gpu_work_group.c \
	plugins/gpu_common/gpu_work_group.h \
	plugins/gpu_common/ops/arg_max.c \
	plugins/gpu_common/ops/cast.c \
	plugins/gpu_common/ops/concat.c \
	plugins/gpu_common/ops/conv.c \
	plugins/gpu_common/ops/declined.c \
	plugins/gpu_common/ops/depth_to_space.c \
	plugins/gpu_common/ops/elementwise.c \
	plugins/gpu_common/ops/fully_connected.c \
	plugins/gpu_common/ops/gather_nd.c \
	plugins/gpu_common/ops/lstm.c \
	plugins/gpu_common/ops/mediapipe_transform.c \
	plugins/gpu_common/ops/sequence_lstm.c \
	plugins/gpu_common/ops/svdf.c \
	plugins/gpu_common/ops/op_families.h \
	plugins/gpu_common/ops/op_table.c \
	plugins/gpu_common/ops/pack.c \
	plugins/gpu_common/ops/pad.c \
	plugins/gpu_common/ops/pool.c \
	plugins/gpu_common/ops/quantize.c \
	plugins/gpu_common/ops/reshape.c \
	plugins/gpu_common/ops/resize.c \
	plugins/gpu_common/ops/softmax.c \
	plugins/gpu_common/ops/strided_slice.c \
	plugins/gpu_common/ops/transpose.c \
	plugins/gpu_common/ops/transpose_conv.c
# Linked into modules built with -fvisibility=hidden: the same flags.
plugins_libgpu_common_la_CFLAGS = $(PLUGIN_C_FLAGS)
# The one part of the core a plugin links: the facts library (op and dtype
# names, half conversion, window geometry, axes).
plugins_libgpu_common_la_LIBADD = core/facts/libtflaccel_facts.la core/cache/libtflaccel_cache.la
