/* The checks every GPU plugin makes on an external memory fd an
 * application hands to buffer_wrap (TFLACCEL_BUFFER_OPAQUE_FD): an open
 * file descriptor, an allocation size that holds offset + size. The
 * drivers take ownership of the fd they import, so the plugin imports a
 * dup() and the application keeps its own. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EXTERNAL_FD_H
#define TFLACCEL_GPU_COMMON_GPU_EXTERNAL_FD_H

#include "tflaccel/accelerator.h"

/* TFLACCEL_INVALID_ARGUMENT naming plugin and the fault when native's
 * handle is not an open fd, its memory (the allocation's byte size) is 0
 * or does not hold offset + size (overflow-safe); else NULL with *fd set. */
tflaccel_status gpu_external_fd_check(const tflaccel_host_services *host, const char *plugin,
                                      const tflaccel_native_buffer *native, int *fd);

/* A close-on-exec duplicate of fd for a driver to own, or an error. */
tflaccel_status gpu_external_fd_dup(const tflaccel_host_services *host, const char *plugin, int fd,
                                    int *copy);

#endif
