/* Vulkan discovery and per-device logical devices. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_vk/vk_context.h"
#include "plugins/gpu_vk/vk_error.h"

#define FLOAT16_INT8_EXTENSION "VK_KHR_shader_float16_int8"
#define DRIVER_PROPERTIES_EXTENSION "VK_KHR_driver_properties"
#define EXTERNAL_MEMORY_FD_EXTENSION "VK_KHR_external_memory_fd"
#define EXTERNAL_MEMORY_DMA_BUF_EXTENSION "VK_EXT_external_memory_dma_buf"

/* Copies a driver string into an info field, cut to fit (deliberately). */
static void copy_field(char field[TFLACCEL_DEVICE_STRING_SIZE], const char *text) {
  size_t length = strnlen(text, TFLACCEL_DEVICE_STRING_SIZE - 1);
  memcpy(field, text, length);
  field[length] = '\0';
}

static tflaccel_status out_of_memory(const tflaccel_host_services *host, const char *what) {
  return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", what);
}

static tflaccel_status create_instance(const tflaccel_host_services *host, vk_debug *debug,
                                       VkInstance *instance) {
  const VkApplicationInfo application = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "tflaccel",
      .applicationVersion = 1,
      .pEngineName = "tflaccel gpu_vk",
      .engineVersion = 1,
      .apiVersion = VK_API_VERSION_1_1,
  };
  /* Compute only: no surface extensions, so no window system is needed;
   * the validation layer only when asked for. */
  const char *layers[] = {VK_DEBUG_LAYER_NAME};
  const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                              VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  const VkInstanceCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pNext = debug != NULL ? vk_debug_instance_chain(debug) : NULL,
      .pApplicationInfo = &application,
      .enabledLayerCount = debug != NULL ? 1 : 0,
      .ppEnabledLayerNames = debug != NULL ? layers : NULL,
      .enabledExtensionCount = debug != NULL ? 2 : 0,
      .ppEnabledExtensionNames = debug != NULL ? extensions : NULL,
  };
  VkResult result = vkCreateInstance(&create_info, NULL, instance);
  if (result == VK_SUCCESS) return NULL;
  *instance = VK_NULL_HANDLE;
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED)
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "no Vulkan 1.1 driver found: vkCreateInstance failed: %s (%d) "
                             "(is an ICD such as mesa-vulkan-drivers installed?)",
                             vk_result_name(result), (int)result);
  return vk_call_failed(host, "vkCreateInstance", result);
}

static tflaccel_status list_physical_devices(const tflaccel_host_services *host,
                                             VkInstance instance, VkPhysicalDevice **devices,
                                             uint32_t *count) {
  *devices = NULL;
  *count = 0;
  uint32_t found = 0;
  VkResult result = vkEnumeratePhysicalDevices(instance, &found, NULL);
  if (result != VK_SUCCESS) return vk_call_failed(host, "vkEnumeratePhysicalDevices", result);
  if (found == 0)
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "the Vulkan instance has no physical device (is an ICD such as "
                             "mesa-vulkan-drivers installed?)");
  VkPhysicalDevice *list =
      host->alloc(host->context, found * sizeof *list, _Alignof(VkPhysicalDevice));
  if (list == NULL) return out_of_memory(host, "listing Vulkan devices");
  /* VK_INCOMPLETE only means a device vanished between the two calls. */
  result = vkEnumeratePhysicalDevices(instance, &found, list);
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    host->free(host->context, list);
    return vk_call_failed(host, "vkEnumeratePhysicalDevices", result);
  }
  *devices = list;
  *count = found;
  return NULL;
}

/* The first queue family that can compute, or UINT32_MAX, and the valid
 * bits of its timestamps. */
