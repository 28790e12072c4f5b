# Runtime behaviour across threads: different compiled models of one
# environment run at once on every plugin built (tflaccel.h's promise).
check_PROGRAMS += tests/runtime/test_concurrent_runs
TESTS += tests/runtime/test_concurrent_runs
tests_runtime_test_concurrent_runs_SOURCES = tests/runtime/test_concurrent_runs.c \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_concurrent_runs_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_concurrent_runs_CFLAGS = $(TEST_C_FLAGS) $(PTHREAD_CFLAGS)
tests_runtime_test_concurrent_runs_LDADD = libtflaccel.la $(CHECK_LIBS) $(PTHREAD_LIBS)
