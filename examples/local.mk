# Examples of device buffers and asynchronous runs (docs: tflaccel.h). Each
# is built by make check and run as a test on the stacks present (exit 77:
# its accelerator is not available here).
if BUILD_GLES
check_PROGRAMS += examples/gl_pipeline
TESTS += examples/gl_pipeline
examples_gl_pipeline_SOURCES = examples/gl_pipeline.c
examples_gl_pipeline_CPPFLAGS = $(AM_CPPFLAGS)
examples_gl_pipeline_CFLAGS = $(AM_CFLAGS) $(GLES_CFLAGS)
examples_gl_pipeline_LDADD = libtflaccel.la $(GLES_LIBS) -lm
endif

if BUILD_OPENCL
check_PROGRAMS += examples/cl_pipeline
TESTS += examples/cl_pipeline
examples_cl_pipeline_SOURCES = examples/cl_pipeline.c
examples_cl_pipeline_CPPFLAGS = $(AM_CPPFLAGS)
examples_cl_pipeline_CFLAGS = $(AM_CFLAGS) $(OPENCL_CFLAGS)
examples_cl_pipeline_LDADD = libtflaccel.la $(OPENCL_LIBS) -lm
endif

# On the configured accelerators (auto: the CPU plugins here).
check_PROGRAMS += examples/async_frames
TESTS += examples/async_frames
examples_async_frames_SOURCES = examples/async_frames.c
examples_async_frames_CPPFLAGS = $(AM_CPPFLAGS)
examples_async_frames_LDADD = libtflaccel.la
