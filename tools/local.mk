# The tflaccel command-line tool. It uses only the public API (and the
# facts library, which is not the core). Its commands
# live in a convenience library so that tests can run them in-process.
noinst_LTLIBRARIES += tools/libtflaccel_cli.la
bin_PROGRAMS += tflaccel
tflaccel_SOURCES = tools/tflaccel/main.c
tflaccel_LDADD = tools/libtflaccel_cli.la libtflaccel.la

tools_libtflaccel_cli_la_SOURCES = \
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
# The facts library gives half <-> float; the rest goes through the public API.
tools_libtflaccel_cli_la_LIBADD = core/facts/libtflaccel_facts.la core/cache/libtflaccel_cache.la -lm
