# The .tflite reader, graph IR and load-time folding.
libtflaccel_core_la_SOURCES += \
	core/model/allocation_pool.c \
	core/model/allocation_pool.h \
	core/model/builtin_options.c \
	core/model/builtin_options.h \
	core/model/densify.c \
	core/model/densify.h \
	core/model/flatbuffer.c \
	core/model/flatbuffer.h \
	core/model/folding.c \
	core/model/folding.h \
	core/model/graph_validation.c \
	core/model/graph_validation.h \
	core/model/model.c \
	core/model/model.h \
	core/model/model_api.c \
	core/model/model_internal.h \
	core/model/prepared_graph.c \
	core/model/prepared_graph.h \
	core/model/quantization_check.c \
	core/model/quantization_check.h \
	core/model/memory_limits.c \
	core/model/memory_limits.h \
	core/model/shape_inference.c \
	core/model/shape_inference.h \
	core/model/tflite_reader.c \
	core/model/tflite_reader.h \
	core/model/tflite_schema.h
