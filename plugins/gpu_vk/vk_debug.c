/* The validation layer's messenger (vk_debug.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_vk/vk_debug.h"
#include "plugins/gpu_vk/vk_error.h"

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user) {
  (void)types;
  vk_debug *debug = user;
  const char *text = data != NULL && data->pMessage != NULL ? data->pMessage : "(no message)";
  int is_error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  debug->host->log(debug->host->context, is_error ? TFLACCEL_LOG_ERROR : TFLACCEL_LOG_WARNING,
                   "Vulkan validation: %s", text);
  if (is_error) {
    pthread_mutex_lock(&debug->lock);
    if (debug->errors++ == 0) snprintf(debug->first_error, sizeof debug->first_error, "%s", text);
    pthread_mutex_unlock(&debug->lock);
  }
  return VK_FALSE; /* the call that triggered it goes on */
}

static int layer_installed(const tflaccel_host_services *host) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || count == 0) return 0;
  VkLayerProperties *layers =
      host->alloc(host->context, count * sizeof *layers, _Alignof(VkLayerProperties));
  if (layers == NULL) return 0;
  int found = 0;
  VkResult result = vkEnumerateInstanceLayerProperties(&count, layers);
  for (uint32_t i = 0; (result == VK_SUCCESS || result == VK_INCOMPLETE) && i < count; ++i)
    if (strcmp(layers[i].layerName, VK_DEBUG_LAYER_NAME) == 0) found = 1;
  host->free(host->context, layers);
  return found;
}

tflaccel_status vk_debug_init(const tflaccel_host_services *host, vk_debug *debug) {
  memset(debug, 0, sizeof *debug);
  debug->host = host;
  if (!layer_installed(host))
    return host->status_make(TFLACCEL_INVALID_CONFIG,
                             "gpu_vk option validation=1: %s is not installed (Debian: "
                             "vulkan-validationlayers)",
                             VK_DEBUG_LAYER_NAME);
  if (pthread_mutex_init(&debug->lock, NULL) != 0)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_vk validation: pthread_mutex_init failed");
  debug->lock_made = 1;
  debug->messenger_info = (VkDebugUtilsMessengerCreateInfoEXT){
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = on_message,
      .pUserData = debug,
  };
  /* Synchronization validation checks the barriers between dispatches. */
  debug->enabled_features[0] = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  debug->features = (VkValidationFeaturesEXT){
      .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
      .pNext = &debug->messenger_info,
      .enabledValidationFeatureCount = 1,
      .pEnabledValidationFeatures = debug->enabled_features,
  };
  return NULL;
}

const void *vk_debug_instance_chain(vk_debug *debug) { return &debug->features; }

tflaccel_status vk_debug_install(vk_debug *debug, VkInstance instance) {
  PFN_vkCreateDebugUtilsMessengerEXT create =
      (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance,
                                                                "vkCreateDebugUtilsMessengerEXT");
  if (create == NULL)
    return debug->host->status_make(TFLACCEL_INVALID_CONFIG,
                                    "gpu_vk option validation=1: the instance has no "
                                    "vkCreateDebugUtilsMessengerEXT");
  VkResult result = create(instance, &debug->messenger_info, NULL, &debug->messenger);
  if (result != VK_SUCCESS) {
    debug->messenger = VK_NULL_HANDLE;
    return vk_call_failed(debug->host, "vkCreateDebugUtilsMessengerEXT", result);
  }
  return NULL;
}

void vk_debug_uninstall(vk_debug *debug, VkInstance instance) {
  if (debug->messenger != VK_NULL_HANDLE) {
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            instance, "vkDestroyDebugUtilsMessengerEXT");
    if (destroy != NULL) destroy(instance, debug->messenger, NULL);
  }
  debug->messenger = VK_NULL_HANDLE;
}

void vk_debug_release(vk_debug *debug) {
  if (debug->lock_made) pthread_mutex_destroy(&debug->lock);
  debug->lock_made = 0;
}

tflaccel_status vk_debug_take_errors(vk_debug *debug) {
  if (debug == NULL) return NULL;
  pthread_mutex_lock(&debug->lock);
  uint32_t errors = debug->errors;
  char first[VK_DEBUG_MESSAGE_SIZE];
  memcpy(first, debug->first_error, sizeof first);
  debug->errors = 0;
  pthread_mutex_unlock(&debug->lock);
  if (errors == 0) return NULL;
  return debug->host->status_make(TFLACCEL_BACKEND_ERROR,
                                  "gpu_vk: the Vulkan validation layer reported %u error(s), the "
                                  "first: %s",
                                  (unsigned)errors, first);
}
