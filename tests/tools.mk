# tflaccel bench and diff: their helper units (Check), a diff run on a model
# that makes NaN (Check), the CLI's flags and output lines (shell), and
# bench/run-all.sh's table (shell).
# The helpers come from tools/libtflaccel_cli.la.
TOOLS_HELPER_SOURCES =

check_PROGRAMS += tests/tools/test_bench_helpers tests/tools/test_diff_non_finite
TESTS += \
	tests/tools/test_bench_helpers \
	tests/tools/test_diff_non_finite \
	tests/tools/bench_cli.sh \
	tests/tools/diff_cli.sh \
	tests/tools/run_all_table.sh \
	tests/tools/special_files.sh
dist_check_SCRIPTS += \
	tests/tools/bench_cli.sh \
	tests/tools/diff_cli.sh \
	tests/tools/run_all_table.sh \
	tests/tools/special_files.sh
EXTRA_DIST += tests/tools/cli_checks.sh

tests_tools_test_bench_helpers_SOURCES = tests/tools/test_bench_helpers.c $(TOOLS_HELPER_SOURCES) \
	tests/support/test_util.c tests/support/test_util.h
tests_tools_test_bench_helpers_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_tools_test_bench_helpers_CFLAGS = $(TEST_C_FLAGS)
tests_tools_test_bench_helpers_LDADD = tools/libtflaccel_cli.la libtflaccel.la $(CHECK_LIBS) -lm

tests_tools_test_diff_non_finite_SOURCES = tests/tools/test_diff_non_finite.c \
	tests/support/test_util.c tests/support/test_util.h
tests_tools_test_diff_non_finite_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_tools_test_diff_non_finite_CFLAGS = $(TEST_C_FLAGS)
tests_tools_test_diff_non_finite_LDADD = tests/libmodel_test_support.la libtflaccel_core.la $(CHECK_LIBS)

check_PROGRAMS += tests/tools/test_json_writer
TESTS += tests/tools/test_json_writer
tests_tools_test_json_writer_SOURCES = tests/tools/test_json_writer.c \
	tests/support/test_util.c tests/support/test_util.h
tests_tools_test_json_writer_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_tools_test_json_writer_CFLAGS = $(TEST_C_FLAGS)
tests_tools_test_json_writer_LDADD = tools/libtflaccel_cli.la libtflaccel.la $(CHECK_LIBS)

# tflaccel eval: a colour classifier, its labelled PNG/JPEG photos and broken
# inputs, made by make_eval_fixture (libpng, libjpeg, tflite_builder).
check_PROGRAMS += tests/tools/make_eval_fixture
TESTS += tests/tools/eval_cli.sh tests/tools/bench_tflite_flags.sh tests/tools/newcomer_cli.sh
dist_check_SCRIPTS += tests/tools/eval_cli.sh tests/tools/bench_tflite_flags.sh \
	tests/tools/newcomer_cli.sh
tests_tools_make_eval_fixture_SOURCES = tests/tools/make_eval_fixture.c
tests_tools_make_eval_fixture_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_tools_make_eval_fixture_CFLAGS = $(TEST_C_FLAGS) $(PNG_CFLAGS) $(JPEG_CFLAGS)
tests_tools_make_eval_fixture_LDADD = tests/libmodel_test_support.la libtflaccel_core.la \
	$(PNG_LIBS) $(JPEG_LIBS)

# The manual pages render without warnings and document every command and flag.
TESTS += tests/tools/man_pages.sh
dist_check_SCRIPTS += tests/tools/man_pages.sh

check_PROGRAMS += tests/tools/test_eval_helpers
TESTS += tests/tools/test_eval_helpers
tests_tools_test_eval_helpers_SOURCES = tests/tools/test_eval_helpers.c \
	tests/support/test_util.c tests/support/test_util.h
tests_tools_test_eval_helpers_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_tools_test_eval_helpers_CFLAGS = $(TEST_C_FLAGS)
tests_tools_test_eval_helpers_LDADD = tools/libtflaccel_cli.la libtflaccel.la $(CHECK_LIBS)