static tflaccel_status find_compute_family(const tflaccel_host_services *host,
                                           VkPhysicalDevice physical, uint32_t *family,
                                           uint32_t *timestamp_valid_bits) {
  *family = UINT32_MAX;
  *timestamp_valid_bits = 0;
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, NULL);
  if (count == 0) return NULL;
  VkQueueFamilyProperties *families =
      host->alloc(host->context, count * sizeof *families, _Alignof(VkQueueFamilyProperties));
  if (families == NULL) return out_of_memory(host, "listing Vulkan queue families");
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families);
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && families[i].queueCount > 0) {
      *family = i;
      *timestamp_valid_bits = families[i].timestampValidBits;
      break;
    }
  }
  host->free(host->context, families);
  return NULL;
}

/* Which of the optional device extensions gpu_vk uses are present. */
static tflaccel_status find_extensions(const tflaccel_host_services *host,
                                       VkPhysicalDevice physical, int *float16_int8,
                                       int *driver_properties, vk_device_entry *entry) {
  *float16_int8 = 0;
  *driver_properties = 0;
  uint32_t count = 0;
  VkResult result = vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL);
  if (result != VK_SUCCESS)
    return vk_call_failed(host, "vkEnumerateDeviceExtensionProperties", result);
  if (count == 0) return NULL;
  VkExtensionProperties *extensions =
      host->alloc(host->context, count * sizeof *extensions, _Alignof(VkExtensionProperties));
  if (extensions == NULL) return out_of_memory(host, "listing Vulkan device extensions");
  result = vkEnumerateDeviceExtensionProperties(physical, NULL, &count, extensions);
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    host->free(host->context, extensions);
    return vk_call_failed(host, "vkEnumerateDeviceExtensionProperties", result);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (strcmp(extensions[i].extensionName, FLOAT16_INT8_EXTENSION) == 0) *float16_int8 = 1;
    if (strcmp(extensions[i].extensionName, DRIVER_PROPERTIES_EXTENSION) == 0)
      *driver_properties = 1;
    if (strcmp(extensions[i].extensionName, EXTERNAL_MEMORY_FD_EXTENSION) == 0)
      entry->external_memory_fd = 1;
    if (strcmp(extensions[i].extensionName, EXTERNAL_MEMORY_DMA_BUF_EXTENSION) == 0)
      entry->external_memory_dma_buf = 1;
    vk_sync_support_note_extension(&entry->sync, extensions[i].extensionName);
  }
  host->free(host->context, extensions);
  return NULL;
}

/* PCI vendor IDs, and the Khronos IDs of vendors without one. */
static void vendor_name(uint32_t vendor_id, char *name) {
  const char *known = NULL;
  switch (vendor_id) {
  case 0x1002: known = "AMD"; break;
  case 0x1010: known = "Imagination Technologies"; break;
  case 0x106B: known = "Apple"; break;
  case 0x10DE: known = "NVIDIA"; break;
  case 0x13B5: known = "ARM"; break;
  case 0x14E4: known = "Broadcom"; break;
  case 0x5143: known = "Qualcomm"; break;
  case 0x8086: known = "Intel"; break;
  case VK_VENDOR_ID_VIV: known = "Vivante"; break;
  case VK_VENDOR_ID_VSI: known = "VeriSilicon"; break;
  case VK_VENDOR_ID_KAZAN: known = "Kazan"; break;
  case VK_VENDOR_ID_CODEPLAY: known = "Codeplay"; break;
  case VK_VENDOR_ID_MESA: known = "Mesa"; break;
  case VK_VENDOR_ID_POCL: known = "PoCL"; break;
  default: break;
  }
  if (known != NULL)
    snprintf(name, TFLACCEL_DEVICE_STRING_SIZE, "%s", known);
  else
    snprintf(name, TFLACCEL_DEVICE_STRING_SIZE, "vendor 0x%04x", (unsigned)vendor_id);
}

/* Without VK_KHR_driver_properties only the packed driverVersion is known;
 * NVIDIA packs it 10.8.8.6 bits, everyone else like an API version. */
