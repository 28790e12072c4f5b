/* cpu_xnnpack thread pools: one pthreadpool per thread count a compiled
 * model asked for, shared by that device's executables (the core never runs
 * two calls on one device at once, so sharing is safe). */
#include "config.h"

#include "plugins/cpu_xnnpack/xnn_device.h"

tflaccel_status xnnp_device_pool(xnnp_device *device, int32_t thread_count,
                                 pthreadpool_t *pool) {
  const tflaccel_host_services *host = device->host;
  *pool = NULL;
  if (device->thread_override > 0) thread_count = device->thread_override;
  /* One thread: XNNPACK runs on the caller, with no pool to wake. */
  if (thread_count <= 1) return NULL;
  for (uint32_t i = 0; i < device->pool_count; i++)
    if (device->pools[i].thread_count == thread_count) {
      *pool = device->pools[i].pool;
      return NULL;
    }
  if (device->pool_count == XNNP_MAX_POOLS)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "cpu_xnnpack: more than %d different thread counts on one device",
                             XNNP_MAX_POOLS);
  pthreadpool_t created = pthreadpool_create((size_t)thread_count);
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "cpu_xnnpack: cannot create a pool of %d threads", thread_count);
  device->pools[device->pool_count].thread_count = thread_count;
  device->pools[device->pool_count].pool = created;
  device->pool_count++;
  *pool = created;
  return NULL;
}

void xnnp_device_pools_destroy(xnnp_device *device) {
  for (uint32_t i = 0; i < device->pool_count; i++) pthreadpool_destroy(device->pools[i].pool);
  device->pool_count = 0;
}
