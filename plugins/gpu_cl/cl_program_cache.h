/* gpu_cl's built programs kept on disk (gpu_common/gpu_disk_cache): the
 * device's program binary (CL_PROGRAM_BINARIES), keyed by a SHA-256 of the
 * platform, device and driver, the build options and the embedded sources.
 * The driver only ever sees a binary the cache verified (gpu_disk_cache.h).
 * A binary the driver refuses only means building from source as usual
 * (and writing it again). Off when the host gives no cache_dir. */
#ifndef TFLACCEL_GPU_CL_CL_PROGRAM_CACHE_H
#define TFLACCEL_GPU_CL_CL_PROGRAM_CACHE_H

#include <stdint.h>

#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_common/gpu_disk_cache.h"
#include "tflaccel/accelerator.h"

/* The key of the program built from sources with options on the device. */
void cl_program_cache_key(const cl_device_context *context, const char *options,
                          const char *const *sources, uint32_t count, gpu_disk_cache_key *key);

/* The program cached under key, built for the device, or NULL. */
cl_program cl_program_cache_load(const tflaccel_host_services *host,
                                 const cl_device_context *context, const char *options,
                                 const gpu_disk_cache_key *key);

/* Stores a built program's binary under key. */
void cl_program_cache_store(const tflaccel_host_services *host, const gpu_disk_cache_key *key,
                            cl_program program);

#endif
