# cpu_ref plugin tests: single ops and small partitions driven through the
# plugin ABI with hand-built graph views, the core's real host services, and
# expected values computed by hand or by independent reference loops.
CPU_REF_TESTS = \
	tests/cpu_ref/test_cpu_ref_engine \
	tests/cpu_ref/test_cpu_ref_nn \
	tests/cpu_ref/test_cpu_ref_elementwise \
	tests/cpu_ref/test_cpu_ref_movement \
	tests/cpu_ref/test_cpu_ref_custom_ops
check_PROGRAMS += $(CPU_REF_TESTS)
TESTS += $(CPU_REF_TESTS)

CPU_REF_TEST_SUPPORT = tests/cpu_ref/op_builder.c tests/cpu_ref/op_builder.h
CPU_REF_TEST_LINK = plugins/libcpu_ref_impl.la libtflaccel_core.la $(CHECK_LIBS) -lm

tests_cpu_ref_test_cpu_ref_engine_SOURCES = tests/cpu_ref/test_engine.c $(CPU_REF_TEST_SUPPORT)
tests_cpu_ref_test_cpu_ref_engine_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_test_cpu_ref_engine_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_test_cpu_ref_engine_LDADD = $(CPU_REF_TEST_LINK)

tests_cpu_ref_test_cpu_ref_nn_SOURCES = tests/cpu_ref/test_nn.c $(CPU_REF_TEST_SUPPORT)
tests_cpu_ref_test_cpu_ref_nn_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_test_cpu_ref_nn_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_test_cpu_ref_nn_LDADD = $(CPU_REF_TEST_LINK)

tests_cpu_ref_test_cpu_ref_elementwise_SOURCES = tests/cpu_ref/test_elementwise.c $(CPU_REF_TEST_SUPPORT)
tests_cpu_ref_test_cpu_ref_elementwise_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_test_cpu_ref_elementwise_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_test_cpu_ref_elementwise_LDADD = $(CPU_REF_TEST_LINK)

tests_cpu_ref_test_cpu_ref_movement_SOURCES = tests/cpu_ref/test_movement.c $(CPU_REF_TEST_SUPPORT)
tests_cpu_ref_test_cpu_ref_movement_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_test_cpu_ref_movement_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_test_cpu_ref_movement_LDADD = $(CPU_REF_TEST_LINK)

tests_cpu_ref_test_cpu_ref_custom_ops_SOURCES = tests/cpu_ref/test_custom_ops.c \
	tests/support/flexbuffer_vectors.h $(CPU_REF_TEST_SUPPORT)
tests_cpu_ref_test_cpu_ref_custom_ops_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_cpu_ref_test_cpu_ref_custom_ops_CFLAGS = $(TEST_C_FLAGS)
tests_cpu_ref_test_cpu_ref_custom_ops_LDADD = $(CPU_REF_TEST_LINK)
