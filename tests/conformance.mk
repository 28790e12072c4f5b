# The conformance suite: one Check program, built once per GPU plugin with
# that plugin's module and name, comparing it op by op with cpu_ref.
CONFORMANCE_SOURCES = \
	tests/conformance/test_conformance.c \
	tests/conformance/conformance_cases.c \
	tests/conformance/conformance_cases.h \
	tests/conformance/conformance_quant_cases.c \
	tests/conformance/conformance_int_cases.c \
	tests/conformance/conformance_graph.c \
	tests/conformance/conformance_graph.h \
	tests/conformance/conformance_runner.c \
	tests/conformance/conformance_runner.h
CONFORMANCE_LDADD = libtflaccel_core.la $(CHECK_LIBS)
CONFORMANCE_REFERENCE = -DCONFORMANCE_REFERENCE_PATH='"$(abs_top_builddir)/plugins/.libs/libcpu_ref.so"'

if BUILD_OPENCL
check_PROGRAMS += tests/conformance/test_conformance_gpu_cl
TESTS += tests/conformance/test_conformance_gpu_cl
tests_conformance_test_conformance_gpu_cl_SOURCES = $(CONFORMANCE_SOURCES)
tests_conformance_test_conformance_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) $(CONFORMANCE_REFERENCE) \
	-DCONFORMANCE_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_cl.so"' \
	-DCONFORMANCE_PLUGIN_NAME='"gpu_cl"'
tests_conformance_test_conformance_gpu_cl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_conformance_gpu_cl_LDADD = $(CONFORMANCE_LDADD)
endif

if BUILD_VULKAN
check_PROGRAMS += tests/conformance/test_conformance_gpu_vk
TESTS += tests/conformance/test_conformance_gpu_vk
tests_conformance_test_conformance_gpu_vk_SOURCES = $(CONFORMANCE_SOURCES)
tests_conformance_test_conformance_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) $(CONFORMANCE_REFERENCE) \
	-DCONFORMANCE_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_vk.so"' \
	-DCONFORMANCE_PLUGIN_NAME='"gpu_vk"'
tests_conformance_test_conformance_gpu_vk_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_conformance_gpu_vk_LDADD = $(CONFORMANCE_LDADD)
endif

if BUILD_GLES
check_PROGRAMS += tests/conformance/test_conformance_gpu_gl
TESTS += tests/conformance/test_conformance_gpu_gl
tests_conformance_test_conformance_gpu_gl_SOURCES = $(CONFORMANCE_SOURCES)
tests_conformance_test_conformance_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) $(CONFORMANCE_REFERENCE) \
	-DCONFORMANCE_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libgpu_gl.so"' \
	-DCONFORMANCE_PLUGIN_NAME='"gpu_gl"'
tests_conformance_test_conformance_gpu_gl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_conformance_gpu_gl_LDADD = $(CONFORMANCE_LDADD)
endif

# Whole float models on the GPU plugin against the TFLite references.
if BUILD_OPENCL
check_PROGRAMS += tests/conformance/test_gpu_models_gpu_cl
TESTS += tests/conformance/test_gpu_models_gpu_cl
tests_conformance_test_gpu_models_gpu_cl_SOURCES = tests/conformance/test_gpu_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_models_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_cl"'
tests_conformance_test_gpu_models_gpu_cl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_models_gpu_cl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

# The same whole-model check for the Vulkan and GLES plugins (lavapipe and
# llvmpipe in CI).
if BUILD_VULKAN
check_PROGRAMS += tests/conformance/test_gpu_models_gpu_vk
TESTS += tests/conformance/test_gpu_models_gpu_vk
tests_conformance_test_gpu_models_gpu_vk_SOURCES = tests/conformance/test_gpu_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_models_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_vk"'
tests_conformance_test_gpu_models_gpu_vk_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_models_gpu_vk_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

if BUILD_GLES
check_PROGRAMS += tests/conformance/test_gpu_models_gpu_gl
TESTS += tests/conformance/test_gpu_models_gpu_gl
tests_conformance_test_gpu_models_gpu_gl_SOURCES = tests/conformance/test_gpu_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_models_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_gl"'
tests_conformance_test_gpu_models_gpu_gl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_models_gpu_gl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

# The quantized corpus (../shared/models only) on each GPU plugin through the
# float view, against issue 19's fidelity bar.
if BUILD_OPENCL
check_PROGRAMS += tests/conformance/test_gpu_quant_models_gpu_cl
TESTS += tests/conformance/test_gpu_quant_models_gpu_cl
tests_conformance_test_gpu_quant_models_gpu_cl_SOURCES = tests/conformance/test_gpu_quant_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_quant_models_gpu_cl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_cl"'
tests_conformance_test_gpu_quant_models_gpu_cl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_quant_models_gpu_cl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

if BUILD_VULKAN
check_PROGRAMS += tests/conformance/test_gpu_quant_models_gpu_vk
TESTS += tests/conformance/test_gpu_quant_models_gpu_vk
tests_conformance_test_gpu_quant_models_gpu_vk_SOURCES = tests/conformance/test_gpu_quant_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_quant_models_gpu_vk_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_vk"'
tests_conformance_test_gpu_quant_models_gpu_vk_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_quant_models_gpu_vk_LDADD = libtflaccel.la $(CHECK_LIBS)
endif

if BUILD_GLES
check_PROGRAMS += tests/conformance/test_gpu_quant_models_gpu_gl
TESTS += tests/conformance/test_gpu_quant_models_gpu_gl
tests_conformance_test_gpu_quant_models_gpu_gl_SOURCES = tests/conformance/test_gpu_quant_models.c \
	tests/conformance/model_runner.c tests/conformance/model_runner.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_conformance_test_gpu_quant_models_gpu_gl_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_TEST_ACCELERATOR='"gpu_gl"'
tests_conformance_test_gpu_quant_models_gpu_gl_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_gpu_quant_models_gpu_gl_LDADD = libtflaccel.la $(CHECK_LIBS)
endif
