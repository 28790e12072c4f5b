/* Layouts, shader modules and pipelines of the GLSL kernels (vk_pipeline.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_vk/vk_error.h"
#include "plugins/gpu_vk/vk_pipeline.h"

static const char *const variant_names[VK_SHADER_VARIANT_COUNT] = {
    [VK_SHADER_FP32] = "fp32",
    [VK_SHADER_HALF_16BIT] = "fp16 storage",
    [VK_SHADER_HALF_PACKED] = "packed fp16 storage",
    [VK_SHADER_HALF_MATH] = "fp16",
};

/* What decides the cached pipelines: the device and driver (Vulkan's own
 * header check covers them too) and the embedded SPIR-V of this build. */
static void driver_key(const vk_device_context *context, gpu_disk_cache_key *key) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(context->entry->physical, &properties);
  gpu_disk_cache_key_builder builder;
  gpu_disk_cache_key_begin(&builder, "gpu_vk pipeline cache");
  gpu_disk_cache_key_add(&builder, &properties.vendorID, sizeof properties.vendorID);
  gpu_disk_cache_key_add(&builder, &properties.deviceID, sizeof properties.deviceID);
  gpu_disk_cache_key_add(&builder, &properties.driverVersion, sizeof properties.driverVersion);
  gpu_disk_cache_key_add(&builder, properties.pipelineCacheUUID, VK_UUID_SIZE);
  gpu_disk_cache_key_add_string(&builder, properties.deviceName);
  for (unsigned k = 0; k < gpu_vk_spirv_count; ++k)
    for (int v = 0; v < VK_SHADER_VARIANT_COUNT; ++v)
      if (gpu_vk_spirv[k].variants[v].words != NULL)
        gpu_disk_cache_key_add(&builder, gpu_vk_spirv[k].variants[v].words,
                               gpu_vk_spirv[k].variants[v].size);
  gpu_disk_cache_key_end(&builder, key);
}

/* A pipeline cache with data (NULL: empty); the driver ignores data of
 * another device or version, and data it fails on are dropped. */
static VkResult create_cache(const vk_pipeline_set *set, const void *data, size_t size,
                             VkPipelineCache *cache) {
  VkPipelineCacheCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
      .initialDataSize = size,
      .pInitialData = data,
  };
  VkResult result = vkCreatePipelineCache(set->context->device, &info, NULL, cache);
  if (result != VK_SUCCESS && data != NULL) {
    set->host->log(set->host->context, TFLACCEL_LOG_INFO,
                   "pipeline cache: the driver refused the verified cached data (%d); starting empty",
                   (int)result);
    info.initialDataSize = 0;
    info.pInitialData = NULL;
    result = vkCreatePipelineCache(set->context->device, &info, NULL, cache);
  }
  if (result != VK_SUCCESS) *cache = VK_NULL_HANDLE;
  return result;
}

void vk_pipeline_partition_begin(vk_pipeline_set *set, gpu_disk_cache_key_builder *builder,
                                 const tflaccel_compile_options *options) {
  vk_pipeline_partition *partition = &set->partition;
  vk_pipeline_partition_end(set, 0);
  uint32_t serial = partition->serial + 1 ? partition->serial + 1 : 1;
  partition->serial = serial;
  partition->disk = (gpu_disk_cache){.host = set->host, .prefix = "gpu_vk"};
  if (!gpu_disk_cache_enabled(&partition->disk)) return;
  gpu_disk_cache_name_model(&partition->disk, options);
  gpu_disk_cache_key_add(builder, set->driver.digest, sizeof set->driver.digest);
  gpu_disk_cache_key_end(builder, &partition->key);
  void *data = NULL;
  uint32_t size = 0, tag = 0;
  partition->loaded = gpu_disk_cache_read(&partition->disk, &partition->key, &data, &size, &tag);
  partition->loaded_size = partition->loaded ? size : 0;
  VkResult result = create_cache(set, data, size, &partition->cache);
  if (data != NULL) set->host->free(set->host->context, data);
  if (result != VK_SUCCESS) {
    set->host->log(set->host->context, TFLACCEL_LOG_INFO,
                   "pipeline cache: vkCreatePipelineCache failed (%d); no entry this time",
                   (int)result);
    partition->loaded = 0;
    return;
  }
  partition->active = 1;
}

void vk_pipeline_partition_end(vk_pipeline_set *set, int32_t compiled) {
  vk_pipeline_partition *partition = &set->partition;
  if (!partition->active) return;
  VkDevice device = set->context->device;
  size_t size = 0;
  /* Vulkan does not say whether a pipeline came from the cache: an entry
   * that was read is written again only when the data grew (pipelines were
   * added to it); a driver whose cache keeps nothing (lavapipe: the
   * header alone) is not rewritten on every run. */
  if (compiled && (!partition->loaded || partition->built > 0) &&
      vkGetPipelineCacheData(device, partition->cache, &size, NULL) == VK_SUCCESS && size > 0 &&
      size <= GPU_DISK_CACHE_MAX_BYTES && (!partition->loaded || size != partition->loaded_size)) {
    void *data = set->host->alloc(set->host->context, size, 16);
    if (data != NULL && vkGetPipelineCacheData(device, partition->cache, &size, data) == VK_SUCCESS)
      gpu_disk_cache_write(&partition->disk, &partition->key, "Vulkan pipeline cache", data,
                           (uint32_t)size, 0);
    if (data != NULL) set->host->free(set->host->context, data);
  }
  vkDestroyPipelineCache(device, partition->cache, NULL);
  uint32_t serial = partition->serial;
  memset(partition, 0, sizeof *partition);
  partition->serial = serial;
}

