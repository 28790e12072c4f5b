# GPU plugin tests: one Check binary per plugin. Each dlopen()s the module
# just built in plugins/.libs and drives it with the core's real host
# services; it skips (77) only when the plugin finds no driver at all.
GPU_TEST_SOURCES = \
	tests/gpu/gpu_plugin_harness.c \
	tests/gpu/gpu_plugin_harness.h
GPU_TEST_LDADD = libtflaccel_core.la $(CHECK_LIBS)

if BUILD_OPENCL
check_PROGRAMS += tests/gpu/test_gpu_cl
TESTS += tests/gpu/test_gpu_cl
tests_gpu_test_gpu_cl_SOURCES = tests/gpu/test_gpu_cl.c $(GPU_TEST_SOURCES) \
	tests/gpu/gpu_small_graph.c tests/gpu/gpu_small_graph.h
tests_gpu_test_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DGPU_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_cl.so"' \
	-DGPU_PLUGIN_NAME='"gpu_cl"' -DGPU_PLUGIN_API_PREFIX='"OpenCL "'
tests_gpu_test_gpu_cl_CFLAGS = $(TEST_C_FLAGS) $(OPENCL_CFLAGS)
tests_gpu_test_gpu_cl_LDADD = $(GPU_TEST_LDADD) $(OPENCL_LIBS)
endif

if BUILD_VULKAN
check_PROGRAMS += tests/gpu/test_gpu_vk
TESTS += tests/gpu/test_gpu_vk
tests_gpu_test_gpu_vk_SOURCES = tests/gpu/test_gpu_vk.c $(GPU_TEST_SOURCES)
tests_gpu_test_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DGPU_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_vk.so"' \
	-DGPU_PLUGIN_NAME='"gpu_vk"' -DGPU_PLUGIN_API_PREFIX='"Vulkan "'
tests_gpu_test_gpu_vk_CFLAGS = $(TEST_C_FLAGS) $(VULKAN_CFLAGS)
tests_gpu_test_gpu_vk_LDADD = $(GPU_TEST_LDADD) $(VULKAN_LIBS)
endif

if BUILD_GLES
check_PROGRAMS += tests/gpu/test_gpu_gl
TESTS += tests/gpu/test_gpu_gl
tests_gpu_test_gpu_gl_SOURCES = tests/gpu/test_gpu_gl.c $(GPU_TEST_SOURCES)
tests_gpu_test_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DGPU_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_gl.so"' \
	-DGPU_PLUGIN_NAME='"gpu_gl"' -DGPU_PLUGIN_API_PREFIX='"OpenGL ES "'
tests_gpu_test_gpu_gl_CFLAGS = $(TEST_C_FLAGS) $(GLES_CFLAGS) $(PTHREAD_CFLAGS)
tests_gpu_test_gpu_gl_LDADD = $(GPU_TEST_LDADD) $(GLES_LIBS) $(PTHREAD_LIBS)
endif

# The GPU layer's op table, linked in directly: no device needed.
check_PROGRAMS += tests/gpu/test_gpu_op_table
TESTS += tests/gpu/test_gpu_op_table
tests_gpu_test_gpu_op_table_SOURCES = tests/gpu/test_gpu_op_table.c
tests_gpu_test_gpu_op_table_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_gpu_op_table_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_op_table_LDADD = plugins/libgpu_common.la $(CHECK_LIBS)

# The bound proof of int32 values and the support answers it gives: no
# device needed.
check_PROGRAMS += tests/gpu/test_gpu_int_bounds
TESTS += tests/gpu/test_gpu_int_bounds
tests_gpu_test_gpu_int_bounds_SOURCES = tests/gpu/test_gpu_int_bounds.c \
	tests/conformance/conformance_graph.c tests/conformance/conformance_graph.h
tests_gpu_test_gpu_int_bounds_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_gpu_int_bounds_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_int_bounds_LDADD = plugins/libgpu_common.la $(CHECK_LIBS)

# The post-op list a backend builds a kernel for, decoded as the GLSL
# kernels decode it: no device needed.
check_PROGRAMS += tests/gpu/test_gpu_post_list
TESTS += tests/gpu/test_gpu_post_list
tests_gpu_test_gpu_post_list_SOURCES = tests/gpu/test_gpu_post_list.c
tests_gpu_test_gpu_post_list_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_gpu_post_list_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_post_list_LDADD = plugins/libgpu_common.la $(CHECK_LIBS)

# The 8-bit tensors conv2d reads as words (inputs in place, tensors
# between layers), lowered: no device needed.
check_PROGRAMS += tests/gpu/test_gpu_input_words
TESTS += tests/gpu/test_gpu_input_words
tests_gpu_test_gpu_input_words_SOURCES = tests/gpu/test_gpu_input_words.c \
	tests/conformance/conformance_graph.c tests/conformance/conformance_graph.h
tests_gpu_test_gpu_input_words_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_gpu_input_words_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_input_words_LDADD = plugins/libgpu_common.la libtflaccel_core.la $(CHECK_LIBS)

# The support rules of MediaPipe's transform custom ops: no device needed.
check_PROGRAMS += tests/gpu/test_gpu_mediapipe_support
TESTS += tests/gpu/test_gpu_mediapipe_support
tests_gpu_test_gpu_mediapipe_support_SOURCES = tests/gpu/test_gpu_mediapipe_support.c
tests_gpu_test_gpu_mediapipe_support_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_gpu_mediapipe_support_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_mediapipe_support_LDADD = plugins/libgpu_common.la $(CHECK_LIBS)