static void driver_version_from_number(uint32_t vendor_id, uint32_t version, char *text) {
  if (vendor_id == 0x10DE)
    snprintf(text, TFLACCEL_DEVICE_STRING_SIZE, "%u.%u.%u.%u", (version >> 22) & 0x3FFu,
             (version >> 14) & 0xFFu, (version >> 6) & 0xFFu, version & 0x3Fu);
  else
    snprintf(text, TFLACCEL_DEVICE_STRING_SIZE, "%u.%u.%u", VK_API_VERSION_MAJOR(version),
             VK_API_VERSION_MINOR(version), VK_API_VERSION_PATCH(version));
}

static int32_t device_type(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return TFLACCEL_DEVICE_DISCRETE_GPU;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return TFLACCEL_DEVICE_INTEGRATED_GPU;
  /* Software rasterizers (lavapipe, SwiftShader) call themselves CPUs. */
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return TFLACCEL_DEVICE_VIRTUAL_GPU;
  default: return TFLACCEL_DEVICE_OTHER;
  }
}

/* Order in the device list: real GPUs first, software last. */
static int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 3;
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
  default: return 2;
  }
}

static uint64_t device_local_bytes(const VkPhysicalDeviceMemoryProperties *memory) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < memory->memoryHeapCount; ++i)
    if (memory->memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      total += memory->memoryHeaps[i].size;
  return total;
}

/* What OPAQUE_FD external memory allows for buffers of the usage gpu_vk
 * gives the buffers it hands out (vk_buffer.c's kernel usage). */
static void describe_external_memory(VkPhysicalDevice physical, vk_device_entry *entry) {
  const VkPhysicalDeviceExternalBufferInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
  };
  VkExternalBufferProperties properties = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(physical, &info, &properties);
  VkExternalMemoryFeatureFlags features =
      properties.externalMemoryProperties.externalMemoryFeatures;
  entry->opaque_fd_exportable = (features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT) != 0;
  entry->opaque_fd_importable = (features & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) != 0;
  entry->opaque_fd_dedicated_only =
      (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) != 0;
}

/* Fills entry for a physical device; *usable = 0 when it cannot serve
 * (older than Vulkan 1.1 or no compute queue). */
