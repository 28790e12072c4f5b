# libtflaccel_cache: the compiled-model cache's files (entry format, safe
# reads and atomic writes, the directory's privacy, size bound, listing).
# Its own convenience library, like the facts library, because the GPU
# plugins (which write entries) and the CLI (`tflaccel cache`) link it
# without linking the core. Uses the facts library (SHA-256), which each of
# them links already (so it is not added here twice).
noinst_LTLIBRARIES += core/cache/libtflaccel_cache.la
core_cache_libtflaccel_cache_la_SOURCES = \
	core/cache/cache_directory.c \
	core/cache/cache_directory.h \
	core/cache/cache_entry.c \
	core/cache/cache_entry.h \
	core/cache/cache_file.c \
	core/cache/cache_file.h
core_cache_libtflaccel_cache_la_CFLAGS = $(AM_CFLAGS)