tflaccel_status vk_pipeline_set_init(const tflaccel_host_services *host,
                                     const vk_device_context *context, vk_pipeline_set *set) {
  memset(set, 0, sizeof *set);
  set->host = host;
  set->context = context;
  /* The build lists the kernel files in the catalogue's order; a mismatch
   * would run the wrong kernel, so it is refused outright. */
  if (gpu_vk_spirv_count != GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_vk has %u embedded kernels, the catalogue %d",
                             gpu_vk_spirv_count, (int)GPU_KERNEL_EXTENDED_COUNT);
  for (int32_t k = 0; k < GPU_KERNEL_EXTENDED_COUNT; ++k)
    if (strcmp(gpu_vk_spirv[k].name, gpu_kernel_name(k)) != 0)
      return host->status_make(TFLACCEL_INTERNAL,
                               "gpu_vk embedded kernel %d is %s, the catalogue's is %s", (int)k,
                               gpu_vk_spirv[k].name, gpu_kernel_name(k));

  VkDescriptorSetLayoutBinding bindings[VK_PIPELINE_BINDINGS];
  for (uint32_t i = 0; i < VK_PIPELINE_BINDINGS; ++i)
    bindings[i] = (VkDescriptorSetLayoutBinding){
        .binding = i,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
  const VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = VK_PIPELINE_BINDINGS,
      .pBindings = bindings,
  };
  VkResult result = vkCreateDescriptorSetLayout(context->device, &set_info, NULL, &set->set_layout);
  if (result != VK_SUCCESS) {
    set->set_layout = VK_NULL_HANDLE;
    return vk_call_failed(host, "vkCreateDescriptorSetLayout", result);
  }
  /* prelude_vulkan.glsl: the parameter offset and the grid values. */
  const VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                    .offset = 0,
                                    .size = (1 + GPU_GRID_VALUE_COUNT) * sizeof(int32_t)};
  const VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set->set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &push,
  };
  result = vkCreatePipelineLayout(context->device, &layout_info, NULL, &set->layout);
  if (result != VK_SUCCESS) {
    set->layout = VK_NULL_HANDLE;
    vk_pipeline_set_release(set);
    return vk_call_failed(host, "vkCreatePipelineLayout", result);
  }
  driver_key(context, &set->driver);
  result = create_cache(set, NULL, 0, &set->cache);
  if (result != VK_SUCCESS) {
    vk_pipeline_set_release(set);
    return vk_call_failed(host, "vkCreatePipelineCache", result);
  }
  return NULL;
}

void vk_pipeline_set_release(vk_pipeline_set *set) {
  if (set->context == NULL) return;
  VkDevice device = set->context->device;
  vk_pipeline_partition_end(set, 0);
  if (set->cache != VK_NULL_HANDLE) vkDestroyPipelineCache(device, set->cache, NULL);
  for (uint32_t i = 0; i < set->count; ++i)
    vkDestroyPipeline(device, set->entries[i].pipeline, NULL);
  if (set->entries != NULL) set->host->free(set->host->context, set->entries);
  for (int k = 0; k < GPU_KERNEL_EXTENDED_COUNT; ++k)
    for (int v = 0; v < VK_SHADER_VARIANT_COUNT; ++v)
      if (set->modules[k][v] != VK_NULL_HANDLE)
        vkDestroyShaderModule(device, set->modules[k][v], NULL);
  if (set->layout != VK_NULL_HANDLE) vkDestroyPipelineLayout(device, set->layout, NULL);
  if (set->set_layout != VK_NULL_HANDLE)
    vkDestroyDescriptorSetLayout(device, set->set_layout, NULL);
  memset(set, 0, sizeof *set);
}

static tflaccel_status get_module(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                  VkShaderModule *module) {
  if (set->modules[kernel][variant] == VK_NULL_HANDLE) {
    const vk_spirv *code = &gpu_vk_spirv[kernel].variants[variant];
    const VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = code->size,
        .pCode = code->words,
    };
    VkResult result = vk_fault(set->context->fault, "vkCreateShaderModule", GPU_FAULT_MEMORY);
    if (result == VK_SUCCESS)
      result =
          vkCreateShaderModule(set->context->device, &info, NULL, &set->modules[kernel][variant]);
    if (result != VK_SUCCESS) {
      set->modules[kernel][variant] = VK_NULL_HANDLE;
      char call[128];
      snprintf(call, sizeof call, "vkCreateShaderModule(%s, %s)", gpu_kernel_name(kernel),
               variant_names[variant]);
      return vk_call_failed(set->host, call, result);
    }
  }
  *module = set->modules[kernel][variant];
  return NULL;
}

