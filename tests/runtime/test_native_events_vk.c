/* gpu_vk's native events (tflaccel.h, "Native events"), on hand_recrop
 * from tests/data with device buffers for every input and output:
 *   - run_async only submits the work: each output's event is backed by a
 *     VkFence of the accelerator's VkDevice that vkGetFenceStatus reports
 *     signalled once waited on; outputs equal the synchronous run's, frame
 *     after frame on the same buffers, with the core's buffers in host
 *     memory and mirrored (device_local_io = 1: the downloads settle when
 *     the fence is waited for);
 *   - the application's VkFence wraps as an input's event and gates the
 *     queued run until an empty submission signals it;
 *   - semaphores, sync_file fds, a NULL fence: refused in one line naming
 *     the missing extension or the problem.
 * When gpu_vk finds no Vulkan driver, each case says so and passes over. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

static void expect_error(tflaccel_status status, int32_t code, const char *fragment) {
  ck_assert_msg(status != NULL, "expected an error containing \"%s\"", fragment);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, fragment) != NULL, "error \"%s\" lacks \"%s\"", message, fragment);
  ck_assert_msg(strchr(message, '\n') == NULL, "error is not one line: %s", message);
  ck_assert_msg((int32_t)tflaccel_status_code_of(status) == code, "error \"%s\" has code %d, not %d",
                message, (int)tflaccel_status_code_of(status), (int)code);
  tflaccel_status_free(status);
}

typedef struct vk_setup {
  device_fixture fixture;
  VkDevice device;
  uint32_t queue_family;
  char *directory, *config;
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
} vk_setup;

/* 0 when gpu_vk is not available here (reported by the fixture).
 * mirrored: the core's buffers in device-local memory with host mirrors. */
static int open_setup(vk_setup *setup, int mirrored) {
  memset(setup, 0, sizeof *setup);
  if (mirrored) {
    setup->directory = test_make_temp_dir();
    setup->config = test_write_file(setup->directory, "tflaccel.ini",
                                    "[tflaccel]\naccelerators = gpu_vk\n"
                                    "[plugin.cpu_ref]\nlibrary = libcpu_ref.so\n"
                                    "[plugin.gpu_vk]\nlibrary = libgpu_vk.so\ndevice_local_io = 1\n");
  }
  if (!device_fixture_open_config(&setup->fixture, "gpu_vk", MODEL, setup->config)) {
    if (setup->directory != NULL) test_remove_tree(setup->directory);
    free(setup->config);
    free(setup->directory);
    return 0;
  }
  device_fixture *fixture = &setup->fixture;
  tflaccel_native_device device = {.struct_size = sizeof device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture->compiled, 0, 0, &device));
  ck_assert_int_eq(device.type, TFLACCEL_BUFFER_VULKAN);
  setup->device = device.vk_device;
  setup->queue_family = device.vk_queue_family;
  device_fixture_make_device_buffers(fixture, TFLACCEL_BUFFER_VULKAN, setup->inputs, setup->outputs);
  return 1;
}

static void close_setup(vk_setup *setup) {
  device_fixture_destroy_buffers(setup->inputs, setup->fixture.input_count);
  device_fixture_destroy_buffers(setup->outputs, setup->fixture.output_count);
  device_fixture_close(&setup->fixture);
  if (setup->directory != NULL) test_remove_tree(setup->directory);
  free(setup->config);
  free(setup->directory);
}

/* The VkFence behind output `index`'s event (owned by that event). */
static VkFence output_fence(const vk_setup *setup, uint32_t index, tflaccel_tensor_event **event) {
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup->outputs[index], event));
  ck_assert_ptr_nonnull(*event);
  tflaccel_native_event native = {.struct_size = sizeof native};
  tflaccel_status status =
      tflaccel_tensor_event_get_native(*event, TFLACCEL_NATIVE_EVENT_NONE, &native);
  ck_assert_msg(status == NULL, "output %u: %s", index, tflaccel_status_message(status));
  ck_assert_int_eq(native.type, TFLACCEL_NATIVE_EVENT_VULKAN_FENCE);
  ck_assert_uint_ne(native.handle, 0);
  return (VkFence)(uintptr_t)native.handle;
}

