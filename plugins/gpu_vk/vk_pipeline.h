/* Compute pipelines of the GLSL kernels (vk_shaders.h): one descriptor set
 * layout and pipeline layout for every kernel (binding 0 the parameters,
 * 1..7 the tensors; a 4-byte push constant, the dispatch's parameter
 * offset), shader modules made on first use, and one pipeline per kernel,
 * variant and work-group size (specialization constants 0..2), kept for
 * the device's life, built through a partition's pipeline cache kept in
 * the compiled-model cache. */
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
  uint32_t post_list; /* specialization constant 3 (gpu_post_list) */
  VkPipeline pipeline;
  uint32_t partition; /* the serial of the partition whose cache last saw it */
} vk_pipeline_entry;

/* The compiled-model cache's entry of the partition being compiled
 * (vk_pipeline_partition_begin .. _end): a pipeline cache of its own,
 * made from the entry's data, that every pipeline the partition uses goes
 * through, so that its data is that partition's whole. */
typedef struct vk_pipeline_partition {
  int32_t active, loaded;
  uint32_t serial; /* numbers the partitions (never 0) */
  uint32_t built;  /* pipelines created through its cache */
  size_t loaded_size; /* bytes of data the entry gave it */
  VkPipelineCache cache;
  gpu_disk_cache disk;
  gpu_disk_cache_key key;
} vk_pipeline_partition;

typedef struct vk_pipeline_set {
  const tflaccel_host_services *host;
  const vk_device_context *context;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkShaderModule modules[GPU_KERNEL_EXTENDED_COUNT][VK_SHADER_VARIANT_COUNT];
  vk_pipeline_entry *entries; /* host->alloc'ed */
  uint32_t count, capacity;
  /* The driver's pipeline cache for pipelines made outside a partition's
   * (in memory only). */
  VkPipelineCache cache;
  /* SHA-256 of the device, its driver and pipeline cache UUID and the
   * embedded SPIR-V: the driver's part of every entry's key. */
  gpu_disk_cache_key driver;
  vk_pipeline_partition partition;
} vk_pipeline_set;

/* Creates the layouts; checks that the embedded modules are the
 * catalogue's (names in its order). */
tflaccel_status vk_pipeline_set_init(const tflaccel_host_services *host,
                                     const vk_device_context *context, vk_pipeline_set *set);
void vk_pipeline_set_release(vk_pipeline_set *set);

/* A partition's entry (gpu_common/gpu_partition_cache.h): builder gets the
 * driver's part of the key; the pipelines made until _end go through a
 * pipeline cache made from the verified entry (vkCreatePipelineCache sees
 * nothing else). */
void vk_pipeline_partition_begin(vk_pipeline_set *set, gpu_disk_cache_key_builder *builder,
                                 const tflaccel_compile_options *options);
/* Writes the partition's pipeline cache data when the entry was missing or
 * pipelines were built, and compiled is 1; then forgets it. */
void vk_pipeline_partition_end(vk_pipeline_set *set, int32_t compiled);

/* The pipeline of kernel in variant for a work group of local[3] items,
 * built for the dispatch's post-op list (gpu_post_list; 0: none known). */
tflaccel_status vk_pipeline_get(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                const uint32_t local[3], uint32_t post_list, VkPipeline *pipeline);

#endif
