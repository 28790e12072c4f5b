# GPU kernels (OpenCL C and GLSL) are embedded into their plugins at build
# time; each plugin's fragment lists the kernels it embeds.

# OpenCL C of gpu_cl, in the order they are concatenated into one program
# (common.cl first: the others use its macros and helpers).
GPU_CL_KERNEL_FILES = \
	kernels/cl/common.cl \
	kernels/cl/layout.cl \
	kernels/cl/conv.cl \
	kernels/cl/pool.cl \
	kernels/cl/copy.cl \
	kernels/cl/arg_max.cl \
	kernels/cl/gather_nd.cl \
	kernels/cl/lstm.cl \
	kernels/cl/mediapipe_transform.cl \
	kernels/cl/svdf.cl
EXTRA_DIST += $(GPU_CL_KERNEL_FILES) kernels/embed_sources.sh
BUILT_SOURCES += kernels/cl_kernel_sources.c
CLEANFILES += kernels/cl_kernel_sources.c
kernels/cl_kernel_sources.c: $(GPU_CL_KERNEL_FILES) kernels/embed_sources.sh
	$(AM_V_GEN)$(MKDIR_P) kernels && \
	files=; for f in $(GPU_CL_KERNEL_FILES); do files="$$files $(srcdir)/$$f"; done; \
	$(SHELL) $(srcdir)/kernels/embed_sources.sh gpu_cl_kernel_sources \
	  plugins/gpu_cl/cl_kernel_sources.h $$files > $@.tmp && \
	mv $@.tmp $@
include $(srcdir)/kernels/glsl/local.mk
