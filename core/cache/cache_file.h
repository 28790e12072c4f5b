/* Opening, reading and writing cache files without trusting what is in
 * the directory: only regular files are read (a symlink is not followed, a
 * FIFO or device never blocks the process: O_NOFOLLOW | O_NONBLOCK, then
 * fstat), and a file is written under a fresh name (mkstemp: O_EXCL, 0600,
 * in the cache directory itself) and renamed into place, so that a reader
 * in another process sees the old entry or the whole new one, never half of
 * one, and no planted symlink is written through. Errors come back as an
 * errno value (0: done); nothing here logs. */
#ifndef TFLACCEL_CORE_CACHE_CACHE_FILE_H
#define TFLACCEL_CORE_CACHE_CACHE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Opens directory/name for reading when it is a regular file: *fd and its
 * *size. ENOENT when absent, EINVAL when it is something else (symlink,
 * FIFO, device, directory). */
int cache_file_open(const char *directory, const char *name, int *fd, uint64_t *size);

/* Reads exactly size bytes from fd; EIO when the file ended early. */
int cache_file_read_all(int fd, void *bytes, size_t size);

/* Marks the open file as just used (its modification time: the cache's
 * least-recently-used order). */
void cache_file_touch(int fd);

/* Writes head then body to directory/name atomically (see above). */
int cache_file_write(const char *directory, const char *name, const void *head, size_t head_size,
                     const void *body, size_t body_size);

#endif
