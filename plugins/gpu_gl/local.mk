# libgpu_gl.so: the OpenGL ES 3.1 accelerator, through EGL with no window
# system. Linked against the vendor-neutral libEGL and libGLESv2 (libglvnd),
# so a missing library shows as a plugin that failed to load and a missing
# driver as an unavailable one. The GPU layer comes from
# plugins/libgpu_common.la, the kernels from kernels/glsl/ (embedded as
# text, compiled by the driver).
if BUILD_GLES
plugin_LTLIBRARIES += plugins/libgpu_gl.la
plugins_libgpu_gl_la_SOURCES = \
	plugins/gpu_gl/plugin.c \
	plugins/gpu_gl/gl_api.h \
	plugins/gpu_gl/egl_context.c \
	plugins/gpu_gl/egl_context.h \
	plugins/gpu_gl/egl_display_registry.c \
	plugins/gpu_gl/egl_display_registry.h \
	plugins/gpu_gl/gl_backend.c \
	plugins/gpu_gl/gl_backend.h \
	plugins/gpu_gl/gl_kernel_sources.h \
	plugins/gpu_gl/gl_probe.c \
	plugins/gpu_gl/gl_probe.h \
	plugins/gpu_gl/gl_program.c \
	plugins/gpu_gl/gl_program.h \
	plugins/gpu_gl/gl_program_cache.c \
	plugins/gpu_gl/gl_program_cache.h \
	plugins/gpu_gl/gl_buffer.c \
	plugins/gpu_gl/gl_buffer.h \
	plugins/gpu_gl/gl_error.c \
	plugins/gpu_gl/gl_error.h \
	plugins/gpu_gl/gl_event.c \
	plugins/gpu_gl/gl_event.h \
	plugins/gpu_gl/gl_memory_object.c \
	plugins/gpu_gl/gl_memory_object.h \
	plugins/gpu_gl/gl_semaphore.c \
	plugins/gpu_gl/gl_semaphore.h \
	plugins/gpu_gl/gl_timer.c \
	plugins/gpu_gl/gl_timer.h \
	plugins/gpu_gl/gl_worker.c \
	plugins/gpu_gl/gl_worker.h
nodist_plugins_libgpu_gl_la_SOURCES = kernels/glsl_gles_sources.c
plugins_libgpu_gl_la_CFLAGS = $(PLUGIN_C_FLAGS) $(GLES_CFLAGS) $(PTHREAD_CFLAGS)
plugins_libgpu_gl_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_libgpu_gl_la_LIBADD = plugins/libgpu_common.la $(GLES_LIBS) $(PTHREAD_LIBS)
endif
