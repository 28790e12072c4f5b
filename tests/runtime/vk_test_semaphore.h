/* For the native-event tests of gpu_cl and gpu_gl: an application's own
 * Vulkan device on the accelerator's physical device (found by its device
 * UUID) with one exportable semaphore (VK_KHR_external_semaphore_fd,
 * OPAQUE_FD): exported as an fd the test wraps, then signalled by an empty
 * vkQueueSubmit (binary) or vkSignalSemaphore (timeline). Built only with
 * Vulkan (TFLACCEL_TEST_VULKAN). */
#ifndef TFLACCEL_TESTS_RUNTIME_VK_TEST_SEMAPHORE_H
#define TFLACCEL_TESTS_RUNTIME_VK_TEST_SEMAPHORE_H

#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

typedef struct vk_test_semaphore {
  VkInstance instance;
  VkDevice device;
  VkQueue queue;
  VkSemaphore semaphore;
  int32_t timeline;
} vk_test_semaphore;

/* 1 with the device and semaphore made (timeline: a timeline semaphore at
 * 0, else binary); 0 with why (e.g. "VK_KHR_external_semaphore_fd not
 * offered by llvmpipe") when this machine cannot: no Vulkan device of that
 * UUID, or it lacks the extension or an exportable OPAQUE_FD semaphore. */
int vk_test_semaphore_open(vk_test_semaphore *semaphore, const uint8_t uuid[VK_UUID_SIZE],
                           int32_t timeline, char *why, size_t why_size);
/* A new OPAQUE_FD of the semaphore; the caller closes it. */
int vk_test_semaphore_export(const vk_test_semaphore *semaphore);
/* Binary: an empty vkQueueSubmit signalling it; timeline: vkSignalSemaphore
 * to value. */
void vk_test_semaphore_signal(const vk_test_semaphore *semaphore, uint64_t value);
/* Waits for the queue, destroys everything. */
void vk_test_semaphore_close(vk_test_semaphore *semaphore);

#endif
