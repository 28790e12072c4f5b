/* Vulkan result codes as names, and statuses that name the failed call. */
#ifndef TFLACCEL_GPU_VK_VK_ERROR_H
#define TFLACCEL_GPU_VK_VK_ERROR_H

#include <vulkan/vulkan.h>

#include "plugins/gpu_common/gpu_fault.h"
#include "tflaccel/accelerator.h"

/* "VK_ERROR_DEVICE_LOST" etc.; "unknown VkResult" for codes not listed. */
const char *vk_result_name(VkResult result);

/* The tflaccel status code that fits result: out-of-memory results become
 * TFLACCEL_OUT_OF_MEMORY, a lost device TFLACCEL_DEVICE_LOST, anything else
 * TFLACCEL_BACKEND_ERROR. */
int32_t vk_result_status_code(VkResult result);

/* "<call> failed: <name> (<code>)", with the code from vk_result_status_code. */
tflaccel_status vk_call_failed(const tflaccel_host_services *host, const char *call,
                               VkResult result);

/* The fault hook (gpu_fault.h) before a Vulkan call: VK_SUCCESS (make the
 * call) or the result it fails with instead: VK_ERROR_DEVICE_LOST,
 * VK_ERROR_OUT_OF_DEVICE_MEMORY or VK_ERROR_INITIALIZATION_FAILED. */
VkResult vk_fault(gpu_fault *fault, const char *call, gpu_fault_kind usual);

#endif
