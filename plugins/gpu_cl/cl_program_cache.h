/* gpu_cl's entries in the compiled-model cache (gpu_common/
 * gpu_partition_cache.h): a partition's entry holds the device's binary
 * (CL_PROGRAM_BINARIES) of the program its kernels come from; its key adds
 * to the partition's the platform, device and driver, the build options
 * and the embedded sources. The driver only ever sees a binary the cache
 * verified (gpu_disk_cache.h); a binary it refuses only means building
 * from source as usual (and writing the entry again). */
#ifndef TFLACCEL_GPU_CL_CL_PROGRAM_CACHE_H
#define TFLACCEL_GPU_CL_CL_PROGRAM_CACHE_H

#include <stdint.h>

#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_common/gpu_disk_cache.h"
#include "tflaccel/accelerator.h"

/* Adds the device, its driver, the build options and the sources to a
 * key. */
void cl_program_cache_add_device(const cl_device_context *context, const char *options,
                                 const char *const *sources, uint32_t count,
                                 gpu_disk_cache_key_builder *builder);

/* The program cached under key, built for the device, or NULL. */
cl_program cl_program_cache_load(const gpu_disk_cache *disk, const cl_device_context *context,
                                 const char *options, const gpu_disk_cache_key *key);

/* Stores a built program's binary under key. */
void cl_program_cache_store(const gpu_disk_cache *disk, const gpu_disk_cache_key *key,
                            cl_program program);

#endif
