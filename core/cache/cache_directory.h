/* The compiled-model cache's directory as a whole: made private, checked
 * private, listed, bounded (least recently used entries go first) and
 * cleared. Only entries (cache_entry.h names) and stale temporary files are
 * ever removed; nothing else in the directory is touched. */
#ifndef TFLACCEL_CORE_CACHE_CACHE_DIRECTORY_H
#define TFLACCEL_CORE_CACHE_CACHE_DIRECTORY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/cache/cache_entry.h"

/* Makes path, mode 0700, when it is missing. with_parents 1: its missing
 * parents too (0700 each), as XDG asks for the default location; 0: only
 * its last component, so that a mistyped configured directory is never
 * grown into a tree (ENOENT when its parent is missing). 0 or errno. */
int cache_directory_make(const char *path, int with_parents);

/* NULL when path is a directory owned by this user that no one else may
 * write (or list: group and others have no access), else why not (a
 * phrase). */
const char *cache_directory_check_private(const char *path, char *why, size_t why_size);

typedef struct cache_directory_entry {
  char name[CACHE_ENTRY_NAME_SIZE];
  char owner[32];
  char label[CACHE_ENTRY_LABEL_SIZE]; /* from its header; "" when unreadable */
  char model[CACHE_ENTRY_MODEL_SIZE]; /* from its header: token prefix and file name */
  const char *problem; /* NULL, or why the header is not usable */
  uint64_t size;
  time_t last_use; /* modification time: written or last read */
} cache_directory_entry;

/* The entries of path, oldest use first (malloc'ed; the caller frees
 * *entries). 0 or errno. */
int cache_directory_list(const char *path, cache_directory_entry **entries, uint32_t *count);

/* Removes least-recently-used entries until the rest fit in max_bytes, and
 * temporary files older than an hour (a writer that died). *removed and
 * *kept_bytes tell what it did. 0 or errno. */
int cache_directory_evict(const char *path, uint64_t max_bytes, uint32_t *removed,
                          uint64_t *kept_bytes);

/* Removes every entry and temporary file; *removed counts them. */
int cache_directory_clear(const char *path, uint32_t *removed);

#endif
