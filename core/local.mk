# libtflaccel: the core runtime (model loading, registry, partitioning,
# execution). It never includes a GPU API header.
lib_LTLIBRARIES += libtflaccel.la

libtflaccel_la_SOURCES = \
	core/status/status.c \
	core/util/dtype.c \
	core/model/op_names.c \
	core/memory/arena_planner.c \
	core/memory/arena_planner.h

libtflaccel_la_CPPFLAGS = $(AM_CPPFLAGS) $(PATH_DEFINES)
libtflaccel_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS) $(PTHREAD_CFLAGS) -fvisibility=hidden
libtflaccel_la_LIBADD = $(INIH_LIBS) $(PTHREAD_LIBS)
# Only the public API (tflaccel_*) is exported.
libtflaccel_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^tflaccel_'

include $(srcdir)/core/model/local.mk
