/* External memory fds handed to buffer_wrap (gpu_external_fd.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>

#include "plugins/gpu_common/gpu_external_fd.h"

tflaccel_status gpu_external_fd_check(const tflaccel_host_services *host, const char *plugin,
                                      const tflaccel_native_buffer *native, int *fd) {
  *fd = -1;
  if (native->handle > (uint64_t)INT_MAX)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: %llu is not a file descriptor",
                             plugin, (unsigned long long)native->handle);
  int candidate = (int)native->handle;
  if (fcntl(candidate, F_GETFD) < 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "%s: fd %d is not an open file descriptor (%s)", plugin, candidate,
                             strerror(errno));
  if (native->memory == 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "%s: an opaque fd needs its allocation's byte size in memory (0 given)",
                             plugin);
  uint64_t end = native->offset + native->size;
  if (end < native->offset || end > native->memory)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "%s: offset %llu + size %llu lies beyond the fd's allocation of %llu "
                             "bytes",
                             plugin, (unsigned long long)native->offset,
                             (unsigned long long)native->size, (unsigned long long)native->memory);
  *fd = candidate;
  return NULL;
}

tflaccel_status gpu_external_fd_dup(const tflaccel_host_services *host, const char *plugin, int fd,
                                    int *copy) {
  *copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (*copy < 0)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: dup of fd %d failed (%s)", plugin, fd,
                             strerror(errno));
  return NULL;
}
