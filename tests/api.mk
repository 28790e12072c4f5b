# The public API pieces the Python binding is built on (signatures, host
# buffers over the caller's memory, the cache_dir option), tested in C.
check_PROGRAMS += tests/api/test_binding_api
TESTS += tests/api/test_binding_api
tests_api_test_binding_api_SOURCES = tests/api/test_binding_api.c tests/support/test_util.c \
	tests/support/test_util.h
tests_api_test_binding_api_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_api_test_binding_api_CFLAGS = $(TEST_C_FLAGS)
tests_api_test_binding_api_LDADD = $(TEST_LINK)
