# The tflaccel command-line tool. It uses only the public API. Its commands
# live in a convenience library so that tests can run them in-process.
noinst_LTLIBRARIES += tools/libtflaccel_cli.la
bin_PROGRAMS += tflaccel
tflaccel_SOURCES = tools/tflaccel/main.c
tflaccel_LDADD = tools/libtflaccel_cli.la libtflaccel.la

# core/util/regular_file.c: the one rule for which files are read, shared
# with the core (it uses only the public status API).
tools_libtflaccel_cli_la_SOURCES = \
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
	tools/tflaccel/half.c \
	tools/tflaccel/half.h \
	tools/tflaccel/input_generator.c \
	tools/tflaccel/input_generator.h \
	tools/tflaccel/cmd_bench.c \
	tools/tflaccel/cmd_diff.c \
	tools/tflaccel/stats.c \
	tools/tflaccel/stats.h \
	tools/tflaccel/bench_buffers.c \
	tools/tflaccel/bench_buffers.h \
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
	tools/tflaccel/bench_tensor_values.h
tools_libtflaccel_cli_la_LIBADD = -lm
