# The compiled-model cache: its files and directory without a GPU, then the
# GPU plugins against damaged, planted and shared entries.
check_PROGRAMS += tests/compiled_cache/test_cache_files
TESTS += tests/compiled_cache/test_cache_files
tests_compiled_cache_test_cache_files_SOURCES = tests/compiled_cache/test_cache_files.c \
	tests/support/test_util.c tests/support/test_util.h
tests_compiled_cache_test_cache_files_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_compiled_cache_test_cache_files_CFLAGS = $(TEST_C_FLAGS)
tests_compiled_cache_test_cache_files_LDADD = core/cache/libtflaccel_cache.la \
	core/facts/libtflaccel_facts.la libtflaccel.la $(CHECK_LIBS)

# The lowered program's entry (gpu_common) written, read and refused, no GPU.
check_PROGRAMS += tests/compiled_cache/test_program_entry
TESTS += tests/compiled_cache/test_program_entry
tests_compiled_cache_test_program_entry_SOURCES = tests/compiled_cache/test_program_entry.c \
	tests/support/test_util.c tests/support/test_util.h
tests_compiled_cache_test_program_entry_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_compiled_cache_test_program_entry_CFLAGS = $(TEST_C_FLAGS)
tests_compiled_cache_test_program_entry_LDADD = plugins/libgpu_common.la libtflaccel_core.la \
	$(CHECK_LIBS)

# One program per GPU plugin (CACHE_TEST_ACCELERATOR), each on a real model.
CACHE_GPU_TEST_SOURCES = tests/compiled_cache/test_cache_gpu.c \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
CACHE_GPU_TEST_LDADD = core/cache/libtflaccel_cache.la core/facts/libtflaccel_facts.la \
	libtflaccel.la $(CHECK_LIBS) -lm

if BUILD_OPENCL
check_PROGRAMS += tests/compiled_cache/test_cache_gpu_cl
TESTS += tests/compiled_cache/test_cache_gpu_cl
tests_compiled_cache_test_cache_gpu_cl_SOURCES = $(CACHE_GPU_TEST_SOURCES)
tests_compiled_cache_test_cache_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) -DCACHE_TEST_ACCELERATOR='"gpu_cl"'
tests_compiled_cache_test_cache_gpu_cl_CFLAGS = $(TEST_C_FLAGS)
tests_compiled_cache_test_cache_gpu_cl_LDADD = $(CACHE_GPU_TEST_LDADD)
endif

if BUILD_VULKAN
check_PROGRAMS += tests/compiled_cache/test_cache_gpu_vk
TESTS += tests/compiled_cache/test_cache_gpu_vk
tests_compiled_cache_test_cache_gpu_vk_SOURCES = $(CACHE_GPU_TEST_SOURCES)
tests_compiled_cache_test_cache_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) -DCACHE_TEST_ACCELERATOR='"gpu_vk"'
tests_compiled_cache_test_cache_gpu_vk_CFLAGS = $(TEST_C_FLAGS)
tests_compiled_cache_test_cache_gpu_vk_LDADD = $(CACHE_GPU_TEST_LDADD)
endif

if BUILD_GLES
check_PROGRAMS += tests/compiled_cache/test_cache_gpu_gl
TESTS += tests/compiled_cache/test_cache_gpu_gl
tests_compiled_cache_test_cache_gpu_gl_SOURCES = $(CACHE_GPU_TEST_SOURCES)
tests_compiled_cache_test_cache_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) -DCACHE_TEST_ACCELERATOR='"gpu_gl"'
tests_compiled_cache_test_cache_gpu_gl_CFLAGS = $(TEST_C_FLAGS)
tests_compiled_cache_test_cache_gpu_gl_LDADD = $(CACHE_GPU_TEST_LDADD)
endif

# tflaccel cache path|list|clear (shell, no GPU).
TESTS += tests/compiled_cache/cache_cli.sh
dist_check_SCRIPTS += tests/compiled_cache/cache_cli.sh
