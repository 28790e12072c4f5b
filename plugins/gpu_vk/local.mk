# libgpu_vk.so: the Vulkan accelerator. Linked against the Vulkan loader
# (libvulkan.so.1): a missing loader shows as a plugin that failed to load,
# a missing driver (ICD) as an unavailable one. The GPU layer comes from
# plugins/libgpu_common.la, the kernels from kernels/glsl/ (SPIR-V, built
# by glslc and embedded).
if BUILD_VULKAN
plugin_LTLIBRARIES += plugins/libgpu_vk.la
plugins_libgpu_vk_la_SOURCES = \
	plugins/gpu_vk/plugin.c \
	plugins/gpu_vk/vk_backend.c \
	plugins/gpu_vk/vk_backend.h \
	plugins/gpu_vk/vk_context.c \
	plugins/gpu_vk/vk_context.h \
	plugins/gpu_vk/vk_buffer.c \
	plugins/gpu_vk/vk_buffer.h \
	plugins/gpu_vk/vk_debug.c \
	plugins/gpu_vk/vk_debug.h \
	plugins/gpu_vk/vk_error.c \
	plugins/gpu_vk/vk_error.h \
	plugins/gpu_vk/vk_event.c \
	plugins/gpu_vk/vk_event.h \
	plugins/gpu_vk/vk_external_memory.c \
	plugins/gpu_vk/vk_external_memory.h \
	plugins/gpu_vk/vk_pipeline.c \
	plugins/gpu_vk/vk_pipeline.h \
	plugins/gpu_vk/vk_semaphore.c \
	plugins/gpu_vk/vk_semaphore.h \
	plugins/gpu_vk/vk_shaders.h
nodist_plugins_libgpu_vk_la_SOURCES = kernels/glsl_spirv.c
plugins_libgpu_vk_la_CFLAGS = $(PLUGIN_C_FLAGS) $(VULKAN_CFLAGS) $(PTHREAD_CFLAGS)
plugins_libgpu_vk_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_libgpu_vk_la_LIBADD = plugins/libgpu_common.la $(VULKAN_LIBS) $(PTHREAD_LIBS)
endif
