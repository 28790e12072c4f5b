/* The compiled-model cache's entry of one compiled partition: its key is
 * the model token, the partition (its op and tensor indices), the
 * precision and storage mode, what the device can do (the capabilities
 * the plugin's options decide), the plugin and its version, then the
 * backend's device and driver identity, which the backend adds
 * (gpu_backend_ops.cache_begin). The backend keeps in that one entry what
 * the partition's kernels need to skip compiling: gpu_cl the program
 * binary, gpu_gl the program binaries, gpu_vk the pipeline cache data.
 * No entry without a model token (the host's cache is off). */
#ifndef TFLACCEL_GPU_COMMON_GPU_PARTITION_CACHE_H
#define TFLACCEL_GPU_COMMON_GPU_PARTITION_CACHE_H

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_disk_cache.h"

/* 0 when the partition gets no entry (no token, no cache_dir); else 1
 * with builder holding every part of its key but the backend's. */
int gpu_partition_cache_key_begin(const gpu_backend *backend,
                                  const tflaccel_partition_desc *partition,
                                  const tflaccel_compile_options *options, int32_t storage,
                                  gpu_disk_cache_key_builder *builder);

#endif
