# libtflaccel: the core runtime (model loading, registry, partitioning,
# execution). It never includes a GPU API header.
# Everything is built into a convenience library first, so that tests can
# reach internal functions; libtflaccel.so exports only tflaccel_*.
noinst_LTLIBRARIES += libtflaccel_core.la
lib_LTLIBRARIES += libtflaccel.la

libtflaccel_core_la_SOURCES = \
	core/config/ini_config.c \
	core/config/ini_config.h \
	core/config/plugin_dropins.c \
	core/config/plugin_dropins.h \
	core/registry/registry.c \
	core/registry/registry.h \
	core/registry/selection.c \
	core/registry/auto_selection.c \
	core/registry/auto_selection.h \
	core/registry/selection.h \
	core/partition/partitioner.c \
	core/partition/partitioner.h \
	core/runtime/compiled_model.c \
	core/runtime/compiled_model.h \
	core/runtime/environment.c \
	core/runtime/cache_location.c \
	core/runtime/cache_location.h \
	core/runtime/run_profile.c \
	core/runtime/run_profile.h \
	core/runtime/graph_info.c \
	core/runtime/tensor_buffer.c \
	core/runtime/tensor_event.c \
	core/runtime/device_event.c \
	core/runtime/device_event.h \
	core/runtime/native_event.c \
	core/runtime/tensor_event.h \
	core/runtime/device_io.c \
	core/runtime/async_run.c \
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
	core/runtime/library_info.c \
	core/memory/allocation_pool.c \
	core/memory/allocation_pool.h \
	core/memory/arena_planner.c \
	core/memory/arena_planner.h

libtflaccel_core_la_CPPFLAGS = $(AM_CPPFLAGS) $(PATH_DEFINES)
libtflaccel_core_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS) $(PTHREAD_CFLAGS)
libtflaccel_core_la_LIBADD = core/facts/libtflaccel_facts.la core/cache/libtflaccel_cache.la $(INIH_LIBS) $(PTHREAD_LIBS)

libtflaccel_la_SOURCES =
libtflaccel_la_LIBADD = libtflaccel_core.la
# Only the public API (tflaccel_*) is exported.
libtflaccel_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^tflaccel_'

include $(srcdir)/core/facts/local.mk
include $(srcdir)/core/cache/local.mk
include $(srcdir)/core/tflite/local.mk
include $(srcdir)/core/graph/local.mk
