# Examples of device buffers and asynchronous runs (docs: tflaccel.h). Each
# is built by make check and run as a test on the stacks present (exit 77:
# its accelerator is not available here). The device pipelines share
# pipeline_common.c: model setup, the host-buffer check, errors.
PIPELINE_COMMON_SOURCES = examples/pipeline_common.c examples/pipeline_common.h
if BUILD_GLES
check_PROGRAMS += examples/gl_pipeline
TESTS += examples/gl_pipeline
examples_gl_pipeline_SOURCES = examples/gl_pipeline.c $(PIPELINE_COMMON_SOURCES)
examples_gl_pipeline_CPPFLAGS = $(AM_CPPFLAGS)
examples_gl_pipeline_CFLAGS = $(AM_CFLAGS) $(GLES_CFLAGS)
examples_gl_pipeline_LDADD = libtflaccel.la $(GLES_LIBS) -lm
endif

if BUILD_OPENCL
check_PROGRAMS += examples/cl_pipeline
TESTS += examples/cl_pipeline
examples_cl_pipeline_SOURCES = examples/cl_pipeline.c $(PIPELINE_COMMON_SOURCES)
examples_cl_pipeline_CPPFLAGS = $(AM_CPPFLAGS)
examples_cl_pipeline_CFLAGS = $(AM_CFLAGS) $(OPENCL_CFLAGS)
examples_cl_pipeline_LDADD = libtflaccel.la $(OPENCL_LIBS) -lm
endif

if BUILD_VULKAN
check_PROGRAMS += examples/vk_pipeline
TESTS += examples/vk_pipeline
examples_vk_pipeline_SOURCES = examples/vk_pipeline.c examples/vk_pipeline_spirv.h \
	$(PIPELINE_COMMON_SOURCES)
nodist_examples_vk_pipeline_SOURCES = examples/vk_pipeline_spirv.c
examples_vk_pipeline_CPPFLAGS = $(AM_CPPFLAGS)
examples_vk_pipeline_CFLAGS = $(AM_CFLAGS) $(VULKAN_CFLAGS)
examples_vk_pipeline_LDADD = libtflaccel.la $(VULKAN_LIBS) -lm
CLEANFILES += examples/vk_pipeline_spirv.c
# Its two compute shaders, compiled to SPIR-V by glslc as gpu_vk's kernels
# are (kernels/glsl/local.mk) and embedded as word arrays.
examples/vk_pipeline_spirv.c: examples/vk_draw.comp examples/vk_sum.comp
	$(AM_V_GEN)$(MKDIR_P) examples && { \
	  echo '/* Generated from examples/vk_*.comp by glslc (examples/local.mk): do not edit. */'; \
	  echo '#include "examples/vk_pipeline_spirv.h"'; \
	  for shader in draw sum; do \
	    $(GLSLC) --target-env=vulkan1.1 -fshader-stage=compute -O -Werror -mfmt=num \
	      -o $@.$$shader $(srcdir)/examples/vk_$$shader.comp || exit 1; \
	    echo "const uint32_t vk_pipeline_$${shader}_spirv[] = {"; cat $@.$$shader; echo "};"; \
	    echo "const size_t vk_pipeline_$${shader}_spirv_size = sizeof vk_pipeline_$${shader}_spirv;"; \
	    rm -f $@.$$shader; \
	  done; } > $@.tmp && mv $@.tmp $@
endif
EXTRA_DIST += examples/vk_draw.comp examples/vk_sum.comp

# On the configured accelerators (auto: the CPU plugins here).
check_PROGRAMS += examples/async_frames
TESTS += examples/async_frames
examples_async_frames_SOURCES = examples/async_frames.c
examples_async_frames_CPPFLAGS = $(AM_CPPFLAGS)
examples_async_frames_LDADD = libtflaccel.la
