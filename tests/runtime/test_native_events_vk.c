/* gpu_vk's native events (tflaccel.h, "Native events"), on hand_recrop
 * from tests/data with device buffers for every input and output:
 *   - run_async only submits the work: each output's event is backed by a
 *     VkFence of the accelerator's VkDevice that vkGetFenceStatus reports
 *     signalled once waited on; outputs equal the synchronous run's, frame
 *     after frame on the same buffers, with the core's buffers in host
 *     memory and mirrored (device_local_io = 1: the downloads settle when
 *     the fence is waited for);
 *   - the same event exports as the device's timeline VkSemaphore with a
 *     value that grows run after run, which vkWaitSemaphores sees reached
 *     before the outputs are checked; as an OPAQUE_FD of it (imported by
 *     the test and wrapped back as the next run's gate) and as a sync_file
 *     fd where the driver offers them, else refused naming the extension
 *     (the case says "skipped: ..."; lavapipe lacks
 *     VK_KHR_external_semaphore_fd, NVIDIA has it);
 *   - the application's VkFence, timeline VkSemaphore (signalled from the
 *     host while the run waits for it in the queue) and binary VkSemaphore
 *     (signalled by an empty submission) wrap as an input's event and
 *     gate the queued run;
 *   - NULL handles, closed fds, a sync_file with a timeline value, types
 *     the driver or gpu_vk lacks: refused in one line naming the problem.
 * When gpu_vk finds no Vulkan driver, each case says so and passes over.
 * The test runs from a built tree (tests/runtime/test_native_events_vk)
 * on any Vulkan driver: bench/device-native-sync.sh runs it on a GPU. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

/* What the driver offers gpu_vk's device, as the test finds it itself. */
typedef struct vk_offers {
  int timeline;              /* VK_KHR_timeline_semaphore */
  int semaphore_fd;          /* VK_KHR_external_semaphore_fd */
  int timeline_opaque_fd;    /* timeline semaphores export and import as OPAQUE_FD */
  int binary_sync_fd_export; /* binary semaphores export as SYNC_FD */
  int binary_opaque_fd;      /* binary semaphores export and import as OPAQUE_FD */
  int fence_sync_fd;         /* VK_KHR_external_fence_fd: fences export as SYNC_FD */
  char driver[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + VK_MAX_DRIVER_NAME_SIZE + 8];
} vk_offers;

typedef struct vk_setup {
  device_fixture fixture;
  VkPhysicalDevice physical;
  VkDevice device;
  uint32_t queue_family;
  vk_offers offers;
  PFN_vkWaitSemaphoresKHR wait_semaphores;
  PFN_vkSignalSemaphoreKHR signal_semaphore;
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
  PFN_vkImportSemaphoreFdKHR import_semaphore_fd;
  char *directory, *config;
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
} vk_setup;

static int has_extension(VkPhysicalDevice physical, const char *name) {
  uint32_t count = 0;
  ck_assert_int_eq(vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL), VK_SUCCESS);
  VkExtensionProperties *extensions = calloc(count ? count : 1, sizeof *extensions);
  ck_assert_ptr_nonnull(extensions);
  ck_assert_int_eq(vkEnumerateDeviceExtensionProperties(physical, NULL, &count, extensions),
                   VK_SUCCESS);
  int found = 0;
  for (uint32_t i = 0; i < count; ++i) found |= strcmp(extensions[i].extensionName, name) == 0;
  free(extensions);
  return found;
}

static VkExternalSemaphoreFeatureFlags
semaphore_features(VkPhysicalDevice physical, VkSemaphoreType type,
                   VkExternalSemaphoreHandleTypeFlagBits handle) {
  VkSemaphoreTypeCreateInfo type_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                         .semaphoreType = type};
  VkPhysicalDeviceExternalSemaphoreInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .pNext = &type_info,
      .handleType = handle};
  VkExternalSemaphoreProperties properties = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical, &info, &properties);
  return properties.externalSemaphoreFeatures;
}

