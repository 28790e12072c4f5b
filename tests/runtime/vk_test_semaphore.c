/* The tests' Vulkan semaphore (vk_test_semaphore.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/vk_test_semaphore.h"

static int has_device_extension(VkPhysicalDevice physical, const char *name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS) return 0;
  VkExtensionProperties *extensions = calloc(count ? count : 1, sizeof *extensions);
  ck_assert_ptr_nonnull(extensions);
  int found = 0;
  if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, extensions) == VK_SUCCESS)
    for (uint32_t i = 0; i < count && !found; ++i)
      found = strcmp(extensions[i].extensionName, name) == 0;
  free(extensions);
  return found;
}

/* The physical device whose deviceUUID is uuid, else VK_NULL_HANDLE;
 * name: its deviceName. */
static VkPhysicalDevice find_device(VkInstance instance, const uint8_t *uuid, char *name,
                                    size_t name_size) {
  uint32_t count = 0;
  ck_assert_int_eq(vkEnumeratePhysicalDevices(instance, &count, NULL), VK_SUCCESS);
  VkPhysicalDevice *devices = calloc(count ? count : 1, sizeof *devices);
  ck_assert_ptr_nonnull(devices);
  ck_assert_int_eq(vkEnumeratePhysicalDevices(instance, &count, devices), VK_SUCCESS);
  VkPhysicalDevice found = VK_NULL_HANDLE;
  for (uint32_t i = 0; i < count && found == VK_NULL_HANDLE; ++i) {
    VkPhysicalDeviceIDProperties ids = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &ids};
    vkGetPhysicalDeviceProperties2(devices[i], &properties);
    if (memcmp(ids.deviceUUID, uuid, VK_UUID_SIZE) == 0) {
      found = devices[i];
      snprintf(name, name_size, "%s", properties.properties.deviceName);
    }
  }
  free(devices);
  return found;
}

static int exportable(VkPhysicalDevice physical, int32_t timeline) {
  VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
  VkPhysicalDeviceExternalSemaphoreInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .pNext = timeline ? &type : NULL,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalSemaphoreProperties properties = {.sType =
                                                  VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical, &info, &properties);
  return (properties.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT) != 0;
}

static int refuse(vk_test_semaphore *semaphore, char *why, size_t why_size, const char *reason,
                  const char *driver) {
  snprintf(why, why_size, "%s not offered by %s", reason, driver);
  vk_test_semaphore_close(semaphore);
  return 0;
}

int vk_test_semaphore_open(vk_test_semaphore *semaphore, const uint8_t uuid[VK_UUID_SIZE],
                           int32_t timeline, char *why, size_t why_size) {
  memset(semaphore, 0, sizeof *semaphore);
  semaphore->timeline = timeline;
  const VkApplicationInfo application = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                         .pApplicationName = "tflaccel native event test",
                                         .apiVersion = VK_API_VERSION_1_2};
  const VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                              .pApplicationInfo = &application};
  if (vkCreateInstance(&instance_info, NULL, &semaphore->instance) != VK_SUCCESS) {
    semaphore->instance = VK_NULL_HANDLE;
    return refuse(semaphore, why, why_size, "a Vulkan 1.2 instance", "this machine");
  }
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = "";
  VkPhysicalDevice physical = find_device(semaphore->instance, uuid, name, sizeof name);
  if (physical == VK_NULL_HANDLE)
    return refuse(semaphore, why, why_size, "a Vulkan device of the accelerator's UUID",
                  "this machine");
  if (!has_device_extension(physical, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
    return refuse(semaphore, why, why_size, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, name);
  if (!exportable(physical, timeline))
    return refuse(semaphore, why, why_size,
                  timeline ? "an exportable OPAQUE_FD timeline semaphore"
                           : "an exportable OPAQUE_FD semaphore",
                  name);
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, NULL);
  ck_assert_uint_gt(family_count, 0);
  const float priority = 1.0f;
  const VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                              .queueFamilyIndex = 0,
                                              .queueCount = 1,
                                              .pQueuePriorities = &priority};
  VkPhysicalDeviceVulkan12Features features = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .timelineSemaphore = VK_TRUE};
  const char *const extensions[] = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
  const VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                          .pNext = timeline ? &features : NULL,
                                          .queueCreateInfoCount = 1,
                                          .pQueueCreateInfos = &queue_info,
                                          .enabledExtensionCount = 1,
                                          .ppEnabledExtensionNames = extensions};
  VkResult result = vkCreateDevice(physical, &device_info, NULL, &semaphore->device);
  ck_assert_msg(result == VK_SUCCESS, "vkCreateDevice: %d", (int)result);
  vkGetDeviceQueue(semaphore->device, 0, 0, &semaphore->queue);
  VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
  VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
      .pNext = timeline ? &type : NULL,
      .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  const VkSemaphoreCreateInfo semaphore_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
                                                .pNext = &export_info};
  result = vkCreateSemaphore(semaphore->device, &semaphore_info, NULL, &semaphore->semaphore);
  ck_assert_msg(result == VK_SUCCESS, "vkCreateSemaphore: %d", (int)result);
  return 1;
}

int vk_test_semaphore_export(const vk_test_semaphore *semaphore) {
  PFN_vkGetSemaphoreFdKHR get_fd =
      (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(semaphore->device, "vkGetSemaphoreFdKHR");
  ck_assert_ptr_nonnull(get_fd);
  const VkSemaphoreGetFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                        .semaphore = semaphore->semaphore,
                                        .handleType =
                                            VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  VkResult result = get_fd(semaphore->device, &info, &fd);
  ck_assert_msg(result == VK_SUCCESS && fd >= 0, "vkGetSemaphoreFdKHR: %d", (int)result);
  return fd;
}

void vk_test_semaphore_signal(const vk_test_semaphore *semaphore, uint64_t value) {
  if (semaphore->timeline) {
    const VkSemaphoreSignalInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                        .semaphore = semaphore->semaphore,
                                        .value = value};
    ck_assert_int_eq(vkSignalSemaphore(semaphore->device, &info), VK_SUCCESS);
    return;
  }
  const VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .signalSemaphoreCount = 1,
                               .pSignalSemaphores = &semaphore->semaphore};
  ck_assert_int_eq(vkQueueSubmit(semaphore->queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
}

void vk_test_semaphore_close(vk_test_semaphore *semaphore) {
  if (semaphore->device != VK_NULL_HANDLE) {
    ck_assert_int_eq(vkDeviceWaitIdle(semaphore->device), VK_SUCCESS);
    if (semaphore->semaphore != VK_NULL_HANDLE)
      vkDestroySemaphore(semaphore->device, semaphore->semaphore, NULL);
    vkDestroyDevice(semaphore->device, NULL);
  }
  if (semaphore->instance != VK_NULL_HANDLE) vkDestroyInstance(semaphore->instance, NULL);
  memset(semaphore, 0, sizeof *semaphore);
}
