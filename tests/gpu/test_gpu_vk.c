/* gpu_vk: the common GPU plugin checks, plus what only Vulkan can say: the
 * devices reported are exactly the Vulkan 1.1 devices with a compute queue
 * (queried here through an instance of the test's own), their 16-bit caps
 * follow the device features, and real GPUs come before software ones; and
 * what gpu_vk runs: a small graph in both precisions, replayed and
 * rebound, also through the fallbacks a device without 16-bit features
 * takes, through staging copies and with the core's buffers mirrored in
 * device-local memory (device_local_io = 1, what discrete GPUs get); and
 * one run's output fed to the next run on the device, in both buffer
 * kinds. The per-op numerics are the conformance suite's
 * (tests/conformance). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "tests/gpu/gpu_plugin_harness.h"
#include "tests/gpu/gpu_small_graph.h"

#define MAX_DIRECT_DEVICES 32

typedef struct direct_device {
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  VkPhysicalDeviceType type;
  int storage_16bit;
} direct_device;

static int has_compute_queue(VkPhysicalDevice physical) {
  VkQueueFamilyProperties families[32];
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, NULL);
  if (count > 32) count = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families);
  for (uint32_t i = 0; i < count; ++i)
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && families[i].queueCount > 0) return 1;
  return 0;
}

/* The devices gpu_vk should report, from an instance of the test's own. */
static uint32_t list_direct_devices(direct_device *devices) {
  const VkApplicationInfo application = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                         .apiVersion = VK_API_VERSION_1_1};
  const VkInstanceCreateInfo create_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                            .pApplicationInfo = &application};
  VkInstance instance = VK_NULL_HANDLE;
  ck_assert_int_eq(vkCreateInstance(&create_info, NULL, &instance), VK_SUCCESS);
  VkPhysicalDevice physical[MAX_DIRECT_DEVICES];
  uint32_t physical_count = MAX_DIRECT_DEVICES;
  VkResult result = vkEnumeratePhysicalDevices(instance, &physical_count, physical);
  ck_assert(result == VK_SUCCESS || result == VK_INCOMPLETE);
  uint32_t count = 0;
  for (uint32_t i = 0; i < physical_count; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(physical[i], &properties);
    if (properties.apiVersion < VK_API_VERSION_1_1 || !has_compute_queue(physical[i])) continue;
    VkPhysicalDevice16BitStorageFeatures storage16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                          .pNext = &storage16};
    vkGetPhysicalDeviceFeatures2(physical[i], &features);
    direct_device *device = &devices[count++];
    snprintf(device->name, sizeof device->name, "%s", properties.deviceName);
    device->type = properties.deviceType;
    device->storage_16bit = storage16.storageBuffer16BitAccess == VK_TRUE;
  }
  vkDestroyInstance(instance, NULL);
  return count;
}

/* Lower is more of a real GPU. */
static int realness(int32_t type) {
  switch (type) {
  case TFLACCEL_DEVICE_DISCRETE_GPU: return 0;
  case TFLACCEL_DEVICE_INTEGRATED_GPU: return 1;
  case TFLACCEL_DEVICE_OTHER: return 2;
  default: return 3;
  }
}

START_TEST(devices_match_what_vulkan_reports) {
  direct_device direct[MAX_DIRECT_DEVICES];
  uint32_t direct_count = list_direct_devices(direct);
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  uint32_t count = test.plugin->device_count(test.state);
  ck_assert_uint_eq(count, direct_count);
  int previous = -1;
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device_info info;
    gpu_test_assert_ok(test.plugin->device_info(test.state, i, &info), "device_info");
    ck_assert_msg(realness(info.type) >= previous, "%s is listed after a less capable kind",
                  info.name);
    previous = realness(info.type);
    int matched = 0;
    for (uint32_t d = 0; d < direct_count && !matched; ++d) {
      if (strncmp(direct[d].name, info.name, sizeof info.name - 1) != 0) continue;
      matched = 1;
      ck_assert_int_eq((info.caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE) != 0,
                       direct[d].storage_16bit);
      /* Software Vulkan (lavapipe) reports a CPU type: a virtual GPU here. */
      if (direct[d].type == VK_PHYSICAL_DEVICE_TYPE_CPU)
        ck_assert_int_eq(info.type, TFLACCEL_DEVICE_VIRTUAL_GPU);
      if (direct[d].type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
        ck_assert_int_eq(info.type, TFLACCEL_DEVICE_DISCRETE_GPU);
    }
    ck_assert_msg(matched, "device %s is not among Vulkan's devices", info.name);
    ck_assert_uint_gt(info.memory_bytes, 0);
  }
  gpu_test_plugin_close(&test);
}
END_TEST

/* The small graph on every device, in fp32 (exact: same operations as the
 * host) and fp16, with the plugin opened with options. */