static void find_offers(VkPhysicalDevice physical, vk_offers *offers) {
  memset(offers, 0, sizeof *offers);
  VkPhysicalDeviceDriverProperties driver = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                            .pNext = &driver};
  vkGetPhysicalDeviceProperties2(physical, &properties);
  snprintf(offers->driver, sizeof offers->driver, "%s (%s)", properties.properties.deviceName,
           driver.driverName);
  offers->timeline = has_extension(physical, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
  offers->semaphore_fd = has_extension(physical, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  if (has_extension(physical, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME)) {
    VkPhysicalDeviceExternalFenceInfo info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
        .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT};
    VkExternalFenceProperties fence = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
    vkGetPhysicalDeviceExternalFenceProperties(physical, &info, &fence);
    offers->fence_sync_fd =
        (fence.externalFenceFeatures & VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT) != 0;
  }
  if (!offers->semaphore_fd) return;
  const VkExternalSemaphoreFeatureFlags both = VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                               VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
  offers->timeline_opaque_fd =
      offers->timeline && (semaphore_features(physical, VK_SEMAPHORE_TYPE_TIMELINE,
                                              VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) &
                           both) == both;
  offers->binary_opaque_fd = (semaphore_features(physical, VK_SEMAPHORE_TYPE_BINARY,
                                                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) &
                              both) == both;
  offers->binary_sync_fd_export =
      (semaphore_features(physical, VK_SEMAPHORE_TYPE_BINARY,
                          VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT) &
       VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT) != 0;
}

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
  setup->physical = device.vk_physical_device;
  setup->device = device.vk_device;
  setup->queue_family = device.vk_queue_family;
  find_offers(setup->physical, &setup->offers);
  /* gpu_vk enabled these extensions on its device where offered. */
  if (setup->offers.timeline) {
    setup->wait_semaphores =
        (PFN_vkWaitSemaphoresKHR)vkGetDeviceProcAddr(setup->device, "vkWaitSemaphoresKHR");
    setup->signal_semaphore =
        (PFN_vkSignalSemaphoreKHR)vkGetDeviceProcAddr(setup->device, "vkSignalSemaphoreKHR");
    ck_assert_ptr_nonnull(setup->wait_semaphores);
    ck_assert_ptr_nonnull(setup->signal_semaphore);
  }
  if (setup->offers.semaphore_fd) {
    setup->get_semaphore_fd =
        (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(setup->device, "vkGetSemaphoreFdKHR");
    setup->import_semaphore_fd =
        (PFN_vkImportSemaphoreFdKHR)vkGetDeviceProcAddr(setup->device, "vkImportSemaphoreFdKHR");
    ck_assert_ptr_nonnull(setup->get_semaphore_fd);
    ck_assert_ptr_nonnull(setup->import_semaphore_fd);
  }
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
      fixture_expect_error(
          tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_GL_SYNC, &other),
          TFLACCEL_UNSUPPORTED, "no GLsync events");
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
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native, &ready),
      TFLACCEL_INVALID_ARGUMENT, "NULL VkFence");
  native.handle = 1;
  native.type = TFLACCEL_NATIVE_EVENT_OPENCL;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_vk", &native, &ready),
      TFLACCEL_UNSUPPORTED, "no cl_event events");
  ck_assert_ptr_null(ready);
  printf("gpu_vk: an application's VkFence gated a queued run; bad events refused in one line\n");
  close_setup(&setup);
}
END_TEST

/* ---- semaphores and fds ---- */

/* Zeroes the outputs, so that a run that did not write them shows. */
static void clear_outputs(const vk_setup *setup) {
  for (uint32_t o = 0; o < setup->fixture.output_count; ++o) {
    size_t size = tflaccel_tensor_buffer_byte_size(setup->outputs[o]);
    void *zeros = calloc(size ? size : 1, 1);
    ck_assert_ptr_nonnull(zeros);
    ck_assert_ptr_null(tflaccel_tensor_buffer_write(setup->outputs[o], zeros, size));
    free(zeros);
  }
}

static void set_input_events(const vk_setup *setup, tflaccel_tensor_event *event) {
  for (uint32_t i = 0; i < setup->fixture.input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup->inputs[i], event));
}

static tflaccel_tensor_event *run_queued(const vk_setup *setup) {
  const device_fixture *fixture = &setup->fixture;
  tflaccel_status status =
      tflaccel_compiled_model_run_async(fixture->compiled, setup->inputs, fixture->input_count,
                                        setup->outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event *done = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup->outputs[0], &done));
  ck_assert_ptr_nonnull(done);
  return done;
}

