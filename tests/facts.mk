# The facts library on its own: linked without the core, as plugins link it.
check_PROGRAMS += tests/facts/test_facts
TESTS += tests/facts/test_facts
tests_facts_test_facts_SOURCES = tests/facts/test_facts.c
tests_facts_test_facts_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_facts_test_facts_CFLAGS = $(TEST_C_FLAGS)
tests_facts_test_facts_LDADD = core/facts/libtflaccel_facts.la $(CHECK_LIBS) -lm
