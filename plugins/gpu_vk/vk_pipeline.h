/* Compute pipelines of the GLSL kernels (vk_shaders.h): one descriptor set
 * layout and pipeline layout for every kernel (binding 0 the parameters,
 * 1..7 the tensors; a 4-byte push constant, the dispatch's parameter
 * offset), shader modules made on first use, and one pipeline per kernel,
 * variant and work-group size (specialization constants 0..2), kept for
 * the device's life, built through a pipeline cache kept on disk. */
#ifndef TFLACCEL_GPU_VK_VK_PIPELINE_H
#define TFLACCEL_GPU_VK_VK_PIPELINE_H

#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_vk/vk_context.h"
#include "plugins/gpu_vk/vk_shaders.h"
#include "tflaccel/accelerator.h"

#define VK_PIPELINE_BINDINGS 8 /* parameters + GPU_MAX_ARGS tensors */

typedef struct vk_pipeline_entry {
  int32_t kernel, variant;
  uint32_t local[3];
  VkPipeline pipeline;
} vk_pipeline_entry;

typedef struct vk_pipeline_set {
  const tflaccel_host_services *host;
  const vk_device_context *context;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkShaderModule modules[GPU_KERNEL_EXTENDED_COUNT][VK_SHADER_VARIANT_COUNT];
  vk_pipeline_entry *entries; /* host->alloc'ed */
  uint32_t count, capacity;
  /* The driver's pipeline cache, loaded from the host's cache_dir (file
   * "gpu_vk-<key>.bin", the key a SHA-256 covering the device, driver and
   * these kernels; verified before vkCreatePipelineCache sees it) and written back when the set is released, if pipelines were
   * built: a second process builds from it in a fraction of the time. */
  VkPipelineCache cache;
  gpu_disk_cache disk;
  gpu_disk_cache_key disk_key;
  uint32_t built; /* pipelines created since the cache was loaded */
} vk_pipeline_set;

/* Creates the layouts; checks that the embedded modules are the
 * catalogue's (names in its order). */
tflaccel_status vk_pipeline_set_init(const tflaccel_host_services *host,
                                     const vk_device_context *context, vk_pipeline_set *set);
void vk_pipeline_set_release(vk_pipeline_set *set);

/* The pipeline of kernel in variant for a work group of local[3] items. */
tflaccel_status vk_pipeline_get(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                const uint32_t local[3], VkPipeline *pipeline);

#endif
