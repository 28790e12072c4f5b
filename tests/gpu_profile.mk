# The plugin option profile = 1 of gpu_cl, gpu_vk and gpu_gl: one Check program
# built once per plugin, running a real model with and without per-dispatch
# timing and reading the profile table it logs.
GPU_PROFILE_TEST_SOURCES = tests/gpu/test_gpu_profile.c \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h

if BUILD_OPENCL
check_PROGRAMS += tests/gpu/test_gpu_profile_gpu_cl
TESTS += tests/gpu/test_gpu_profile_gpu_cl
tests_gpu_test_gpu_profile_gpu_cl_SOURCES = $(GPU_PROFILE_TEST_SOURCES)
tests_gpu_test_gpu_profile_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DPROFILE_TEST_ACCELERATOR='"gpu_cl"'
tests_gpu_test_gpu_profile_gpu_cl_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_profile_gpu_cl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

if BUILD_VULKAN
check_PROGRAMS += tests/gpu/test_gpu_profile_gpu_vk
TESTS += tests/gpu/test_gpu_profile_gpu_vk
tests_gpu_test_gpu_profile_gpu_vk_SOURCES = $(GPU_PROFILE_TEST_SOURCES)
tests_gpu_test_gpu_profile_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DPROFILE_TEST_ACCELERATOR='"gpu_vk"'
tests_gpu_test_gpu_profile_gpu_vk_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_profile_gpu_vk_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

if BUILD_GLES
check_PROGRAMS += tests/gpu/test_gpu_profile_gpu_gl
TESTS += tests/gpu/test_gpu_profile_gpu_gl
tests_gpu_test_gpu_profile_gpu_gl_SOURCES = $(GPU_PROFILE_TEST_SOURCES)
tests_gpu_test_gpu_profile_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DPROFILE_TEST_ACCELERATOR='"gpu_gl"' \
	-DPROFILE_TEST_TIMER_EXTENSION='"GL_EXT_disjoint_timer_query"'
tests_gpu_test_gpu_profile_gpu_gl_CFLAGS = $(TEST_C_FLAGS)
tests_gpu_test_gpu_profile_gpu_gl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif
