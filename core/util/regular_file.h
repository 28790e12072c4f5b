/* Opening the files tflaccel reads (models, configs, input tensors) only
 * when they are regular files: a FIFO would block open() and read() forever,
 * a directory or a device is never what the user meant. */
#ifndef TFLACCEL_CORE_UTIL_REGULAR_FILE_H
#define TFLACCEL_CORE_UTIL_REGULAR_FILE_H

#include <stdint.h>

#include "tflaccel/status.h"

/* Opens path read-only (close-on-exec). Fails with one line naming the path
 * and `what` ("model", "config file", ...) when it cannot be opened or is
 * not a regular file (then saying what it is). On success *fd is open and
 * *size is the file's size. Opening never waits for a FIFO's writer. */
tflaccel_status regular_file_open(const char *path, const char *what, int *fd, uint64_t *size);

#endif