static void check_small_graph(const char *const *options, uint32_t expected_caps_mask) {
  gpu_test_plugin test;
  gpu_test_assert_ok(gpu_test_plugin_open(&test, options), "gpu_vk init");
  ck_assert_ptr_nonnull(test.state);
  for (uint32_t index = 0; index < test.plugin->device_count(test.state); ++index) {
    tflaccel_device_info info;
    gpu_test_assert_ok(test.plugin->device_info(test.state, index, &info), "device_info");
    ck_assert_uint_eq(info.caps & ~expected_caps_mask, 0);
    tflaccel_device *device = gpu_test_device_create(&test, index);
    gpu_small_graph_check(device, TFLACCEL_PRECISION_FP32, 0.0f);
    gpu_small_graph_check(device, TFLACCEL_PRECISION_FP16, 0.01f);
    gpu_small_graph_check_misaligned(device, 16);
    device->vtable->destroy(device);
  }
  gpu_test_plugin_close(&test);
}

START_TEST(small_graph_runs_in_both_precisions) { check_small_graph(NULL, UINT32_MAX); }
END_TEST

/* float16_t storage with float arithmetic, as on a device without
 * shaderFloat16. */
START_TEST(small_graph_runs_without_float16_arithmetic) {
  static const char *const options[] = {"fp16_features", "storage", NULL};
  check_small_graph(options, ~(uint32_t)TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC);
}
END_TEST

/* Halves packed in uints, as on a device without 16-bit storage; device
 * buffers filled through staging copies, as on a discrete GPU. */
START_TEST(small_graph_runs_without_16bit_features_through_staging) {
  static const char *const options[] = {"fp16_features", "none", "staging", "1", NULL};
  check_small_graph(
      options, ~(uint32_t)(TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC | TFLACCEL_DEVICE_CAP_FP16_STORAGE));
}
END_TEST

/* The core's buffers as a discrete GPU has them: device-local, copied
 * through host-visible mirrors; also with the GPU layer's buffers staged. */
START_TEST(small_graph_runs_with_device_local_io) {
  static const char *const options[] = {"device_local_io", "1", NULL};
  check_small_graph(options, UINT32_MAX);
}
END_TEST

START_TEST(small_graph_runs_with_device_local_io_through_staging) {
  static const char *const options[] = {"device_local_io", "1", "staging", "1", NULL};
  check_small_graph(options, UINT32_MAX);
}
END_TEST

/* relu(a + b) * c of the small graph, as the host computes it. */
static void small_graph_expected(const gpu_small_graph *graph, const float *a, const float *b,
                                 float *out) {
  for (int i = 0; i < GPU_SMALL_GRAPH_VALUES; ++i) {
    float sum = a[i] + b[i];
    out[i] = (sum > 0.0f ? sum : 0.0f) * graph->constant[i % 5];
  }
}

static void assert_values(const float *got, const float *expected, const char *what) {
  for (int i = 0; i < GPU_SMALL_GRAPH_VALUES; ++i)
    ck_assert_msg(got[i] == expected[i], "%s, element %d: %g, expected %g", what, i,
                  (double)got[i], (double)expected[i]);
}

/* Partition to partition on the device, as the core binds them: run 1
 * writes x, run 2 reads x (never read or written by the host in between)
 * and an input written in two parts, and writes y; then the same with new
 * values, so that run 2 must not see run 1's old x. fp32: exact. */
