# cpu_xnnpack: the op-by-op conformance suite against cpu_ref, and the whole
# models of the corpus on cpu_xnnpack (with cpu_ref for the ops XNNPACK
# lacks) against the TFLite references. Built only with the plugin.
if BUILD_XNNPACK
check_PROGRAMS += tests/conformance/test_conformance_cpu_xnnpack
TESTS += tests/conformance/test_conformance_cpu_xnnpack
tests_conformance_test_conformance_cpu_xnnpack_SOURCES = $(CONFORMANCE_SOURCES)
tests_conformance_test_conformance_cpu_xnnpack_CPPFLAGS = $(TEST_CPP_FLAGS) $(CONFORMANCE_REFERENCE) \
	-DCONFORMANCE_PLUGIN_PATH='"$(abs_top_builddir)/plugins/.libs/libcpu_xnnpack.so"' \
	-DCONFORMANCE_PLUGIN_NAME='"cpu_xnnpack"'
tests_conformance_test_conformance_cpu_xnnpack_CFLAGS = $(TEST_C_FLAGS)
tests_conformance_test_conformance_cpu_xnnpack_LDADD = $(CONFORMANCE_LDADD)

check_PROGRAMS += tests/test_model_references_cpu_xnnpack
TESTS += tests/test_model_references_cpu_xnnpack
tests_test_model_references_cpu_xnnpack_SOURCES = tests/models/test_model_references.c \
	tools/tflaccel/input_generator.c tools/tflaccel/input_generator.h \
	tests/models/xnnpack_limits.c tests/models/xnnpack_limits.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_test_model_references_cpu_xnnpack_CPPFLAGS = $(TEST_CPP_FLAGS) \
	-DMODEL_REFERENCE_ACCELERATORS='"cpu_xnnpack,cpu_ref"' -DMODEL_REFERENCE_XNNPACK_LIMITS
tests_test_model_references_cpu_xnnpack_CFLAGS = $(TEST_C_FLAGS)
tests_test_model_references_cpu_xnnpack_LDADD = libtflaccel.la core/facts/libtflaccel_facts.la $(CHECK_LIBS) -lm
endif
