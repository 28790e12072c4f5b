/* Cache files, opened and written defensively (cache_file.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cache/cache_entry.h"
#include "core/cache/cache_file.h"

int cache_file_open(const char *directory, const char *name, int *fd, uint64_t *size) {
  *fd = -1;
  *size = 0;
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
    return ENAMETOOLONG;
  int opened = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (opened < 0) return errno == ELOOP ? EINVAL : errno;
  struct stat info;
  if (fstat(opened, &info) != 0) {
    int error = errno;
    close(opened);
    return error;
  }
  if (!S_ISREG(info.st_mode)) {
    close(opened);
    return EINVAL;
  }
  *fd = opened;
  *size = (uint64_t)info.st_size;
  return 0;
}

int cache_file_read_all(int fd, void *bytes, size_t size) {
  unsigned char *at = bytes;
  while (size > 0) {
    ssize_t got = read(fd, at, size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno;
    if (got == 0) return EIO;
    at += got;
    size -= (size_t)got;
  }
  return 0;
}

void cache_file_touch(int fd) {
  /* Best effort: a read-only cache only loses its LRU order. */
  (void)futimens(fd, NULL);
}

static int write_all(int fd, const void *bytes, size_t size) {
  const unsigned char *at = bytes;
  while (size > 0) {
    ssize_t put = write(fd, at, size);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return errno;
    at += put;
    size -= (size_t)put;
  }
  return 0;
}

int cache_file_write(const char *directory, const char *name, const void *head, size_t head_size,
                     const void *body, size_t body_size) {
  char temporary[4096], path[4096];
  if (snprintf(temporary, sizeof temporary, "%s/%sXXXXXX", directory,
               CACHE_ENTRY_TEMPORARY_PREFIX) >= (int)sizeof temporary ||
      snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
    return ENAMETOOLONG;
  /* mkstemp: O_CREAT | O_EXCL, mode 0600, an unpredictable name. */
  int fd = mkstemp(temporary);
  if (fd < 0) return errno;
  int error = fchmod(fd, S_IRUSR | S_IWUSR) != 0 ? errno : 0;
  if (error == 0) error = write_all(fd, head, head_size);
  if (error == 0) error = write_all(fd, body, body_size);
  if (close(fd) != 0 && error == 0) error = errno;
  /* rename replaces the directory entry itself: a symlink or FIFO planted
   * under the name is replaced, never written through. */
  if (error == 0 && rename(temporary, path) != 0) error = errno;
  if (error != 0) unlink(temporary);
  return error;
}
