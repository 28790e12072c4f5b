# Runtime behaviour across threads: different compiled models of one
# environment run at once on every plugin built (tflaccel.h's promise).
check_PROGRAMS += tests/runtime/test_concurrent_runs
TESTS += tests/runtime/test_concurrent_runs
tests_runtime_test_concurrent_runs_SOURCES = tests/runtime/test_concurrent_runs.c \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_concurrent_runs_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_concurrent_runs_CFLAGS = $(TEST_C_FLAGS) $(PTHREAD_CFLAGS)
tests_runtime_test_concurrent_runs_LDADD = libtflaccel.la $(CHECK_LIBS) $(PTHREAD_LIBS)

# The same test on its own, for a ThreadSanitizer build (.ci/reliability.sh):
#   make check-threads [TFLACCEL_THREADS_N=N TFLACCEL_THREADS_RUNS=R]
# TSAN_OPTIONS should name tests/sanitizers/tsan.supp (drivers' own races).
TFLACCEL_THREADS_N = 8
TFLACCEL_THREADS_RUNS = 2
check-threads: all tests/runtime/test_concurrent_runs
	@$(AM_TESTS_ENVIRONMENT) TFLACCEL_THREADS_N=$(TFLACCEL_THREADS_N); \
	TFLACCEL_THREADS_RUNS=$(TFLACCEL_THREADS_RUNS); export TFLACCEL_THREADS_N TFLACCEL_THREADS_RUNS; \
	TSAN_OPTIONS="$${TSAN_OPTIONS:-suppressions=$(abs_top_srcdir)/tests/sanitizers/tsan.supp:ignore_noninstrumented_modules=1:halt_on_error=1}"; \
	export TSAN_OPTIONS; CK_FORK=no; export CK_FORK; tests/runtime/test_concurrent_runs
.PHONY: check-threads
