# cpu_ref's quantized and recurrent kernels: fixed-point primitives against
# hand-worked values, single ops run through the plugin's ABI, and the
# elementwise binary ops bit for bit against an oracle of TFLite's rules.
CPU_REF_QUANT_TESTS = \
	tests/cpu_ref_quant/test_cpu_ref_quant_fixed_point \
	tests/cpu_ref_quant/test_cpu_ref_quant_ops \
	tests/cpu_ref_quant/test_cpu_ref_quant_binary_exact
check_PROGRAMS += $(CPU_REF_QUANT_TESTS)
TESTS += $(CPU_REF_QUANT_TESTS)

CPU_REF_QUANT_TEST_LINK = plugins/libcpu_ref_impl.la libtflaccel_core.la $(CHECK_LIBS) -lm

tests_cpu_ref_quant_test_cpu_ref_quant_fixed_point_SOURCES = tests/cpu_ref_quant/test_fixed_point.c
tests_cpu_ref_quant_test_cpu_ref_quant_fixed_point_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_fixed_point_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_fixed_point_LDADD = $(CPU_REF_QUANT_TEST_LINK)

tests_cpu_ref_quant_test_cpu_ref_quant_ops_SOURCES = tests/cpu_ref_quant/test_ops.c \
	tests/cpu_ref/op_builder.c tests/cpu_ref/op_builder.h
tests_cpu_ref_quant_test_cpu_ref_quant_ops_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_ops_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_ops_LDADD = $(CPU_REF_QUANT_TEST_LINK)

tests_cpu_ref_quant_test_cpu_ref_quant_binary_exact_SOURCES = tests/cpu_ref_quant/test_binary_exact.c \
	tests/cpu_ref_quant/binary_cases.h \
	tests/cpu_ref/op_builder.c tests/cpu_ref/op_builder.h
tests_cpu_ref_quant_test_cpu_ref_quant_binary_exact_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_binary_exact_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_quant_test_cpu_ref_quant_binary_exact_LDADD = $(CPU_REF_QUANT_TEST_LINK)
