/* A GPU pipeline with no host copy, on Vulkan (gpu_vk):
 *
 *   1. a compute shader of the application (vk_draw.comp, SPIR-V compiled
 *      at build time) draws a test image straight into a VkBuffer it made
 *      on the accelerator's own VkDevice;
 *   2. gpu_vk runs selfie_segmentation on that buffer, writing the mask
 *      into a second VkBuffer of the application's (wrapped, not copied);
 *   3. a second shader (vk_sum.comp) sums the mask on the device into a
 *      small host-visible buffer; only that number comes back to the host.
 *
 * Then it checks itself against the same image run with host buffers
 * (pipeline_common.c). Usage: vk_pipeline [MODEL] (default:
 * selfie_segmentation.tflite in $TFLACCEL_TEST_DATA). Exit 77 when gpu_vk
 * has no Vulkan device here.
 *
 * Synchronisation: the public API has no Vulkan semaphore or fence to hand
 * over yet, so the application waits for its own submission (a fence)
 * before the run, and the run is synchronous (its output is written when
 * it returns). The shaders' buffers are on the accelerator's queue family;
 * its queue is the VkDevice's queue 0 of that family, which the
 * application shares: it submits only between runs, on the same thread
 * (Vulkan wants submissions to one queue externally synchronised). Each
 * command buffer starts and ends with a memory barrier, so the shaders see
 * the writes of the submissions before theirs on that queue and the next
 * ones see theirs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "examples/pipeline_common.h"
#include "examples/vk_pipeline_spirv.h"

enum { DRAW, SUM, SHADER_COUNT };

typedef struct app_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
} app_buffer;

/* The application's Vulkan objects, on the accelerator's VkDevice. */
typedef struct vk_app {
  VkDevice device;
  VkPhysicalDevice physical;
  VkQueue queue;
  app_buffer image, mask, total;
  void *total_mapped;
  VkDescriptorSetLayout set_layout; /* binding 0: read or written, 1: written */
  VkPipelineLayout pipeline_layout; /* and one int of push constants */
  VkShaderModule modules[SHADER_COUNT];
  VkPipeline pipelines[SHADER_COUNT];
  VkDescriptorPool pool;
  VkDescriptorSet sets[SHADER_COUNT];
  VkCommandPool command_pool;
  VkCommandBuffer commands;
  VkFence fence;
} vk_app;

static int vk_fail(const pipeline *self, const char *call, VkResult result) {
  fprintf(stderr, "%s: %s failed: VkResult %d\n", self->name, call, (int)result);
  return 1;
}

/* A VkBuffer of size bytes with memory of the first property set in
 * `preferences` (count of them) that a memory type has. */
static int make_buffer(const pipeline *self, vk_app *app, VkDeviceSize size,
                       const VkMemoryPropertyFlags *preferences, int count, app_buffer *made) {
  const VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkResult result = vkCreateBuffer(app->device, &info, NULL, &made->buffer);
  if (result != VK_SUCCESS) return vk_fail(self, "vkCreateBuffer", result);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(app->device, made->buffer, &requirements);
  VkPhysicalDeviceMemoryProperties properties;
  vkGetPhysicalDeviceMemoryProperties(app->physical, &properties);
  uint32_t type = UINT32_MAX;
  for (int p = 0; p < count && type == UINT32_MAX; ++p)
    for (uint32_t t = 0; t < properties.memoryTypeCount && type == UINT32_MAX; ++t)
      if ((requirements.memoryTypeBits & (1u << t)) &&
          (properties.memoryTypes[t].propertyFlags & preferences[p]) == preferences[p])
        type = t;
  if (type == UINT32_MAX) {
    fprintf(stderr, "%s: no memory type for a buffer of %llu bytes\n", self->name,
            (unsigned long long)size);
    return 1;
  }
  const VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                         .allocationSize = requirements.size,
                                         .memoryTypeIndex = type};
  if ((result = vkAllocateMemory(app->device, &allocate, NULL, &made->memory)) != VK_SUCCESS)
    return vk_fail(self, "vkAllocateMemory", result);
  if ((result = vkBindBufferMemory(app->device, made->buffer, made->memory, 0)) != VK_SUCCESS)
    return vk_fail(self, "vkBindBufferMemory", result);
  return 0;
}

static void free_buffer(const vk_app *app, const app_buffer *made) {
  vkDestroyBuffer(app->device, made->buffer, NULL);
  vkFreeMemory(app->device, made->memory, NULL);
}

