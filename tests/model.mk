# Model loader tests: loading every model, corruption, handcrafted bad files,
# shape inference, load-time folding, and a cross-check against flatc.
check_LTLIBRARIES += tests/libmodel_test_support.la
tests_libmodel_test_support_la_SOURCES = \
	tests/model/flatbuffer_writer.c \
	tests/model/flatbuffer_writer.h \
	tests/model/test_support.c \
	tests/model/test_support.h \
	tests/model/tflite_builder.c \
	tests/model/tflite_builder.h \
	tests/support/json.c \
	tests/support/json.h
tests_libmodel_test_support_la_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_libmodel_test_support_la_CFLAGS = $(TEST_C_FLAGS)

MODEL_TEST_LINK = tests/libmodel_test_support.la libtflaccel_core.la $(CHECK_LIBS)
MODEL_TESTS = \
	tests/model/test_model_load \
	tests/model/test_model_corrupt \
	tests/model/test_model_shapes \
	tests/model/test_model_fold \
	tests/model/test_inspect \
	tests/model/test_flatc_crosscheck
check_PROGRAMS += $(MODEL_TESTS)
TESTS += $(MODEL_TESTS)

tests_model_test_model_load_SOURCES = tests/model/test_model_load.c
tests_model_test_model_load_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_model_test_model_load_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_model_load_LDADD = $(MODEL_TEST_LINK)

tests_model_test_model_corrupt_SOURCES = tests/model/test_model_corrupt.c
tests_model_test_model_corrupt_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_model_test_model_corrupt_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_model_corrupt_LDADD = $(MODEL_TEST_LINK)

tests_model_test_model_shapes_SOURCES = tests/model/test_model_shapes.c
tests_model_test_model_shapes_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_model_test_model_shapes_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_model_shapes_LDADD = $(MODEL_TEST_LINK)

tests_model_test_model_fold_SOURCES = tests/model/test_model_fold.c
tests_model_test_model_fold_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_model_test_model_fold_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_model_fold_LDADD = $(MODEL_TEST_LINK)

# The inspect command runs in-process (tools/tflaccel/cmd_inspect.c uses
# only the public API).
INSPECT_TEST_SOURCES = \
	tests/model/inspect_runner.c \
	tests/model/inspect_runner.h

tests_model_test_inspect_SOURCES = tests/model/test_inspect.c $(INSPECT_TEST_SOURCES)
tests_model_test_inspect_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_model_test_inspect_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_inspect_LDADD = tools/libtflaccel_cli.la $(MODEL_TEST_LINK)

tests_model_test_flatc_crosscheck_SOURCES = tests/model/test_flatc_crosscheck.c $(INSPECT_TEST_SOURCES)
tests_model_test_flatc_crosscheck_CPPFLAGS = $(TEST_CPP_FLAGS) -DTFLACCEL_FLATC='"$(FLATC)"'
tests_model_test_flatc_crosscheck_CFLAGS = $(TEST_C_FLAGS)
tests_model_test_flatc_crosscheck_LDADD = tools/libtflaccel_cli.la $(MODEL_TEST_LINK)

# The small MediaPipe models the tests use when ../shared/models is absent.
EXTRA_DIST += \
	tests/data/NOTICE \
	tests/data/expected.json \
	tests/data/face_detection_short_range.tflite \
	tests/data/hand_recrop.tflite \
	tests/data/selfie_segmentation.tflite \
	tests/data/ref/face_detection_short_range/input_0.bin \
	tests/data/ref/face_detection_short_range/manifest.json \
	tests/data/ref/face_detection_short_range/output_0.bin \
	tests/data/ref/face_detection_short_range/output_1.bin \
	tests/data/ref/hand_recrop/input_0.bin \
	tests/data/ref/hand_recrop/manifest.json \
	tests/data/ref/hand_recrop/output_0.bin \
	tests/data/ref/selfie_segmentation/input_0.bin \
	tests/data/ref/selfie_segmentation/manifest.json \
	tests/data/ref/selfie_segmentation/output_0.bin

# libFuzzer target for the loader (not part of make check):
#   make fuzz [FUZZ_MINUTES=N | FUZZ_SECONDS=N]     (fuzz-loader: the same)
# Builds tests/fuzz/fuzz_model_loader with clang's fuzzer, ASan and UBSan
# from the loader's sources, and fuzzes a temporary copy of the real models
# (../shared/models when present, else tests/data) as its seed corpus.
# Without clang it says so and does nothing (exit 0).
FUZZ_MINUTES = 2
FUZZ_SECONDS = `expr $(FUZZ_MINUTES) \* 60`
FUZZ_CC = clang
FUZZ_CFLAGS = -std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_LOADER_FILES = \
	tests/fuzz/fuzz_model_loader.c \
	core/tflite/builtin_options.c \
	core/tflite/densify.c \
	core/tflite/flatbuffer.c \
	core/tflite/quantization_check.c \
	core/tflite/reader.c \
	core/tflite/stored_model.c \
	core/graph/folding.c \
	core/graph/graph_validation.c \
	core/graph/memory_limits.c \
	core/graph/model.c \
	core/graph/model_api.c \
	core/graph/prepared_graph.c \
	core/graph/shape_inference.c \
	core/facts/axis.c \
	core/facts/buffer_type.c \
	core/facts/conv_geometry.c \
	core/facts/dtype.c \
	core/facts/flexbuffer.c \
	core/facts/half.c \
	core/facts/op_names.c \
	core/facts/posenet_decoder.c \
	core/memory/allocation_pool.c \
	core/memory/arena_planner.c \
	core/runtime/library_info.c \
	core/status/status.c \
	core/util/env.c \
	core/util/regular_file.c
EXTRA_DIST += tests/fuzz/fuzz_model_loader.c

tests/fuzz/fuzz_model_loader: $(FUZZ_LOADER_FILES:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(top_builddir) -I$(top_srcdir) -I$(top_srcdir)/include \
		$(FUZZ_LOADER_FILES:%=$(srcdir)/%) -lm -o $@

fuzz fuzz-loader:
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	  echo "fuzz: $(FUZZ_CC) not found (Debian: clang, libclang-rt-14-dev); not fuzzing"; exit 0; fi; \
	$(MAKE) $(AM_MAKEFLAGS) tests/fuzz/fuzz_model_loader || exit 1; \
	models='$(abs_top_srcdir)/../shared/models'; \
	test -d "$$models" || models='$(abs_top_srcdir)/tests/data'; \
	corpus=`mktemp -d`; \
	cp "$$models"/*.tflite "$$corpus"/; \
	echo "fuzzing the loader for $(FUZZ_SECONDS) s, corpus copied from $$models to $$corpus"; \
	tests/fuzz/fuzz_model_loader -max_total_time=$(FUZZ_SECONDS) \
		-rss_limit_mb=3072 -max_len=8388608 -timeout=30 -print_final_stats=1 \
		-artifact_prefix=tests/fuzz/ "$$corpus" >tests/fuzz/fuzz.log 2>&1; \
	status=$$?; grep -v '^#[0-9]' tests/fuzz/fuzz.log | tail -n 40; \
	rm -rf "$$corpus"; exit $$status

CLEANFILES += tests/fuzz/fuzz_model_loader tests/fuzz/fuzz.log
.PHONY: fuzz fuzz-loader
