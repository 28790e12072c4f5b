# Real models against the real TFLite interpreter's outputs, on cpu_ref.
check_PROGRAMS += tests/test_model_references
TESTS += tests/test_model_references
tests_test_model_references_SOURCES = tests/models/test_model_references.c \
	tools/tflaccel/input_generator.c tools/tflaccel/input_generator.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_test_model_references_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_test_model_references_CFLAGS = $(TEST_C_FLAGS)
tests_test_model_references_LDADD = libtflaccel.la core/facts/libtflaccel_facts.la $(CHECK_LIBS) -lm
