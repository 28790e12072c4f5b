#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/regular_file.h"
#include "tflaccel/tflaccel.h"

static const char *file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "of another kind";
}

tflaccel_status regular_file_open(const char *path, const char *what, int *fd_out,
                                  uint64_t *size) {
  *fd_out = -1;
  *size = 0;
  char text[128];
  /* O_NONBLOCK: open() of a FIFO would otherwise wait for a writer; it
   * changes nothing for regular files. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int error = errno;
    return tflaccel_status_make(error == ENOENT ? TFLACCEL_NOT_FOUND : TFLACCEL_IO_ERROR,
                                "%s: cannot open the %s: %s", path, what,
                                strerror_r(error, text, sizeof text));
  }
  struct stat info;
  if (fstat(fd, &info) != 0) {
    int error = errno;
    close(fd);
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "%s: cannot stat the %s: %s", path, what,
                                strerror_r(error, text, sizeof text));
  }
  if (!S_ISREG(info.st_mode)) {
    close(fd);
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: the %s is %s, not a regular file",
                                path, what, file_kind(info.st_mode));
  }
  /* Reads then block normally (a regular file never returns EAGAIN). */
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  *fd_out = fd;
  *size = (uint64_t)info.st_size;
  return NULL;
}