static int make_pipelines(const pipeline *self, vk_app *app) {
  const VkDescriptorSetLayoutBinding bindings[2] = {
      {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
       .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
      {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
       .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
  };
  const VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 2,
      .pBindings = bindings};
  VkResult result = vkCreateDescriptorSetLayout(app->device, &set_info, NULL, &app->set_layout);
  if (result != VK_SUCCESS) return vk_fail(self, "vkCreateDescriptorSetLayout", result);
  const VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                    .offset = 0,
                                    .size = sizeof(int32_t)};
  const VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &app->set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &push};
  result = vkCreatePipelineLayout(app->device, &layout_info, NULL, &app->pipeline_layout);
  if (result != VK_SUCCESS) return vk_fail(self, "vkCreatePipelineLayout", result);
  const uint32_t *code[SHADER_COUNT] = {vk_pipeline_draw_spirv, vk_pipeline_sum_spirv};
  const size_t code_size[SHADER_COUNT] = {vk_pipeline_draw_spirv_size, vk_pipeline_sum_spirv_size};
  for (int s = 0; s < SHADER_COUNT; ++s) {
    const VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = code_size[s],
        .pCode = code[s]};
    if ((result = vkCreateShaderModule(app->device, &module_info, NULL, &app->modules[s])) !=
        VK_SUCCESS)
      return vk_fail(self, "vkCreateShaderModule", result);
    const VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = app->modules[s],
                  .pName = "main"},
        .layout = app->pipeline_layout};
    if ((result = vkCreateComputePipelines(app->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL,
                                           &app->pipelines[s])) != VK_SUCCESS)
      return vk_fail(self, "vkCreateComputePipelines", result);
  }
  return 0;
}

/* One descriptor set per shader: draw writes the image (binding 1 names it
 * too, unused, so that the set is complete); sum reads the mask and writes
 * the total. */
static int make_descriptor_sets(const pipeline *self, vk_app *app) {
  const VkDescriptorPoolSize size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                     .descriptorCount = 2 * SHADER_COUNT};
  const VkDescriptorPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = SHADER_COUNT,
      .poolSizeCount = 1,
      .pPoolSizes = &size};
  VkResult result = vkCreateDescriptorPool(app->device, &pool_info, NULL, &app->pool);
  if (result != VK_SUCCESS) return vk_fail(self, "vkCreateDescriptorPool", result);
  const VkDescriptorSetLayout layouts[SHADER_COUNT] = {app->set_layout, app->set_layout};
  const VkDescriptorSetAllocateInfo allocate = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = app->pool,
      .descriptorSetCount = SHADER_COUNT,
      .pSetLayouts = layouts};
  if ((result = vkAllocateDescriptorSets(app->device, &allocate, app->sets)) != VK_SUCCESS)
    return vk_fail(self, "vkAllocateDescriptorSets", result);
  const VkDescriptorBufferInfo buffers[SHADER_COUNT][2] = {
      {{app->image.buffer, 0, VK_WHOLE_SIZE}, {app->image.buffer, 0, VK_WHOLE_SIZE}},
      {{app->mask.buffer, 0, VK_WHOLE_SIZE}, {app->total.buffer, 0, VK_WHOLE_SIZE}},
  };
  VkWriteDescriptorSet writes[2 * SHADER_COUNT];
  for (int s = 0; s < SHADER_COUNT; ++s)
    for (uint32_t b = 0; b < 2; ++b)
      writes[2 * s + b] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                 .dstSet = app->sets[s],
                                                 .dstBinding = b,
                                                 .descriptorCount = 1,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .pBufferInfo = &buffers[s][b]};
  vkUpdateDescriptorSets(app->device, 2 * SHADER_COUNT, writes, 0, NULL);
  return 0;
}

static int vk_app_create(const pipeline *self, vk_app *app) {
  memset(app, 0, sizeof *app);
  app->device = self->device.vk_device;
  app->physical = self->device.vk_physical_device;
  vkGetDeviceQueue(app->device, self->device.vk_queue_family, 0, &app->queue);
  const VkMemoryPropertyFlags device_memory[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  const VkMemoryPropertyFlags host_memory[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
  /* gpu_vk wants a wrapped buffer's memory to hold the tensor rounded up
   * to 16 bytes. */
  if (make_buffer(self, app, self->input_bytes, device_memory, 2, &app->image) != 0 ||
      make_buffer(self, app, (self->output_bytes + 15) / 16 * 16, device_memory, 2, &app->mask) != 0 ||
      make_buffer(self, app, 16, host_memory, 1, &app->total) != 0)
    return 1;
  VkResult result = vkMapMemory(app->device, app->total.memory, 0, VK_WHOLE_SIZE, 0, &app->total_mapped);
  if (result != VK_SUCCESS) return vk_fail(self, "vkMapMemory", result);
  if (make_pipelines(self, app) != 0 || make_descriptor_sets(self, app) != 0) return 1;
  const VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = self->device.vk_queue_family};
  if ((result = vkCreateCommandPool(app->device, &pool_info, NULL, &app->command_pool)) != VK_SUCCESS)
    return vk_fail(self, "vkCreateCommandPool", result);
  const VkCommandBufferAllocateInfo allocate = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = app->command_pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1};
  if ((result = vkAllocateCommandBuffers(app->device, &allocate, &app->commands)) != VK_SUCCESS)
    return vk_fail(self, "vkAllocateCommandBuffers", result);
  const VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if ((result = vkCreateFence(app->device, &fence_info, NULL, &app->fence)) != VK_SUCCESS)
    return vk_fail(self, "vkCreateFence", result);
  return 0;
}

