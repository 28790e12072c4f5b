/* Growing arrays (gpu_array.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_array.h"

int gpu_array_reserve(const tflaccel_host_services *host, void **items, uint32_t *capacity,
                      uint32_t need, size_t element_size, size_t alignment) {
  if (need <= *capacity) return 1;
  uint64_t grown = *capacity ? *capacity * 2ull : 64;
  while (grown < need) grown *= 2;
  if (grown > UINT32_MAX || grown > SIZE_MAX / element_size) return 0;
  void *fresh = host->alloc(host->context, (size_t)grown * element_size, alignment);
  if (fresh == NULL) return 0;
  memset(fresh, 0, (size_t)grown * element_size);
  if (*items != NULL) {
    memcpy(fresh, *items, *capacity * element_size);
    host->free(host->context, *items);
  }
  *items = fresh;
  *capacity = (uint32_t)grown;
  return 1;
}
