/* The host copy range check (gpu_buffer_range.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_buffer_range.h"

tflaccel_status gpu_check_buffer_range(const tflaccel_host_services *host, const char *plugin,
                                       uint64_t buffer_size, uint64_t offset, uint64_t size,
                                       const char *what) {
  if (offset <= buffer_size && size <= buffer_size - offset) return NULL;
  return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                           "%s buffer %s of %llu bytes at offset %llu is outside the %llu-byte "
                           "buffer",
                           plugin, what, (unsigned long long)size, (unsigned long long)offset,
                           (unsigned long long)buffer_size);
}