/* Destroys what vk_app_create made (any part of it). */
static void vk_app_destroy(vk_app *app) {
  if (app->device == VK_NULL_HANDLE) return;
  vkDestroyFence(app->device, app->fence, NULL);
  vkDestroyCommandPool(app->device, app->command_pool, NULL); /* frees the command buffer */
  vkDestroyDescriptorPool(app->device, app->pool, NULL);      /* frees the sets */
  for (int s = 0; s < SHADER_COUNT; ++s) {
    vkDestroyPipeline(app->device, app->pipelines[s], NULL);
    vkDestroyShaderModule(app->device, app->modules[s], NULL);
  }
  vkDestroyPipelineLayout(app->device, app->pipeline_layout, NULL);
  vkDestroyDescriptorSetLayout(app->device, app->set_layout, NULL);
  if (app->total_mapped != NULL) vkUnmapMemory(app->device, app->total.memory);
  free_buffer(app, &app->total);
  free_buffer(app, &app->mask);
  free_buffer(app, &app->image);
  memset(app, 0, sizeof *app);
}

/* Runs shader s over `groups` work groups with `value` as its push
 * constant and waits for it. */
static int dispatch(const pipeline *self, vk_app *app, int s, int32_t value, uint32_t groups) {
  const VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                          .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult result = vkBeginCommandBuffer(app->commands, &begin);
  if (result != VK_SUCCESS) return vk_fail(self, "vkBeginCommandBuffer", result);
  /* After what the queue did before (gpu_vk's run writing the mask). */
  const VkMemoryBarrier before = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                                                   VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(app->commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0, NULL, 0, NULL);
  vkCmdBindPipeline(app->commands, VK_PIPELINE_BIND_POINT_COMPUTE, app->pipelines[s]);
  vkCmdBindDescriptorSets(app->commands, VK_PIPELINE_BIND_POINT_COMPUTE, app->pipeline_layout, 0, 1,
                          &app->sets[s], 0, NULL);
  vkCmdPushConstants(app->commands, app->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     sizeof value, &value);
  vkCmdDispatch(app->commands, groups, 1, 1);
  /* Before what comes next on the queue (the run) and the host's read. */
  const VkMemoryBarrier after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
                                                  VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(app->commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after,
                       0, NULL, 0, NULL);
  if ((result = vkEndCommandBuffer(app->commands)) != VK_SUCCESS)
    return vk_fail(self, "vkEndCommandBuffer", result);
  const VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .commandBufferCount = 1,
                               .pCommandBuffers = &app->commands};
  if ((result = vkQueueSubmit(app->queue, 1, &submit, app->fence)) != VK_SUCCESS)
    return vk_fail(self, "vkQueueSubmit", result);
  if ((result = vkWaitForFences(app->device, 1, &app->fence, VK_TRUE, UINT64_MAX)) != VK_SUCCESS)
    return vk_fail(self, "vkWaitForFences", result);
  if ((result = vkResetFences(app->device, 1, &app->fence)) != VK_SUCCESS)
    return vk_fail(self, "vkResetFences", result);
  if ((result = vkResetCommandBuffer(app->commands, 0)) != VK_SUCCESS)
    return vk_fail(self, "vkResetCommandBuffer", result);
  return 0;
}

static int run_pipeline(pipeline *self, vk_app *app) {
  int status = vk_app_create(self, app);
  if (status != 0) return status;

  /* 1. Draw the image on the device. */
  const int32_t side = PIPELINE_SIDE;
  if (dispatch(self, app, DRAW, side, (uint32_t)(side * side * 3 + 63) / 64) != 0) return 1;

  /* 2. The model, on the application's VkBuffers. */
  const tflaccel_native_buffer image = {.struct_size = sizeof image,
                                        .type = TFLACCEL_BUFFER_VULKAN,
                                        .handle = (uint64_t)(uintptr_t)app->image.buffer,
                                        .memory = (uint64_t)(uintptr_t)app->image.memory,
                                        .size = self->input_bytes};
  const tflaccel_native_buffer mask = {.struct_size = sizeof mask,
                                       .type = TFLACCEL_BUFFER_VULKAN,
                                       .handle = (uint64_t)(uintptr_t)app->mask.buffer,
                                       .memory = (uint64_t)(uintptr_t)app->mask.memory,
                                       .size = self->output_bytes};
  uint32_t device_copies = 0;
  if ((status = pipeline_run_wrapped(self, &image, &mask, &device_copies)) != 0) return status;

  /* 3. Sum the mask on the device; read one float. */
  if (dispatch(self, app, SUM, (int32_t)(self->output_bytes / sizeof(float)), 1) != 0) return 1;
  float device_sum = 0.0f;
  memcpy(&device_sum, app->total_mapped, sizeof device_sum);
  return pipeline_check(self, device_sum, device_copies);
}

int main(int argc, char **argv) {
  pipeline self;
  int status = pipeline_open(&self, "vk_pipeline", "gpu_vk", TFLACCEL_BUFFER_VULKAN, argc, argv);
  if (status == 0) {
    vk_app app = {0};
    status = run_pipeline(&self, &app);
    vk_app_destroy(&app);
  }
  pipeline_close(&self);
  return status;
}