static void queued_runs_on(int mirrored) {
  vk_setup setup;
  if (!open_setup(&setup, mirrored)) return;
  device_fixture *fixture = &setup.fixture;
  enum { FRAMES = 3 };
  for (int frame = 0; frame < FRAMES; ++frame) {
    tflaccel_status status = tflaccel_compiled_model_run_async(
        fixture->compiled, setup.inputs, fixture->input_count, setup.outputs, fixture->output_count);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    for (uint32_t o = 0; o < fixture->output_count; ++o) {
      tflaccel_tensor_event *event = NULL;
      VkFence fence = output_fence(&setup, o, &event);
      ck_assert_int_eq(vkWaitForFences(setup.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
      ck_assert_int_eq(vkGetFenceStatus(setup.device, fence), VK_SUCCESS);
      ck_assert_int_eq(tflaccel_tensor_event_is_signaled(event), 1);
      status = tflaccel_tensor_event_wait(event);
      ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
      tflaccel_native_event other = {.struct_size = sizeof other};
      expect_error(
          tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, &other),
          TFLACCEL_UNSUPPORTED, "VK_KHR_timeline_semaphore");
      expect_error(tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD, &other),
                   TFLACCEL_UNSUPPORTED, "VK_KHR_external_fence_fd");
      tflaccel_tensor_event_destroy(event);
      device_fixture_check_output(fixture, o, setup.outputs[o]);
    }
  }
  for (int frame = 0; frame < FRAMES; ++frame)
    ck_assert_ptr_null(tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs,
                                                         fixture->input_count, setup.outputs,
                                                         fixture->output_count));
  for (uint32_t o = 0; o < fixture->output_count; ++o) {
    tflaccel_tensor_event *event = NULL;
    (void)output_fence(&setup, o, &event);
    tflaccel_status status = tflaccel_tensor_event_wait(event);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    tflaccel_tensor_event_destroy(event);
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  }
  printf("gpu_vk%s: run_async submitted %d frames; outputs' VkFences signalled; outputs equal "
         "the synchronous run's\n",
         mirrored ? " (mirrored buffers)" : "", 2 * FRAMES);
  close_setup(&setup);
}

START_TEST(queued_runs_export_fences) { queued_runs_on(0); }
END_TEST

START_TEST(queued_runs_export_fences_mirrored) { queued_runs_on(1); }
END_TEST

START_TEST(application_fence_gates_the_run) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  device_fixture *fixture = &setup.fixture;
  const VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence gate = VK_NULL_HANDLE;
  ck_assert_int_eq(vkCreateFence(setup.device, &info, NULL, &gate), VK_SUCCESS);
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_VULKAN_FENCE,
                                  .handle = (uint64_t)(uintptr_t)gate};
  tflaccel_tensor_event *ready = NULL;
  tflaccel_status status = tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk",
                                                                    &native, &ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], ready));
  status = tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs, fixture->input_count,
                                             setup.outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event *done = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup.outputs[0], &done));
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(done), 0);
  /* An empty submission signals the gate (gpu_vk waits for a VkFence on
   * its queue's thread, not on the queue, which stays free meanwhile). */
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(setup.device, setup.queue_family, 0, &queue);
  ck_assert_int_eq(vkQueueSubmit(queue, 0, NULL, gate), VK_SUCCESS);
  status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], NULL));
  tflaccel_tensor_event_destroy(ready);
  /* Borrowed: still the application's to destroy. */
  vkDestroyFence(setup.device, gate, NULL);

  native.handle = 0;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native,
                                                        &ready),
               TFLACCEL_INVALID_ARGUMENT, "NULL VkFence");
  native.handle = 1;
  native.type = TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native,
                                                        &ready),
               TFLACCEL_UNSUPPORTED, "VK_KHR_timeline_semaphore");
  native.type = TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native,
                                                        &ready),
               TFLACCEL_UNSUPPORTED, "VK_KHR_external_fence_fd");
  native.type = TFLACCEL_NATIVE_EVENT_OPENCL;
  expect_error(tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native,
                                                        &ready),
               TFLACCEL_UNSUPPORTED, "no cl_event events");
  ck_assert_ptr_null(ready);
  printf("gpu_vk: an application's VkFence gated a queued run; bad events refused in one line\n");
  close_setup(&setup);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("native_events_vk");
  TCase *tcase = tcase_create("native_events_vk");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, queued_runs_export_fences);
  tcase_add_test(tcase, queued_runs_export_fences_mirrored);
  tcase_add_test(tcase, application_fence_gates_the_run);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
