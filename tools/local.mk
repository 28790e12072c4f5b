# The tflaccel command-line tool. It uses only the public API.
bin_PROGRAMS += tflaccel
tflaccel_SOURCES = \
	tools/tflaccel/main.c \
	tools/tflaccel/commands.h \
	tools/tflaccel/json_writer.c \
	tools/tflaccel/json_writer.h \
	tools/tflaccel/cli_options.c \
	tools/tflaccel/cli_options.h \
	tools/tflaccel/cmd_inspect.c \
	tools/tflaccel/cmd_plugins.c \
	tools/tflaccel/cmd_run.c \
	tools/tflaccel/half.c \
	tools/tflaccel/half.h \
	tools/tflaccel/input_generator.c \
	tools/tflaccel/input_generator.h
tflaccel_LDADD = libtflaccel.la