static tflaccel_status describe_device(const tflaccel_host_services *host,
                                       const vk_instance_options *options,
                                       VkPhysicalDevice physical, vk_device_entry *entry,
                                       VkPhysicalDeviceType *type, int *usable) {
  *usable = 0;
  memset(entry, 0, sizeof *entry);
  entry->physical = physical;
  VkPhysicalDeviceProperties basic;
  vkGetPhysicalDeviceProperties(physical, &basic);
  if (basic.apiVersion < VK_API_VERSION_1_1) {
    host->log(host->context, TFLACCEL_LOG_INFO,
              "Vulkan device %s skipped: it has Vulkan %u.%u, 1.1 is needed", basic.deviceName,
              VK_API_VERSION_MAJOR(basic.apiVersion), VK_API_VERSION_MINOR(basic.apiVersion));
    return NULL;
  }
  tflaccel_status status = find_compute_family(host, physical, &entry->compute_family,
                                               &entry->timestamp_valid_bits);
  if (status != NULL) return status;
  if (entry->compute_family == UINT32_MAX) {
    host->log(host->context, TFLACCEL_LOG_INFO, "Vulkan device %s skipped: no compute queue",
              basic.deviceName);
    return NULL;
  }
  int float16_int8 = 0, driver_properties = 0;
  status = find_extensions(host, physical, &float16_int8, &driver_properties, entry);
  if (status != NULL) return status;
  vk_sync_support_query(physical, &entry->sync);

  /* Properties and features beyond 1.0, each struct chained only when the
   * device has it (core 1.1 or a listed extension). */
  VkPhysicalDeviceDriverPropertiesKHR driver = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES_KHR};
  VkPhysicalDeviceIDProperties ids = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
                                      .pNext = driver_properties ? &driver : NULL};
  VkPhysicalDeviceMaintenance3Properties maintenance3 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES, .pNext = &ids};
  VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                            .pNext = &maintenance3};
  vkGetPhysicalDeviceProperties2(physical, &properties);

  VkPhysicalDeviceShaderFloat16Int8FeaturesKHR float16 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR};
  VkPhysicalDevice16BitStorageFeatures storage16 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
      .pNext = float16_int8 ? &float16 : NULL};
  VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                        .pNext = &storage16};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  vkGetPhysicalDeviceMemoryProperties(physical, &entry->memory);

  entry->storage_buffer_16bit =
      options->use_16bit_storage && storage16.storageBuffer16BitAccess == VK_TRUE;
  entry->shader_float16 = options->use_float16 && float16_int8 && float16.shaderFloat16 == VK_TRUE;
  entry->max_allocation_size = maintenance3.maxMemoryAllocationSize;
  memcpy(entry->device_uuid, ids.deviceUUID, VK_UUID_SIZE);
  memcpy(entry->driver_uuid, ids.driverUUID, VK_UUID_SIZE);
  if (entry->external_memory_fd) describe_external_memory(physical, entry);
  entry->limits = basic.limits;

  tflaccel_device_info *info = &entry->info;
  info->struct_size = sizeof *info;
  copy_field(info->name, basic.deviceName);
  vendor_name(basic.vendorID, info->vendor);
  if (driver_properties && (driver.driverInfo[0] != '\0' || driver.driverName[0] != '\0'))
    copy_field(info->driver_version,
               driver.driverInfo[0] != '\0' ? driver.driverInfo : driver.driverName);
  else
    driver_version_from_number(basic.vendorID, basic.driverVersion, info->driver_version);
  snprintf(info->api_version, sizeof info->api_version, "Vulkan %u.%u.%u",
           VK_API_VERSION_MAJOR(basic.apiVersion), VK_API_VERSION_MINOR(basic.apiVersion),
           VK_API_VERSION_PATCH(basic.apiVersion));
  info->type = device_type(basic.deviceType);
  /* Half storage works everywhere (packed two to a uint without 16-bit
   * storage), but is only claimed where the device stores halves natively;
   * half arithmetic needs both features. */
  if (entry->storage_buffer_16bit) {
    info->caps |= TFLACCEL_DEVICE_CAP_FP16_STORAGE;
    if (entry->shader_float16) info->caps |= TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC;
  }
  info->memory_bytes = device_local_bytes(&entry->memory);
  *type = basic.deviceType;
  *usable = 1;
  return NULL;
}

/* Stable insertion sort by rank: keeps the driver's order within a kind. */
static void sort_by_rank(vk_device_entry *entries, int *ranks, uint32_t count) {
  for (uint32_t i = 1; i < count; ++i) {
    vk_device_entry entry = entries[i];
    int rank = ranks[i];
    uint32_t j = i;
    for (; j > 0 && ranks[j - 1] > rank; --j) {
      entries[j] = entries[j - 1];
      ranks[j] = ranks[j - 1];
    }
    entries[j] = entry;
    ranks[j] = rank;
  }
}

tflaccel_status vk_instance_context_create(const tflaccel_host_services *host,
                                           const vk_instance_options *options,
                                           vk_instance_context *context) {
  memset(context, 0, sizeof *context);
  tflaccel_status status = create_instance(host, options->debug, &context->instance);
  if (status != NULL) return status;
  if (options->debug != NULL) {
    context->debug = options->debug;
    status = vk_debug_install(options->debug, context->instance);
    if (status != NULL) {
      vk_instance_context_release(host, context);
      return status;
    }
  }

  VkPhysicalDevice *physical = NULL;
  uint32_t physical_count = 0;
  int *ranks = NULL;
  status = list_physical_devices(host, context->instance, &physical, &physical_count);
  if (status == NULL) {
    context->entries = host->alloc(host->context, physical_count * sizeof *context->entries,
                                   _Alignof(vk_device_entry));
    ranks = host->alloc(host->context, physical_count * sizeof *ranks, _Alignof(int));
    if (context->entries == NULL || ranks == NULL)
      status = out_of_memory(host, "listing Vulkan devices");
  }
  for (uint32_t i = 0; status == NULL && i < physical_count; ++i) {
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    int usable = 0;
    status = describe_device(host, options, physical[i], &context->entries[context->count], &type,
                             &usable);
    if (status == NULL && usable) ranks[context->count++] = type_rank(type);
  }
  if (status == NULL && context->count == 0)
    status = host->status_make(TFLACCEL_UNAVAILABLE,
                               "none of the %u Vulkan device(s) has Vulkan 1.1 and a compute queue",
                               (unsigned)physical_count);
  if (status == NULL) sort_by_rank(context->entries, ranks, context->count);
  if (physical != NULL) host->free(host->context, physical);
  if (ranks != NULL) host->free(host->context, ranks);
  if (status != NULL) vk_instance_context_release(host, context);
  return status;
}

