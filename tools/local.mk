# The tflaccel command-line tool. It uses only the public API (and the
# facts library, which is not the core). Its commands
# live in a convenience library so that tests can run them in-process.
noinst_LTLIBRARIES += tools/libtflaccel_cli.la
bin_PROGRAMS += tflaccel
tflaccel_SOURCES = tools/tflaccel/main.c
tflaccel_LDADD = tools/libtflaccel_cli.la libtflaccel.la

# core/util/regular_file.c: the one rule for which files are read, and
# core/tflite/flatbuffer.c: the one flatbuffer reader (for TFLite Metadata),
# shared with the core (they use only the public status API).
tools_libtflaccel_cli_la_SOURCES = \
	core/tflite/flatbuffer.c \
	core/tflite/flatbuffer.h \
	core/util/regular_file.c \
	core/util/regular_file.h \
	tools/tflaccel/commands.h \
	tools/tflaccel/json_writer.c \
	tools/tflaccel/json_writer.h \
	tools/tflaccel/cli_options.c \
	tools/tflaccel/cli_options.h \
	tools/tflaccel/cmd_inspect.c \
	tools/tflaccel/inspect_plan.c \
	tools/tflaccel/inspect_plan.h \
	tools/tflaccel/cmd_plugins.c \
	tools/tflaccel/cmd_run.c \
	tools/tflaccel/input_generator.c \
	tools/tflaccel/input_generator.h \
	tools/tflaccel/cmd_bench.c \
	tools/tflaccel/cmd_cache.c \
	tools/tflaccel/cmd_diff.c \
	tools/tflaccel/stats.c \
	tools/tflaccel/stats.h \
	tools/tflaccel/bench_buffers.c \
	tools/tflaccel/bench_buffers.h \
	tools/tflaccel/bench_device_io.c \
	tools/tflaccel/bench_device_io.h \
	tools/tflaccel/bench_clock.c \
	tools/tflaccel/bench_clock.h \
	tools/tflaccel/bench_flags.c \
	tools/tflaccel/bench_flags.h \
	tools/tflaccel/bench_memory.c \
	tools/tflaccel/bench_memory.h \
	tools/tflaccel/bench_placement.c \
	tools/tflaccel/bench_placement.h \
	tools/tflaccel/bench_random_inputs.c \
	tools/tflaccel/bench_random_inputs.h \
	tools/tflaccel/bench_tensor_values.c \
	tools/tflaccel/bench_tensor_values.h \
	tools/tflaccel/delegate_flag.c \
	tools/tflaccel/delegate_flag.h \
	tools/tflaccel/foreign_flags.c \
	tools/tflaccel/foreign_flags.h \
	tools/tflaccel/input_layers.c \
	tools/tflaccel/input_layers.h \
	tools/tflaccel/op_profile.c \
	tools/tflaccel/op_profile.h \
	tools/tflaccel/peak_memory_monitor.c \
	tools/tflaccel/peak_memory_monitor.h \
	tools/tflaccel/tensor_state.c \
	tools/tflaccel/tensor_state.h \
	tools/tflaccel/terminal_progress.c \
	tools/tflaccel/terminal_progress.h \
	tools/tflaccel/cmd_eval.c \
	tools/tflaccel/detection_ground_truth.c \
	tools/tflaccel/detection_ground_truth.h \
	tools/tflaccel/detection_metrics.c \
	tools/tflaccel/detection_metrics.h \
	tools/tflaccel/eval_common.c \
	tools/tflaccel/eval_common.h \
	tools/tflaccel/eval_detection.c \
	tools/tflaccel/eval_detection.h \
	tools/tflaccel/image_decode.c \
	tools/tflaccel/image_decode.h \
	tools/tflaccel/image_list.c \
	tools/tflaccel/image_list.h \
	tools/tflaccel/image_preprocess.c \
	tools/tflaccel/image_preprocess.h \
	tools/tflaccel/make_directory.c \
	tools/tflaccel/model_metadata.c \
	tools/tflaccel/model_metadata.h \
	tools/tflaccel/make_directory.h \
	tools/tflaccel/text_lines.c \
	tools/tflaccel/text_lines.h
tools_libtflaccel_cli_la_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS) $(PNG_CFLAGS) $(JPEG_CFLAGS)
# The facts library gives half <-> float; the rest goes through the public API.
tools_libtflaccel_cli_la_LIBADD = core/facts/libtflaccel_facts.la core/cache/libtflaccel_cache.la \
	-lm $(PTHREAD_LIBS) $(PNG_LIBS) $(JPEG_LIBS)
