# The .tflite file format: the bounds-checked flatbuffer reader, the schema's
# field slots, the table reader, operator options and sparse tensors, into
# the stored form of a model (stored_model.h). Knows nothing of core/graph.
libtflaccel_core_la_SOURCES += \
	core/tflite/builtin_options.c \
	core/tflite/builtin_options.h \
	core/tflite/densify.c \
	core/tflite/densify.h \
	core/tflite/flatbuffer.c \
	core/tflite/flatbuffer.h \
	core/tflite/quantization_check.c \
	core/tflite/quantization_check.h \
	core/tflite/reader.c \
	core/tflite/reader.h \
	core/tflite/schema.h \
	core/tflite/stored_model.c \
	core/tflite/stored_model.h