void vk_instance_context_release(const tflaccel_host_services *host, vk_instance_context *context) {
  if (context->entries != NULL) host->free(host->context, context->entries);
  if (context->debug != NULL) vk_debug_uninstall(context->debug, context->instance);
  if (context->instance != VK_NULL_HANDLE) vkDestroyInstance(context->instance, NULL);
  memset(context, 0, sizeof *context);
}

tflaccel_status vk_device_context_create(const tflaccel_host_services *host,
                                         const vk_device_entry *entry, vk_device_context *context) {
  memset(context, 0, sizeof *context);
  context->entry = entry;
  const float priority = 1.0f;
  const VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = entry->compute_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
  };
  /* Turn on the 16-bit features the device info advertises, so that kernels
   * may rely on them. */
  VkPhysicalDeviceShaderFloat16Int8FeaturesKHR float16 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR,
      .shaderFloat16 = entry->shader_float16 ? VK_TRUE : VK_FALSE,
  };
  VkPhysicalDevice16BitStorageFeatures storage16 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
      .pNext = entry->shader_float16 ? &float16 : NULL,
      .storageBuffer16BitAccess = entry->storage_buffer_16bit ? VK_TRUE : VK_FALSE,
  };
  const char *extensions[5];
  uint32_t extension_count = 0;
  if (entry->shader_float16) extensions[extension_count++] = FLOAT16_INT8_EXTENSION;
  if (entry->external_memory_fd) extensions[extension_count++] = EXTERNAL_MEMORY_FD_EXTENSION;
  /* Timeline semaphores and fd sync objects where the device has them. */
  VkPhysicalDeviceTimelineSemaphoreFeaturesKHR timeline;
  const void *features =
      vk_sync_device_chain(&entry->sync, &timeline, &storage16, extensions, &extension_count);
  const VkDeviceCreateInfo create_info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = features,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
      .enabledExtensionCount = extension_count,
      .ppEnabledExtensionNames = extension_count > 0 ? extensions : NULL,
  };
  VkResult result = vkCreateDevice(entry->physical, &create_info, NULL, &context->device);
  if (result != VK_SUCCESS) {
    context->device = VK_NULL_HANDLE;
    return vk_call_failed(host, "vkCreateDevice", result);
  }
  vkGetDeviceQueue(context->device, entry->compute_family, 0, &context->queue);
  if (entry->external_memory_fd)
    context->get_memory_fd =
        (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(context->device, "vkGetMemoryFdKHR");
  return NULL;
}

void vk_device_context_release(const tflaccel_host_services *host, vk_device_context *context) {
  if (context->device != VK_NULL_HANDLE) {
    /* Nothing may still run on the device when it is destroyed. */
    VkResult result = vkDeviceWaitIdle(context->device);
    if (result != VK_SUCCESS)
      host->log(host->context, TFLACCEL_LOG_WARNING, "vkDeviceWaitIdle failed: %s (%d)",
                vk_result_name(result), (int)result);
    vkDestroyDevice(context->device, NULL);
  }
  context->device = VK_NULL_HANDLE;
  context->queue = VK_NULL_HANDLE;
}
