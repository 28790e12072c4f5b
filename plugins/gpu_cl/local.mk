# libgpu_cl.so: the OpenCL accelerator. Linked against the vendor-neutral ICD
# loader (libOpenCL.so.1), so a missing loader shows as a plugin that failed
# to load and a missing driver as an unavailable one. The GPU layer comes
# from plugins/libgpu_common.la, the kernels from kernels/cl/ (embedded).
if BUILD_OPENCL
plugin_LTLIBRARIES += plugins/libgpu_cl.la
plugins_libgpu_cl_la_SOURCES = \
	plugins/gpu_cl/plugin.c \
	plugins/gpu_cl/cl_api.h \
	plugins/gpu_cl/cl_backend.c \
	plugins/gpu_cl/cl_backend.h \
	plugins/gpu_cl/cl_context.c \
	plugins/gpu_cl/cl_context.h \
	plugins/gpu_cl/cl_buffer.c \
	plugins/gpu_cl/cl_native.c \
	plugins/gpu_cl/cl_native.h \
	plugins/gpu_cl/cl_buffer.h \
	plugins/gpu_cl/cl_error.c \
	plugins/gpu_cl/cl_error.h \
	plugins/gpu_cl/cl_event.c \
	plugins/gpu_cl/cl_event.h \
	plugins/gpu_cl/cl_external_memory.c \
	plugins/gpu_cl/cl_external_memory.h \
	plugins/gpu_cl/cl_semaphore.c \
	plugins/gpu_cl/cl_semaphore.h \
	plugins/gpu_cl/cl_kernel_sources.h \
	plugins/gpu_cl/cl_program.c \
	plugins/gpu_cl/cl_program.h \
	plugins/gpu_cl/cl_program_cache.c \
	plugins/gpu_cl/cl_program_cache.h \
	plugins/gpu_cl/cl_staging.c \
	plugins/gpu_cl/cl_staging.h
nodist_plugins_libgpu_cl_la_SOURCES = kernels/cl_kernel_sources.c
plugins_libgpu_cl_la_CFLAGS = $(PLUGIN_C_FLAGS) $(OPENCL_CFLAGS)
plugins_libgpu_cl_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_libgpu_cl_la_LIBADD = plugins/libgpu_common.la $(OPENCL_LIBS)
endif
