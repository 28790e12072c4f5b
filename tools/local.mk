# The tflaccel command-line tool. It uses only the public API.
bin_PROGRAMS += tflaccel
tflaccel_SOURCES = \
	tools/tflaccel/main.c \
	tools/tflaccel/commands.h \
	tools/tflaccel/json_writer.c \
	tools/tflaccel/json_writer.h \
	tools/tflaccel/cmd_plugins.c
tflaccel_LDADD = libtflaccel.la
