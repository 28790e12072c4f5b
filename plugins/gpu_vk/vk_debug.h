/* Validation for gpu_vk (option validation=1): the instance gets
 * VK_LAYER_KHRONOS_validation, with synchronization validation, and a
 * debug-utils messenger that logs every warning and error the layer
 * reports and keeps the errors, so that the plugin call during which one
 * was reported fails with it. */
#ifndef TFLACCEL_GPU_VK_VK_DEBUG_H
#define TFLACCEL_GPU_VK_VK_DEBUG_H

#include <pthread.h>
#include <vulkan/vulkan.h>

#include "tflaccel/accelerator.h"

#define VK_DEBUG_LAYER_NAME "VK_LAYER_KHRONOS_validation"
#define VK_DEBUG_MESSAGE_SIZE 512

typedef struct vk_debug {
  const tflaccel_host_services *host;
  VkDebugUtilsMessengerEXT messenger;
  pthread_mutex_t lock; /* the layer reports from any thread */
  int lock_made;
  uint32_t errors; /* reported since the last vk_debug_take_errors */
  char first_error[VK_DEBUG_MESSAGE_SIZE];
  /* Chained into VkInstanceCreateInfo so that instance creation and
   * destruction are validated too. */
  VkValidationFeaturesEXT features;
  VkValidationFeatureEnableEXT enabled_features[1];
  VkDebugUtilsMessengerCreateInfoEXT messenger_info;
} vk_debug;

/* Prepares debug (its address must stay fixed) and checks that the layer
 * and VK_EXT_debug_utils are installed (else TFLACCEL_INVALID_CONFIG). */
tflaccel_status vk_debug_init(const tflaccel_host_services *host, vk_debug *debug);
/* What to chain into VkInstanceCreateInfo.pNext. */
const void *vk_debug_instance_chain(vk_debug *debug);
/* Creates the messenger on the instance made with the chain above. */
tflaccel_status vk_debug_install(vk_debug *debug, VkInstance instance);
/* Destroys the messenger (before the instance). */
void vk_debug_uninstall(vk_debug *debug, VkInstance instance);
/* After the instance is gone; safe after a failed vk_debug_init. */
void vk_debug_release(vk_debug *debug);

/* NULL when the layer reported no error since the last call, else a
 * TFLACCEL_BACKEND_ERROR naming how many and the first. debug may be NULL
 * (validation off). */
tflaccel_status vk_debug_take_errors(vk_debug *debug);

#endif