static void wait_and_check(const vk_setup *setup, tflaccel_tensor_event *done) {
  tflaccel_status status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < setup->fixture.output_count; ++o)
    device_fixture_check_output(&setup->fixture, o, setup->outputs[o]);
}

static tflaccel_tensor_event *wrap(const vk_setup *setup, int32_t type, uint64_t handle,
                                   uint64_t value) {
  tflaccel_native_event native = {
      .struct_size = sizeof native, .type = type, .handle = handle, .value = value};
  tflaccel_tensor_event *event = NULL;
  tflaccel_status status = tflaccel_tensor_event_create_from_native(setup->fixture.environment,
                                                                    "gpu_vk", &native, &event);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  return event;
}

static void expect_wrap_error(const vk_setup *setup, int32_t type, uint64_t handle,
                              uint64_t value, int32_t code, const char *fragment) {
  tflaccel_native_event native = {
      .struct_size = sizeof native, .type = type, .handle = handle, .value = value};
  tflaccel_tensor_event *event = NULL;
  fixture_expect_error(tflaccel_tensor_event_create_from_native(setup->fixture.environment,
                                                                "gpu_vk", &native, &event),
                       code, fragment);
  ck_assert_ptr_null(event);
}

static VkSemaphore create_semaphore(const vk_setup *setup, VkSemaphoreType type) {
  VkSemaphoreTypeCreateInfo type_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                         .semaphoreType = type};
  VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
                                .pNext = type == VK_SEMAPHORE_TYPE_TIMELINE ? &type_info : NULL};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  ck_assert_int_eq(vkCreateSemaphore(setup->device, &info, NULL, &semaphore), VK_SUCCESS);
  return semaphore;
}

static void wait_timeline(const vk_setup *setup, VkSemaphore semaphore, uint64_t value) {
  VkSemaphoreWaitInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                              .semaphoreCount = 1,
                              .pSemaphores = &semaphore,
                              .pValues = &value};
  ck_assert_int_eq(setup->wait_semaphores(setup->device, &info, UINT64_MAX), VK_SUCCESS);
}

/* The OPAQUE_FD export of done: imported by the test into a timeline
 * semaphore of its own that reaches the value, and wrapped back into
 * gpu_vk as the gate of the next run, which the test then checks. */
static void opaque_fd_round_trip(const vk_setup *setup, tflaccel_tensor_event *done) {
  tflaccel_native_event exported = {.struct_size = sizeof exported};
  tflaccel_status status =
      tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, &exported);
  if (!setup->offers.timeline_opaque_fd) {
    fixture_expect_error(status, TFLACCEL_UNSUPPORTED,
                         setup->offers.semaphore_fd ? "OPAQUE_FD" : "VK_KHR_external_semaphore_fd");
    printf("gpu_vk: OPAQUE_FD export/import skipped: %s not offered by %s\n",
           setup->offers.semaphore_fd ? "timeline OPAQUE_FD semaphores"
                                      : "VK_KHR_external_semaphore_fd",
           setup->offers.driver);
    wait_and_check(setup, done);
    return;
  }
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(exported.type, TFLACCEL_NATIVE_EVENT_OPAQUE_FD);
  ck_assert_uint_gt(exported.value, 0);
  int fd = (int)exported.handle;
  ck_assert_int_ne(fcntl(fd, F_GETFD), -1);
  /* The application's import: Vulkan takes a dup of the fd. */
  VkSemaphore mine = create_semaphore(setup, VK_SEMAPHORE_TYPE_TIMELINE);
  VkImportSemaphoreFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR,
      .semaphore = mine,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = dup(fd)};
  ck_assert_int_ge(import.fd, 0);
  ck_assert_int_eq(setup->import_semaphore_fd(setup->device, &import), VK_SUCCESS);
  wait_timeline(setup, mine, exported.value);
  wait_and_check(setup, done);
  /* Wrapped back: gpu_vk imports its dup; the fd stays the test's. */
  tflaccel_tensor_event *gate = wrap(setup, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, (uint64_t)fd,
                                     exported.value);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(gate), 1);
  ck_assert_int_ne(fcntl(fd, F_GETFD), -1);
  ck_assert_int_eq(close(fd), 0);
  clear_outputs(setup);
  set_input_events(setup, gate);
  wait_and_check(setup, run_queued(setup));
  set_input_events(setup, NULL);
  tflaccel_tensor_event_destroy(gate);
  vkDestroySemaphore(setup->device, mine, NULL);
  printf("gpu_vk: the timeline's OPAQUE_FD reached value %llu in the test's import and gated a "
         "run wrapped back\n",
         (unsigned long long)exported.value);
}