static void check_chained_runs(const char *const *options) {
  gpu_test_plugin test;
  gpu_test_assert_ok(gpu_test_plugin_open(&test, options), "gpu_vk init");
  for (uint32_t index = 0; index < test.plugin->device_count(test.state); ++index) {
    tflaccel_device *device = gpu_test_device_create(&test, index);
    const tflaccel_device_vtable *vtable = device->vtable;
    gpu_small_graph graph;
    gpu_small_graph_init(&graph);
    gpu_small_graph_compile(&graph, device, TFLACCEL_PRECISION_FP32);
    const uint64_t bytes = GPU_SMALL_GRAPH_VALUES * sizeof(float);
    tflaccel_buffer *x = NULL, *y = NULL, *b2 = NULL;
    gpu_test_assert_ok(vtable->buffer_create(device, bytes, &x), "buffer_create");
    gpu_test_assert_ok(vtable->buffer_create(device, bytes, &y), "buffer_create");
    gpu_test_assert_ok(vtable->buffer_create(device, bytes, &b2), "buffer_create");
    for (int round = 0; round < 2; ++round) {
      float a[GPU_SMALL_GRAPH_VALUES], b[GPU_SMALL_GRAPH_VALUES], c[GPU_SMALL_GRAPH_VALUES];
      for (int i = 0; i < GPU_SMALL_GRAPH_VALUES; ++i) {
        a[i] = (float)((i + round * 3) % 7) - 3.0f;
        b[i] = 0.5f * (float)((i * 3 + round) % 5) - 0.25f;
        c[i] = 0.25f * (float)((i * 5 + round) % 9) - 1.0f;
      }
      gpu_test_assert_ok(vtable->buffer_write(device, graph.inputs[0], 0, a, bytes), "write a");
      gpu_test_assert_ok(vtable->buffer_write(device, graph.inputs[1], 0, b, bytes), "write b");
      const tflaccel_binding first[3] = {
          {.tensor = 0, .buffer = graph.inputs[0], .size = bytes},
          {.tensor = 1, .buffer = graph.inputs[1], .size = bytes},
          {.tensor = 4, .buffer = x, .size = bytes}};
      gpu_test_assert_ok(vtable->execute(device, graph.executable, first, 3, NULL), "run 1");
      /* A partial write must keep the rest of the buffer. */
      const uint64_t half = 16 * sizeof(float);
      gpu_test_assert_ok(vtable->buffer_write(device, b2, 0, c, half), "write c (first part)");
      gpu_test_assert_ok(vtable->buffer_write(device, b2, half, c + 16, bytes - half),
                         "write c (second part)");
      const tflaccel_binding second[3] = {{.tensor = 0, .buffer = x, .size = bytes},
                                          {.tensor = 1, .buffer = b2, .size = bytes},
                                          {.tensor = 4, .buffer = y, .size = bytes}};
      gpu_test_assert_ok(vtable->execute(device, graph.executable, second, 3, NULL), "run 2");
      float expected_x[GPU_SMALL_GRAPH_VALUES], expected_y[GPU_SMALL_GRAPH_VALUES];
      float got[GPU_SMALL_GRAPH_VALUES];
      small_graph_expected(&graph, a, b, expected_x);
      small_graph_expected(&graph, expected_x, c, expected_y);
      gpu_test_assert_ok(vtable->buffer_read(device, y, 0, got, bytes), "read y");
      assert_values(got, expected_y, round == 0 ? "y, round 1" : "y, round 2");
      gpu_test_assert_ok(vtable->buffer_read(device, x, 0, got, bytes), "read x");
      assert_values(got, expected_x, round == 0 ? "x, round 1" : "x, round 2");
    }
    vtable->buffer_destroy(device, x);
    vtable->buffer_destroy(device, y);
    vtable->buffer_destroy(device, b2);
    gpu_small_graph_release(&graph, device);
    device->vtable->destroy(device);
  }
  gpu_test_plugin_close(&test);
}

START_TEST(outputs_feed_later_runs_on_the_device) {
  static const char *const mirrored[] = {"device_local_io", "1", NULL};
  static const char *const direct[] = {"device_local_io", "0", NULL};
  check_chained_runs(mirrored);
  check_chained_runs(direct);
}
END_TEST

/* Compiles and checks the small graph on a fresh device (its own pipeline
 * set and cache). */
static void check_on_new_device(gpu_test_plugin *test) {
  tflaccel_device *device = gpu_test_device_create(test, 0);
  gpu_small_graph_check(device, TFLACCEL_PRECISION_FP32, 0.0f);
  device->vtable->destroy(device);
}

/* Two entries for the partition, its lowered program and the pipeline
 * cache its pipelines were built through (written again when the driver's
 * data grew: gpu_test_cache_check does not ask either way). */
START_TEST(pipelines_are_cached_on_disk) {
  gpu_test_cache_check("gpu_vk-", 2, 0, check_on_new_device);
}
END_TEST

START_TEST(bad_options_are_refused) {
  static const char *const bad[][3] = {{"fp16_features", "some", NULL},
                                       {"validation", "yes", NULL},
                                       {"staging", "2", NULL},
                                       {"device_local_io", "2", NULL}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    gpu_test_plugin test;
    tflaccel_status status = gpu_test_plugin_open(&test, bad[i]);
    ck_assert_msg(tflaccel_status_code_of(status) == TFLACCEL_INVALID_CONFIG,
                  "%s=%s: expected an invalid-config status, got %s", bad[i][0], bad[i][1],
                  tflaccel_status_message(status));
    ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), bad[i][0]));
    ck_assert_ptr_null(test.state);
    tflaccel_status_free(status);
  }
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_vk");
  suite_add_tcase(suite, gpu_common_test_case());
  TCase *specific = tcase_create("gpu_vk Vulkan");
  tcase_add_test(specific, devices_match_what_vulkan_reports);
  tcase_add_test(specific, small_graph_runs_in_both_precisions);
  tcase_add_test(specific, small_graph_runs_without_float16_arithmetic);
  tcase_add_test(specific, small_graph_runs_without_16bit_features_through_staging);
  tcase_add_test(specific, small_graph_runs_with_device_local_io);
  tcase_add_test(specific, small_graph_runs_with_device_local_io_through_staging);
  tcase_add_test(specific, outputs_feed_later_runs_on_the_device);
  tcase_add_test(specific, bad_options_are_refused);
  suite_add_tcase(suite, specific);
  /* Builds the programs up to three times over: slow on software drivers. */
  TCase *cache = tcase_create("gpu_vk program cache");
  tcase_set_timeout(cache, 300);
  tcase_add_test(cache, pipelines_are_cached_on_disk);
  suite_add_tcase(suite, cache);
  return gpu_test_run(suite);
}
