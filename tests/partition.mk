# Partitioner and executor tests on real models, with the test_subset plugin.
check_LTLIBRARIES += tests/libtest_subset.la
tests_libtest_subset_la_SOURCES = tests/partition/subset_plugin.c
tests_libtest_subset_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
tests_libtest_subset_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere -no-undefined \
	-export-symbols-regex '^tflaccel_accelerator_entry_v[0-9]+$$'
tests_libtest_subset_la_LIBADD = $(LIBS)

check_PROGRAMS += tests/test_partition
TESTS += tests/test_partition tests/partition/inspect_plan.sh
dist_check_SCRIPTS += tests/partition/inspect_plan.sh
tests_test_partition_SOURCES = tests/partition/test_partition.c tests/support/test_util.c tests/support/test_util.h
tests_test_partition_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_test_partition_CFLAGS = $(TEST_C_FLAGS)
tests_test_partition_LDADD = libtflaccel_core.la $(CHECK_LIBS)