/* The sync_file export of done where the driver offers one. */
static void sync_file_export(const vk_setup *setup, tflaccel_tensor_event *done) {
  tflaccel_native_event exported = {.struct_size = sizeof exported};
  tflaccel_status status =
      tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD, &exported);
  if (!setup->offers.binary_sync_fd_export) {
    fixture_expect_error(status, TFLACCEL_UNSUPPORTED,
                         setup->offers.semaphore_fd ? "SYNC_FD" : "VK_KHR_external_semaphore_fd");
    printf("gpu_vk: sync_file export skipped: %s not offered by %s\n",
           setup->offers.semaphore_fd ? "SYNC_FD export of binary semaphores"
                                      : "VK_KHR_external_semaphore_fd",
           setup->offers.driver);
    wait_and_check(setup, done);
    return;
  }
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  int fd = (int)(int64_t)exported.handle;
  /* -1: signalled already (Vulkan's and Android's convention). */
  if (fd != -1) {
    struct pollfd ready = {.fd = fd, .events = POLLIN};
    ck_assert_int_eq(poll(&ready, 1, 60 * 1000), 1);
  }
  /* The fd is the event's: asking again gives the same one. */
  tflaccel_native_event again = {.struct_size = sizeof again};
  ck_assert_ptr_null(tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD,
                                                      &again));
  ck_assert_uint_eq(again.handle, exported.handle);
  wait_and_check(setup, done);
  printf("gpu_vk: the run's sync_file fd became readable\n");
}

START_TEST(queued_runs_export_timeline_semaphores) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  if (!setup.offers.timeline) {
    tflaccel_tensor_event *done = run_queued(&setup);
    tflaccel_native_event native = {.struct_size = sizeof native};
    fixture_expect_error(
        tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, &native),
        TFLACCEL_UNSUPPORTED, "VK_KHR_timeline_semaphore");
    wait_and_check(&setup, done);
    printf("gpu_vk: timeline semaphores skipped: VK_KHR_timeline_semaphore not offered by %s\n",
           setup.offers.driver);
    close_setup(&setup);
    return;
  }
  uint64_t handle = 0, value = 0;
  enum { FRAMES = 3 };
  for (int frame = 0; frame < FRAMES; ++frame) {
    clear_outputs(&setup);
    tflaccel_tensor_event *done = run_queued(&setup);
    tflaccel_native_event native = {.struct_size = sizeof native};
    tflaccel_status status =
        tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, &native);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    ck_assert_int_eq(native.type, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE);
    ck_assert_uint_ne(native.handle, 0);
    /* One semaphore of the device's; each run a greater value. */
    if (frame > 0) ck_assert_uint_eq(native.handle, handle);
    ck_assert_uint_gt(native.value, value);
    handle = native.handle;
    value = native.value;
    wait_timeline(&setup, (VkSemaphore)(uintptr_t)native.handle, native.value);
    if (frame == 0)
      opaque_fd_round_trip(&setup, done);
    else if (frame == 1)
      sync_file_export(&setup, done);
    else
      wait_and_check(&setup, done);
  }
  printf("gpu_vk: %d queued runs signalled the device's timeline VkSemaphore up to value %llu; "
         "outputs equal the host run's\n",
         FRAMES, (unsigned long long)value);
  close_setup(&setup);
}
END_TEST

