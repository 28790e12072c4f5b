# The facts library on its own: linked without the core, as plugins link it.
check_PROGRAMS += tests/facts/test_facts
TESTS += tests/facts/test_facts
tests_facts_test_facts_SOURCES = tests/facts/test_facts.c
tests_facts_test_facts_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_facts_test_facts_CFLAGS = $(TEST_C_FLAGS)
tests_facts_test_facts_LDADD = core/facts/libtflaccel_facts.la $(CHECK_LIBS) -lm

# The FlexBuffers reader (custom ops' options) against builder-written vectors.
check_PROGRAMS += tests/facts/test_flexbuffer
TESTS += tests/facts/test_flexbuffer
tests_facts_test_flexbuffer_SOURCES = tests/facts/test_flexbuffer.c \
	tests/support/flexbuffer_vectors.h
tests_facts_test_flexbuffer_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_facts_test_flexbuffer_CFLAGS = $(TEST_C_FLAGS)
tests_facts_test_flexbuffer_LDADD = core/facts/libtflaccel_facts.la $(CHECK_LIBS) -lm
