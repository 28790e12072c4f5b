/* Growing arrays, for the GPU layer and the GPU plugins: one way to make
 * room, through the host's allocator. */
#ifndef TFLACCEL_GPU_COMMON_GPU_ARRAY_H
#define TFLACCEL_GPU_COMMON_GPU_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/accelerator.h"

/* Makes *items, an array of *capacity elements of element_size bytes, hold
 * at least need: its capacity doubles (from 64) until it does, the old
 * elements are copied and the new ones zeroed. Returns 0 when out of
 * memory (and then leaves *items and *capacity as they were). */
int gpu_array_reserve(const tflaccel_host_services *host, void **items, uint32_t *capacity,
                      uint32_t need, size_t element_size, size_t alignment);

#endif