START_TEST(application_timeline_semaphore_gates_the_run) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  if (!setup.offers.timeline) {
    printf("gpu_vk: skipped: VK_KHR_timeline_semaphore not offered by %s\n", setup.offers.driver);
    close_setup(&setup);
    return;
  }
  VkSemaphore semaphore = create_semaphore(&setup, VK_SEMAPHORE_TYPE_TIMELINE);
  tflaccel_tensor_event *ready =
      wrap(&setup, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, (uint64_t)(uintptr_t)semaphore, 2);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  clear_outputs(&setup);
  set_input_events(&setup, ready);
  tflaccel_tensor_event *done = run_queued(&setup);
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  /* Waiting in the queue for value 2, which only the host gives. */
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(done), 0);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  /* Already submitted (get_native waits for that): the wait is the
   * queue's, not a thread's. */
  tflaccel_native_event pending = {.struct_size = sizeof pending};
  tflaccel_status status =
      tflaccel_tensor_event_get_native(done, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, &pending);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  uint64_t counter = 0;
  PFN_vkGetSemaphoreCounterValueKHR get_counter = (PFN_vkGetSemaphoreCounterValueKHR)
      vkGetDeviceProcAddr(setup.device, "vkGetSemaphoreCounterValueKHR");
  ck_assert_ptr_nonnull(get_counter);
  ck_assert_int_eq(get_counter(setup.device, (VkSemaphore)(uintptr_t)pending.handle, &counter),
                   VK_SUCCESS);
  ck_assert_uint_lt(counter, pending.value);
  VkSemaphoreSignalInfo signal = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = semaphore, .value = 2};
  ck_assert_int_eq(setup.signal_semaphore(setup.device, &signal), VK_SUCCESS);
  wait_and_check(&setup, done);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  ck_assert_ptr_null(tflaccel_tensor_event_wait(ready));
  /* A wrapped event exports what it wraps, nothing else. */
  tflaccel_native_event native = {.struct_size = sizeof native};
  ck_assert_ptr_null(tflaccel_tensor_event_get_native(ready, TFLACCEL_NATIVE_EVENT_NONE, &native));
  ck_assert_int_eq(native.type, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE);
  ck_assert_uint_eq(native.handle, (uint64_t)(uintptr_t)semaphore);
  ck_assert_uint_eq(native.value, 2);
  fixture_expect_error(
      tflaccel_tensor_event_get_native(ready, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, &native),
      TFLACCEL_UNSUPPORTED, "wrapped");
  set_input_events(&setup, NULL);
  tflaccel_tensor_event_destroy(ready);
  /* Borrowed: still the application's to destroy. */
  vkDestroySemaphore(setup.device, semaphore, NULL);
  printf("gpu_vk: an application's timeline VkSemaphore, signalled from the host, gated a "
         "queued run in the queue\n");
  close_setup(&setup);
}
END_TEST

/* An empty submission of the application's that signals semaphore. */
static void signal_binary(const vk_setup *setup, VkSemaphore semaphore, VkFence fence) {
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(setup->device, setup->queue_family, 0, &queue);
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .signalSemaphoreCount = 1,
                         .pSignalSemaphores = &semaphore};
  ck_assert_int_eq(vkQueueSubmit(queue, 1, &submit, fence), VK_SUCCESS);
}

START_TEST(application_binary_semaphore_gates_the_run) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  const VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence signalled = VK_NULL_HANDLE;
  ck_assert_int_eq(vkCreateFence(setup.device, &fence_info, NULL, &signalled), VK_SUCCESS);
  /* Vulkan wants a binary semaphore's signal submitted before its wait. */
  VkSemaphore semaphore = create_semaphore(&setup, VK_SEMAPHORE_TYPE_BINARY);
  signal_binary(&setup, semaphore, VK_NULL_HANDLE);
  tflaccel_tensor_event *ready =
      wrap(&setup, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, (uint64_t)(uintptr_t)semaphore, 0);
  /* A binary semaphore's state cannot be read before a wait consumed it. */
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  clear_outputs(&setup);
  set_input_events(&setup, ready);
  wait_and_check(&setup, run_queued(&setup));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  /* Consumed by that run: the next run gated by it waits for that run. */
  clear_outputs(&setup);
  wait_and_check(&setup, run_queued(&setup));
  set_input_events(&setup, NULL);
  tflaccel_tensor_event_destroy(ready);

  /* Waited for on the CPU before any run: an empty submission consumes it. */
  signal_binary(&setup, semaphore, signalled);
  ready = wrap(&setup, TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE, (uint64_t)(uintptr_t)semaphore, 0);
  tflaccel_status status = tflaccel_tensor_event_wait(ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  tflaccel_tensor_event_destroy(ready);
  ck_assert_int_eq(vkWaitForFences(setup.device, 1, &signalled, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  vkDestroyFence(setup.device, signalled, NULL);
  vkDestroySemaphore(setup.device, semaphore, NULL);
  printf("gpu_vk: an application's binary VkSemaphore gated a queued run in the queue, once\n");
  close_setup(&setup);
}
END_TEST

/* A binary semaphore of the application's, exportable as handle. */
static VkSemaphore create_exportable_binary(const vk_setup *setup,
                                            VkExternalSemaphoreHandleTypeFlagBits handle) {
  VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, .handleTypes = handle};
  VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
                                .pNext = &export_info};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  ck_assert_int_eq(vkCreateSemaphore(setup->device, &info, NULL, &semaphore), VK_SUCCESS);
  return semaphore;
}

