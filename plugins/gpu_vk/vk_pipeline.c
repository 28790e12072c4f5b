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
  const VkPushConstantRange push = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = sizeof(int32_t)};
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
  return NULL;
}

void vk_pipeline_set_release(vk_pipeline_set *set) {
  if (set->context == NULL) return;
  VkDevice device = set->context->device;
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
    VkResult result =
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
                                     const uint32_t local[3], VkPipeline *pipeline) {
  VkShaderModule module = VK_NULL_HANDLE;
  tflaccel_status status = get_module(set, kernel, variant, &module);
  if (status != NULL) return status;
  const VkSpecializationMapEntry entries[3] = {
      {.constantID = 0, .offset = 0, .size = sizeof(uint32_t)},
      {.constantID = 1, .offset = sizeof(uint32_t), .size = sizeof(uint32_t)},
      {.constantID = 2, .offset = 2 * sizeof(uint32_t), .size = sizeof(uint32_t)},
  };
  const VkSpecializationInfo specialization = {
      .mapEntryCount = 3,
      .pMapEntries = entries,
      .dataSize = 3 * sizeof(uint32_t),
      .pData = local,
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
  VkResult result =
      vkCreateComputePipelines(set->context->device, VK_NULL_HANDLE, 1, &info, NULL, pipeline);
  if (result != VK_SUCCESS) {
    *pipeline = VK_NULL_HANDLE;
    char call[160];
    snprintf(call, sizeof call, "vkCreateComputePipelines(%s, %s, %ux%ux%u)",
             gpu_kernel_name(kernel), variant_names[variant], local[0], local[1], local[2]);
    return vk_call_failed(set->host, call, result);
  }
  return NULL;
}

tflaccel_status vk_pipeline_get(vk_pipeline_set *set, int32_t kernel, int32_t variant,
                                const uint32_t local[3], VkPipeline *pipeline) {
  *pipeline = VK_NULL_HANDLE;
  if (kernel < 0 || kernel >= GPU_KERNEL_EXTENDED_COUNT || variant < 0 ||
      variant >= VK_SHADER_VARIANT_COUNT)
    return set->host->status_make(TFLACCEL_INTERNAL, "gpu_vk: kernel %d variant %d", (int)kernel,
                                  (int)variant);
  for (uint32_t i = 0; i < set->count; ++i) {
    const vk_pipeline_entry *entry = &set->entries[i];
    if (entry->kernel == kernel && entry->variant == variant && entry->local[0] == local[0] &&
        entry->local[1] == local[1] && entry->local[2] == local[2]) {
      *pipeline = entry->pipeline;
      return NULL;
    }
  }
  if (!gpu_array_reserve(set->host, (void **)&set->entries, &set->capacity, set->count + 1,
                         sizeof *set->entries, _Alignof(vk_pipeline_entry)))
    return set->host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory (pipelines)");
  VkPipeline made = VK_NULL_HANDLE;
  tflaccel_status status = make_pipeline(set, kernel, variant, local, &made);
  if (status != NULL) return status;
  vk_pipeline_entry *entry = &set->entries[set->count++];
  entry->kernel = kernel;
  entry->variant = variant;
  memcpy(entry->local, local, sizeof entry->local);
  entry->pipeline = made;
  *pipeline = made;
  return NULL;
}