static tflaccel_status make_pipeline(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                     const uint32_t local[3], uint32_t post_list,
                                     VkPipeline *pipeline) {
  VkShaderModule module = VK_NULL_HANDLE;
  tflaccel_status status = get_module(set, kernel, variant, &module);
  if (status != NULL) return status;
  /* prelude_vulkan.glsl: the work group's sizes, then the post-op list. */
  const uint32_t constants[4] = {local[0], local[1], local[2], post_list};
  const VkSpecializationMapEntry entries[4] = {
      {.constantID = 0, .offset = 0, .size = sizeof(uint32_t)},
      {.constantID = 1, .offset = sizeof(uint32_t), .size = sizeof(uint32_t)},
      {.constantID = 2, .offset = 2 * sizeof(uint32_t), .size = sizeof(uint32_t)},
      {.constantID = 3, .offset = 3 * sizeof(uint32_t), .size = sizeof(uint32_t)},
  };
  const VkSpecializationInfo specialization = {
      .mapEntryCount = 4,
      .pMapEntries = entries,
      .dataSize = sizeof constants,
      .pData = constants,
  };
  const VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage =
          {
              .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
              .stage = VK_SHADER_STAGE_COMPUTE_BIT,
              .module = module,
              .pName = "main",
              .pSpecializationInfo = &specialization,
          },
      .layout = set->layout,
  };
  VkPipelineCache cache = set->partition.active ? set->partition.cache : set->cache;
  VkResult result = vk_fault(set->context->fault, "vkCreateComputePipelines", GPU_FAULT_MEMORY);
  if (result == VK_SUCCESS)
    result = vkCreateComputePipelines(set->context->device, cache, 1, &info, NULL, pipeline);
  if (result != VK_SUCCESS) {
    *pipeline = VK_NULL_HANDLE;
    char call[160];
    snprintf(call, sizeof call, "vkCreateComputePipelines(%s, %s, %ux%ux%u)",
             gpu_kernel_name(kernel), variant_names[variant], local[0], local[1], local[2]);
    return vk_call_failed(set->host, call, result);
  }
  if (set->partition.active) set->partition.built++;
  return NULL;
}

/* A pipeline made earlier (another partition's) that this partition uses:
 * made once more through the partition's cache, when its entry is being
 * written, so that the entry holds every pipeline the partition needs. */
static tflaccel_status seen_by_partition(vk_pipeline_set *set, vk_pipeline_entry *entry) {
  vk_pipeline_partition *partition = &set->partition;
  if (!partition->active || partition->loaded || entry->partition == partition->serial)
    return NULL;
  VkPipeline again = VK_NULL_HANDLE;
  tflaccel_status status =
      make_pipeline(set, entry->kernel, entry->variant, entry->local, entry->post_list, &again);
  if (status != NULL) return status;
  vkDestroyPipeline(set->context->device, again, NULL);
  entry->partition = partition->serial;
  return NULL;
}

tflaccel_status vk_pipeline_get(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                const uint32_t local[3], uint32_t post_list, VkPipeline *pipeline) {
  *pipeline = VK_NULL_HANDLE;
  if (kernel < 0 || kernel >= GPU_KERNEL_EXTENDED_COUNT || variant < 0 ||
      variant >= VK_SHADER_VARIANT_COUNT)
    return set->host->status_make(TFLACCEL_INTERNAL, "gpu_vk: kernel %d variant %d", (int)kernel,
                                  (int)variant);
  for (uint32_t i = 0; i < set->count; ++i) {
    const vk_pipeline_entry *entry = &set->entries[i];
    if (entry->kernel == kernel && entry->variant == variant && entry->local[0] == local[0] &&
        entry->local[1] == local[1] && entry->local[2] == local[2] &&
        entry->post_list == post_list) {
      *pipeline = entry->pipeline;
      return seen_by_partition(set, &set->entries[i]);
    }
  }
  if (!gpu_array_reserve(set->host, (void **)&set->entries, &set->capacity, set->count + 1,
                         sizeof *set->entries, _Alignof(vk_pipeline_entry)))
    return set->host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (pipelines)");
  VkPipeline made = VK_NULL_HANDLE;
  tflaccel_status status = make_pipeline(set, kernel, variant, local, post_list, &made);
  if (status != NULL) return status;
  vk_pipeline_entry *entry = &set->entries[set->count++];
  entry->kernel = kernel;
  entry->variant = variant;
  memcpy(entry->local, local, sizeof entry->local);
  entry->post_list = post_list;
  entry->pipeline = made;
  entry->partition = set->partition.active ? set->partition.serial : 0;
  *pipeline = made;
  return NULL;
}