/* Gates a run with a wrapped fd event and checks its outputs. */
static void gate_with(const vk_setup *setup, tflaccel_tensor_event *gate) {
  clear_outputs(setup);
  set_input_events(setup, gate);
  wait_and_check(setup, run_queued(setup));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(gate), 1);
  set_input_events(setup, NULL);
  tflaccel_tensor_event_destroy(gate);
}

START_TEST(application_opaque_fd_binary_semaphore_gates_the_run) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  if (!setup.offers.binary_opaque_fd) {
    printf("gpu_vk: binary OPAQUE_FD import skipped: %s not offered by %s\n",
           setup.offers.semaphore_fd ? "binary OPAQUE_FD semaphores"
                                     : "VK_KHR_external_semaphore_fd",
           setup.offers.driver);
    close_setup(&setup);
    return;
  }
  VkSemaphore semaphore =
      create_exportable_binary(&setup, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
  signal_binary(&setup, semaphore, VK_NULL_HANDLE);
  VkSemaphoreGetFdInfoKHR get = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                 .semaphore = semaphore,
                                 .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  ck_assert_int_eq(setup.get_semaphore_fd(setup.device, &get, &fd), VK_SUCCESS);
  /* Imported temporarily into a semaphore of gpu_vk's, from a dup. */
  tflaccel_tensor_event *gate = wrap(&setup, TFLACCEL_NATIVE_EVENT_OPAQUE_FD, (uint64_t)fd, 0);
  ck_assert_int_eq(close(fd), 0);
  gate_with(&setup, gate);
  vkDestroySemaphore(setup.device, semaphore, NULL);
  printf("gpu_vk: an OPAQUE_FD of the application's binary semaphore gated a queued run\n");
  close_setup(&setup);
}
END_TEST

START_TEST(application_sync_file_gates_the_run) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  if (!setup.offers.fence_sync_fd && !setup.offers.binary_sync_fd_export) {
    printf("gpu_vk: sync_file import skipped: neither VK_KHR_external_fence_fd nor "
           "VK_KHR_external_semaphore_fd exports a sync_file on %s\n",
           setup.offers.driver);
    close_setup(&setup);
    return;
  }
  /* The application's sync_file: of a fence, or of a binary semaphore. */
  VkFence fence = VK_NULL_HANDLE;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  int fd = -1;
  if (setup.offers.fence_sync_fd) {
    VkExportFenceCreateInfo export_info = {
        .sType = VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO,
        .handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT};
    VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .pNext = &export_info};
    ck_assert_int_eq(vkCreateFence(setup.device, &info, NULL, &fence), VK_SUCCESS);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(setup.device, setup.queue_family, 0, &queue);
    ck_assert_int_eq(vkQueueSubmit(queue, 0, NULL, fence), VK_SUCCESS);
    PFN_vkGetFenceFdKHR get_fence_fd =
        (PFN_vkGetFenceFdKHR)vkGetDeviceProcAddr(setup.device, "vkGetFenceFdKHR");
    ck_assert_ptr_nonnull(get_fence_fd);
    VkFenceGetFdInfoKHR get = {.sType = VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR,
                               .fence = fence,
                               .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT};
    ck_assert_int_eq(get_fence_fd(setup.device, &get, &fd), VK_SUCCESS);
  } else {
    semaphore = create_exportable_binary(&setup, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT);
    signal_binary(&setup, semaphore, VK_NULL_HANDLE);
    VkSemaphoreGetFdInfoKHR get = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                   .semaphore = semaphore,
                                   .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT};
    ck_assert_int_eq(setup.get_semaphore_fd(setup.device, &get, &fd), VK_SUCCESS);
  }
  /* -1: signalled already, which gpu_vk takes as such. */
  uint64_t handle = fd == -1 ? UINT64_MAX : (uint64_t)fd;
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD,
                                  .handle = handle};
  tflaccel_tensor_event *gate = NULL;
  tflaccel_status status = tflaccel_tensor_event_create_from_native(setup.fixture.environment,
                                                                    "gpu_vk", &native, &gate);
  if (fd != -1) ck_assert_int_eq(close(fd), 0);
  if (status != NULL && tflaccel_status_code_of(status) == TFLACCEL_UNSUPPORTED) {
    printf("gpu_vk: sync_file import skipped: %s\n", tflaccel_status_message(status));
    fixture_expect_error(status, TFLACCEL_UNSUPPORTED, "SYNC_FD");
  } else {
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    gate_with(&setup, gate);
    printf("gpu_vk: the application's sync_file (of a %s) gated a queued run\n",
           fence != VK_NULL_HANDLE ? "fence" : "binary semaphore");
  }
  ck_assert_int_eq(vkDeviceWaitIdle(setup.device), VK_SUCCESS);
  if (fence != VK_NULL_HANDLE) vkDestroyFence(setup.device, fence, NULL);
  if (semaphore != VK_NULL_HANDLE) vkDestroySemaphore(setup.device, semaphore, NULL);
  close_setup(&setup);
}
END_TEST

