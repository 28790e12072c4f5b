# libtflaccel: the core runtime (model loading, registry, partitioning,
# execution). It never includes a GPU API header.
# Everything is built into a convenience library first, so that tests can
# reach internal functions; libtflaccel.so exports only tflaccel_*.
noinst_LTLIBRARIES += libtflaccel_core.la
lib_LTLIBRARIES += libtflaccel.la

libtflaccel_core_la_SOURCES = \
	core/config/config.c \
	core/config/config.h \
	core/registry/registry.c \
	core/registry/registry.h \
	core/registry/selection.c \
	core/registry/selection.h \
	core/partition/partitioner.c \
	core/partition/partitioner.h \
	core/runtime/compiled_model.c \
	core/runtime/compiled_model.h \
	core/runtime/environment.c \
	core/runtime/tensor_buffer.c \
	core/runtime/tensor_buffer.h \
	core/runtime/environment.h \
	core/util/env.c \
	core/util/env.h \
	core/util/regular_file.c \
	core/util/regular_file.h \
	core/log/log.c \
	core/log/log.h \
	core/registry/abi_layout.c \
	core/registry/host_services.c \
	core/registry/host_services.h \
	core/status/status.c \
	core/util/dtype.c \
	core/model/op_names.c \
	core/memory/arena_planner.c \
	core/memory/arena_planner.h

libtflaccel_core_la_CPPFLAGS = $(AM_CPPFLAGS) $(PATH_DEFINES)
libtflaccel_core_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS) $(PTHREAD_CFLAGS)
libtflaccel_core_la_LIBADD = $(INIH_LIBS) $(PTHREAD_LIBS)

libtflaccel_la_SOURCES =
libtflaccel_la_LIBADD = libtflaccel_core.la
# Only the public API (tflaccel_*) is exported.
libtflaccel_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^tflaccel_'

include $(srcdir)/core/model/local.mk
