/* The check every GPU plugin makes before the host copies into or out of
 * one of its buffers. */
#ifndef TFLACCEL_GPU_COMMON_GPU_BUFFER_RANGE_H
#define TFLACCEL_GPU_COMMON_GPU_BUFFER_RANGE_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* TFLACCEL_INVALID_ARGUMENT, naming the plugin and what was copied ("write",
 * "read"), when size bytes at offset do not lie inside buffer_size bytes
 * (overflow-safe); else NULL. */
tflaccel_status gpu_check_buffer_range(const tflaccel_host_services *host, const char *plugin,
                                       uint64_t buffer_size, uint64_t offset, uint64_t size,
                                       const char *what);

#endif