START_TEST(bad_semaphores_and_fds_are_refused) {
  vk_setup setup;
  if (!open_setup(&setup, 0)) return;
  const int32_t semaphore = TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE;
  const int32_t opaque_fd = TFLACCEL_NATIVE_EVENT_OPAQUE_FD;
  const int32_t sync_file = TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD;
  expect_wrap_error(&setup, semaphore, 0, 0, TFLACCEL_INVALID_ARGUMENT, "NULL VkSemaphore");
  expect_wrap_error(&setup, opaque_fd, 0, 1, TFLACCEL_INVALID_ARGUMENT, "NULL opaque semaphore fd");
  /* An fd number that is not open (closed just now). */
  int open_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ck_assert_int_ge(open_fd, 0);
  int closed = dup(open_fd);
  ck_assert_int_ge(closed, 0);
  ck_assert_int_eq(close(closed), 0);
  expect_wrap_error(&setup, opaque_fd, (uint64_t)closed, 1, TFLACCEL_INVALID_ARGUMENT,
                    "is not an open file descriptor");
  expect_wrap_error(&setup, sync_file, (uint64_t)closed, 0, TFLACCEL_INVALID_ARGUMENT,
                    "is not an open file descriptor");
  expect_wrap_error(&setup, opaque_fd, UINT64_MAX, 0, TFLACCEL_INVALID_ARGUMENT,
                    "is not an open file descriptor");
  expect_wrap_error(&setup, sync_file, (uint64_t)open_fd, 3, TFLACCEL_INVALID_ARGUMENT,
                    "no timeline value");
  /* An open fd where the driver lacks the extension: refused naming it
   * (with the extension, /dev/null would be the driver's to refuse). */
  if (!setup.offers.semaphore_fd) {
    expect_wrap_error(&setup, opaque_fd, (uint64_t)open_fd, 1, TFLACCEL_UNSUPPORTED,
                      "VK_KHR_external_semaphore_fd");
    expect_wrap_error(&setup, sync_file, (uint64_t)open_fd, 0, TFLACCEL_UNSUPPORTED,
                      "VK_KHR_external_semaphore_fd or VK_KHR_external_fence_fd");
  }
  ck_assert_int_eq(close(open_fd), 0);
  expect_wrap_error(&setup, TFLACCEL_NATIVE_EVENT_EGL_SYNC, 1, 0, TFLACCEL_UNSUPPORTED,
                    "no EGLSyncKHR events");
  expect_wrap_error(&setup, 99, 1, 0, TFLACCEL_INVALID_ARGUMENT, "unknown native event type 99");
  printf("gpu_vk: NULL semaphores, closed fds, a sync_file with a value and foreign types "
         "refused in one line\n");
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
  tcase_add_test(tcase, queued_runs_export_timeline_semaphores);
  tcase_add_test(tcase, application_timeline_semaphore_gates_the_run);
  tcase_add_test(tcase, application_binary_semaphore_gates_the_run);
  tcase_add_test(tcase, application_opaque_fd_binary_semaphore_gates_the_run);
  tcase_add_test(tcase, application_sync_file_gates_the_run);
  tcase_add_test(tcase, bad_semaphores_and_fds_are_refused);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
