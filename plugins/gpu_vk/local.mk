# libgpu_vk.so: the Vulkan accelerator. Linked against the Vulkan loader
# (libvulkan.so.1): a missing loader shows as a plugin that failed to load,
# a missing driver (ICD) as an unavailable one.
if BUILD_VULKAN
plugin_LTLIBRARIES += plugins/libgpu_vk.la
plugins_libgpu_vk_la_SOURCES = \
	plugins/gpu_vk/plugin.c \
	plugins/gpu_vk/vk_context.c \
	plugins/gpu_vk/vk_context.h \
	plugins/gpu_vk/vk_buffer.c \
	plugins/gpu_vk/vk_buffer.h \
	plugins/gpu_vk/vk_error.c \
	plugins/gpu_vk/vk_error.h
plugins_libgpu_vk_la_CFLAGS = $(PLUGIN_C_FLAGS) $(VULKAN_CFLAGS)
plugins_libgpu_vk_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_libgpu_vk_la_LIBADD = $(VULKAN_LIBS)
endif
