# GLSL compute kernels of gpu_vk and gpu_gl: one source per kernel, written
# once and preceded by a per-target prelude (prelude_vulkan.glsl: GLSL 450
# with push constants, specialization constants and 16-bit storage;
# prelude_gles.glsl: GLSL ES 3.10). gpu_vk embeds them compiled to SPIR-V
# by glslc at build time; gpu_gl embeds the text and compiles it at run
# time. Kernel files are listed in the catalogue's order
# (plugins/gpu_common/gpu_kernel_catalog.h), the extended kernels last: both
# plugins index them by id.
GPU_GLSL_KERNELS = to_slices from_slices elementwise conv2d conv2d_split conv_ordered \
	depthwise_conv2d transpose_conv2d pool2d pool2d_reduce mean resize pad concat \
	box_gather depth_to_space softmax arg_max depthwise_conv_ordered depthwise_conv2d_1x1 \
	lstm_gates depthwise_conv_ordered_expand landmarks_to_transform_matrix \
	transform_tensor_bilinear transform_landmarks svdf_state svdf_output gather_nd
GPU_GLSL_KERNEL_FILES = \
	kernels/glsl/to_slices.comp \
	kernels/glsl/from_slices.comp \
	kernels/glsl/elementwise.comp \
	kernels/glsl/conv2d.comp \
	kernels/glsl/conv2d_split.comp \
	kernels/glsl/conv_ordered.comp \
	kernels/glsl/depthwise_conv2d.comp \
	kernels/glsl/transpose_conv2d.comp \
	kernels/glsl/pool2d.comp \
	kernels/glsl/pool2d_reduce.comp \
	kernels/glsl/mean.comp \
	kernels/glsl/resize.comp \
	kernels/glsl/pad.comp \
	kernels/glsl/concat.comp \
	kernels/glsl/box_gather.comp \
	kernels/glsl/depth_to_space.comp \
	kernels/glsl/softmax.comp \
	kernels/glsl/arg_max.comp \
	kernels/glsl/depthwise_conv_ordered.comp \
	kernels/glsl/depthwise_conv2d_1x1.comp \
	kernels/glsl/lstm_gates.comp \
	kernels/glsl/depthwise_conv_ordered_expand.comp \
	kernels/glsl/landmarks_to_transform_matrix.comp \
	kernels/glsl/transform_tensor_bilinear.comp \
	kernels/glsl/transform_landmarks.comp \
	kernels/glsl/svdf_state.comp \
	kernels/glsl/svdf_output.comp \
	kernels/glsl/gather_nd.comp
EXTRA_DIST += $(GPU_GLSL_KERNEL_FILES) \
	kernels/glsl/common.glsl \
	kernels/glsl/prelude_gles.glsl \
	kernels/glsl/prelude_vulkan.glsl \
	kernels/glsl/embed_spirv.sh

if BUILD_VULKAN
BUILT_SOURCES += kernels/glsl_spirv.c
CLEANFILES += kernels/glsl_spirv.c
kernels/glsl_spirv.c: $(GPU_GLSL_KERNEL_FILES) kernels/glsl/common.glsl \
		kernels/glsl/prelude_vulkan.glsl kernels/glsl/embed_spirv.sh
	$(AM_V_GEN)$(MKDIR_P) kernels && \
	$(SHELL) $(srcdir)/kernels/glsl/embed_spirv.sh '$(GLSLC)' $(srcdir)/kernels/glsl \
	  kernels/glsl_spirv.work $(GPU_GLSL_KERNELS) > $@.tmp && \
	mv $@.tmp $@
endif

if BUILD_GLES
BUILT_SOURCES += kernels/glsl_gles_sources.c
CLEANFILES += kernels/glsl_gles_sources.c
kernels/glsl_gles_sources.c: $(GPU_GLSL_KERNEL_FILES) kernels/glsl/common.glsl \
		kernels/glsl/prelude_gles.glsl kernels/embed_sources.sh
	$(AM_V_GEN)$(MKDIR_P) kernels && \
	files=; for f in kernels/glsl/prelude_gles.glsl kernels/glsl/common.glsl \
	  $(GPU_GLSL_KERNEL_FILES); do files="$$files $(srcdir)/$$f"; done; \
	$(SHELL) $(srcdir)/kernels/embed_sources.sh gpu_gl_kernel_sources \
	  plugins/gpu_gl/gl_kernel_sources.h $$files > $@.tmp && \
	mv $@.tmp $@
endif
