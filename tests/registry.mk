# Loader, config and selection tests, with test-only stub plugins.
STUB_LINK_FLAGS = -module -avoid-version -shared -rpath /nowhere -no-undefined
STUB_C_FLAGS = $(AM_CFLAGS) -fvisibility=hidden
check_LTLIBRARIES += \
	tests/libstub_ok.la tests/libstub_wrong_major.la tests/libstub_no_entry.la \
	tests/libstub_init_fails.la tests/libstub_no_device.la tests/libstub_newer_minor.la \
	tests/libstub_null_init.la tests/libstub_refuses_host.la

tests_libstub_ok_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_ok_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=1 -DSTUB_NAME='"stub_ok"'
tests_libstub_ok_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_ok_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_wrong_major_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_wrong_major_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=2 -DSTUB_NAME='"stub_wrong_major"'
tests_libstub_wrong_major_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_wrong_major_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_no_entry_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_no_entry_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=3 -DSTUB_NAME='"stub_no_entry"'
tests_libstub_no_entry_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_no_entry_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_init_fails_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_init_fails_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=4 -DSTUB_NAME='"stub_init_fails"'
tests_libstub_init_fails_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_init_fails_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_no_device_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_no_device_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=5 -DSTUB_NAME='"stub_no_device"'
tests_libstub_no_device_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_no_device_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_newer_minor_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_newer_minor_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=6 -DSTUB_NAME='"stub_newer_minor"'
tests_libstub_newer_minor_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_newer_minor_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_null_init_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_null_init_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=7 -DSTUB_NAME='"stub_null_init"'
tests_libstub_null_init_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_null_init_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_refuses_host_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_refuses_host_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=8 -DSTUB_NAME='"stub_refuses_host"'
tests_libstub_refuses_host_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_refuses_host_la_LDFLAGS = $(STUB_LINK_FLAGS)

check_PROGRAMS += tests/test_registry tests/test_config tests/test_plugin_dropins
TESTS += tests/test_registry tests/test_config tests/test_plugin_dropins \
	tests/registry/exported_symbols.sh tests/registry/debian_symbols.sh
dist_check_SCRIPTS += tests/registry/exported_symbols.sh tests/registry/debian_symbols.sh
# debian_symbols.sh compares the library with it, also in a tarball's make check.
EXTRA_DIST += debian/libtflaccel0.symbols

tests_test_registry_SOURCES = tests/registry/test_registry.c tests/support/test_util.c tests/support/test_util.h
tests_test_registry_CPPFLAGS = $(TEST_CPP_FLAGS) -DSTUB_DIR='"$(abs_top_builddir)/tests/.libs"'
tests_test_registry_CFLAGS = $(TEST_C_FLAGS)
tests_test_registry_LDADD = libtflaccel_core.la $(CHECK_LIBS)

tests_test_config_SOURCES = tests/registry/test_config.c tests/support/test_util.c tests/support/test_util.h
tests_test_config_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_test_config_CFLAGS = $(TEST_C_FLAGS)
tests_test_config_LDADD = libtflaccel_core.la $(CHECK_LIBS)

tests_test_plugin_dropins_SOURCES = tests/registry/test_plugin_dropins.c tests/support/test_util.c tests/support/test_util.h
tests_test_plugin_dropins_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_test_plugin_dropins_CFLAGS = $(TEST_C_FLAGS)
tests_test_plugin_dropins_LDADD = libtflaccel_core.la $(CHECK_LIBS)
