# libtflaccel_facts: facts about TFLite and IEEE numbers that have one right
# answer (op and dtype names and sizes, half <-> float, conv/pool window
# geometry, axis ranges), written once and shared by the core, the plugins
# and the CLI. It is its own convenience library, not part of
# libtflaccel_core, because plugins must link it without linking the core:
# it depends on nothing but libc and include/tflaccel/ headers (no core
# status objects: bad arguments get a documented return, such as -1). One
# file per idea, one header per file. "facts" rather than "util": nothing
# here has state, allocates or fails in any way but the documented one.
noinst_LTLIBRARIES += core/facts/libtflaccel_facts.la
core_facts_libtflaccel_facts_la_SOURCES = \
	core/facts/axis.c \
	core/facts/axis.h \
	core/facts/buffer_type.c \
	core/facts/buffer_type.h \
	core/facts/conv_geometry.c \
	core/facts/conv_geometry.h \
	core/facts/dtype.c \
	core/facts/dtype.h \
	core/facts/flexbuffer.c \
	core/facts/flexbuffer.h \
	core/facts/half.c \
	core/facts/half.h \
	core/facts/landmarks_to_transform_matrix.c \
	core/facts/landmarks_to_transform_matrix.h \
	core/facts/op_names.c \
	core/facts/op_names.h \
	core/facts/posenet_decoder.c \
	core/facts/posenet_decoder.h \
	core/facts/sha256.c \
	core/facts/sha256.h
# SHA-256 is nettle's (sha256.h says why).
core_facts_libtflaccel_facts_la_LIBADD = $(NETTLE_LIBS)
