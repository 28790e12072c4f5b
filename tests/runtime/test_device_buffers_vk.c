/* gpu_vk's device buffers where the core's buffers are mirrored (the
 * option device_local_io = 1, what a discrete GPU gets): runs write the
 * device side only and a host read downloads on demand; and the
 * application's own VkBuffer, made on the accelerator's VkDevice (from
 * tflaccel_compiled_model_native_device) with memory it maps itself, at an
 * offset, runs in place: no host copy, the host run's outputs. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define OFFSET 256
#define MODEL "selfie_segmentation.tflite"

/* A tflaccel.ini with gpu_vk's inputs and outputs mirrored. */
static char *mirrored_config(char **directory) {
  *directory = test_make_temp_dir();
  return test_write_file(*directory, "tflaccel.ini",
                         "[tflaccel]\naccelerators = gpu_vk\n"
                         "[plugin.cpu_ref]\nlibrary = libcpu_ref.so\n"
                         "[plugin.gpu_vk]\nlibrary = libgpu_vk.so\ndevice_local_io = 1\n");
}

START_TEST(mirrored_device_buffers_download_on_demand) {
  char *directory = NULL;
  char *config = mirrored_config(&directory);
  device_fixture fixture;
  if (!device_fixture_open_config(&fixture, "gpu_vk", MODEL, config)) {
    test_remove_tree(directory);
    free(config);
    free(directory);
    return;
  }
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  ck_assert_ptr_null(tflaccel_compiled_model_create_input_device_buffer(fixture.compiled, 0,
                                                                        TFLACCEL_BUFFER_VULKAN, &input));
  ck_assert_ptr_null(tflaccel_compiled_model_create_output_device_buffer(fixture.compiled, 0,
                                                                         TFLACCEL_BUFFER_VULKAN, &output));
  ck_assert_ptr_null(tflaccel_tensor_buffer_write(input, tflaccel_tensor_buffer_data(fixture.inputs[0]),
                                                  tflaccel_tensor_buffer_byte_size(input)));
  for (int run = 0; run < 2; ++run) {
    tflaccel_status status = tflaccel_compiled_model_run(fixture.compiled, &input, 1, &output, 1);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    tflaccel_run_stats stats = {.struct_size = sizeof stats};
    ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
    ck_assert_uint_eq(stats.host_copies, 0);
    device_fixture_check_output(&fixture, 0, output);
  }
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  printf("gpu_vk, mirrored: device buffers equal the host run's, 0 host copies\n");
  device_fixture_close(&fixture);
  test_remove_tree(directory);
  free(config);
  free(directory);
}
END_TEST

/* A host-visible, coherent VkBuffer of size bytes on device, mapped. */
typedef struct app_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  unsigned char *mapped;
} app_buffer;

static app_buffer make_buffer(const tflaccel_native_device *native, VkDeviceSize size) {
  VkDevice device = native->vk_device;
  app_buffer made = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
  const VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  ck_assert_int_eq(vkCreateBuffer(device, &info, NULL, &made.buffer), VK_SUCCESS);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, made.buffer, &requirements);
  VkPhysicalDeviceMemoryProperties properties;
  vkGetPhysicalDeviceMemoryProperties(native->vk_physical_device, &properties);
  const VkMemoryPropertyFlags wanted =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t t = 0; t < properties.memoryTypeCount && type == UINT32_MAX; ++t)
    if ((requirements.memoryTypeBits & (1u << t)) &&
        (properties.memoryTypes[t].propertyFlags & wanted) == wanted)
      type = t;
  ck_assert_uint_ne(type, UINT32_MAX);
  const VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                         .allocationSize = requirements.size,
                                         .memoryTypeIndex = type};
  ck_assert_int_eq(vkAllocateMemory(device, &allocate, NULL, &made.memory), VK_SUCCESS);
  ck_assert_int_eq(vkBindBufferMemory(device, made.buffer, made.memory, 0), VK_SUCCESS);
  void *address = NULL;
  ck_assert_int_eq(vkMapMemory(device, made.memory, 0, VK_WHOLE_SIZE, 0, &address), VK_SUCCESS);
  made.mapped = address;
  return made;
}

static void free_buffer(const tflaccel_native_device *native, app_buffer *made) {
  vkUnmapMemory(native->vk_device, made->memory);
  vkDestroyBuffer(native->vk_device, made->buffer, NULL);
  vkFreeMemory(native->vk_device, made->memory, NULL);
}

START_TEST(application_vk_buffer_runs_in_place) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, "gpu_vk", MODEL)) return;
  tflaccel_native_device native_device = {.struct_size = sizeof native_device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture.compiled, 0, 0, &native_device));
  ck_assert_uint_le(native_device.offset_alignment, OFFSET);
  size_t input_size = tflaccel_tensor_buffer_byte_size(fixture.inputs[0]);
  size_t output_size = tflaccel_tensor_buffer_byte_size(fixture.outputs[0]);
  app_buffer input_memory = make_buffer(&native_device, OFFSET + input_size);
  app_buffer output_memory = make_buffer(&native_device, OFFSET + output_size);
  memcpy(input_memory.mapped + OFFSET, tflaccel_tensor_buffer_data(fixture.inputs[0]), input_size);
  memset(output_memory.mapped, 0, OFFSET + output_size);

  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = TFLACCEL_BUFFER_VULKAN,
                                   .handle = (uint64_t)(uintptr_t)input_memory.buffer,
                                   .memory = (uint64_t)(uintptr_t)input_memory.memory,
                                   .offset = OFFSET,
                                   .size = input_size};
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  tflaccel_status status = tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &input);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  native.handle = (uint64_t)(uintptr_t)output_memory.buffer;
  native.memory = (uint64_t)(uintptr_t)output_memory.memory;
  native.size = output_size;
  status = tflaccel_compiled_model_wrap_output_buffer(fixture.compiled, 0, &native, &output);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  for (int run = 0; run < 2; ++run) {
    status = tflaccel_compiled_model_run(fixture.compiled, &input, 1, &output, 1);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    tflaccel_run_stats stats = {.struct_size = sizeof stats};
    ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
    ck_assert_uint_eq(stats.host_copies, 0);
    /* The application reads its own memory: the run waited for the queue. */
    ck_assert_int_eq(memcmp(output_memory.mapped + OFFSET,
                            tflaccel_tensor_buffer_data(fixture.outputs[0]), output_size),
                     0);
  }
  device_fixture_check_output(&fixture, 0, output);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);

  /* Memory too small for offset + size. */
  tflaccel_tensor_buffer *refused = NULL;
  native.size = input_size;
  status = tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &refused);
  ck_assert_ptr_nonnull(status);
  ck_assert_msg(strstr(tflaccel_status_message(status), "cannot hold") != NULL, "%s",
                tflaccel_status_message(status));
  tflaccel_status_free(status);
  ck_assert_ptr_null(refused);
  free_buffer(&native_device, &input_memory);
  free_buffer(&native_device, &output_memory);
  printf("gpu_vk: the application's VkBuffers ran in place, 0 host copies\n");
  device_fixture_close(&fixture);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("device_buffers_vk");
  TCase *tcase = tcase_create("device_buffers_vk");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, mirrored_device_buffers_download_on_demand);
  tcase_add_test(tcase, application_vk_buffer_runs_in_place);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
