/* gpu_cl: the common GPU plugin checks, plus what only OpenCL can say: the
 * devices reported are exactly those the ICD loader shows (queried here
 * directly), described the way OpenCL describes them, GPUs first, and the
 * platform option filters by platform. */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gpu/gpu_plugin_harness.h"

#define MAX_DIRECT_DEVICES 64

/* A device as OpenCL itself describes it. */
typedef struct direct_device {
  char name[256];
  char platform[256];
  cl_ulong memory;
  int fp16;
} direct_device;

static int direct_usable(cl_device_id device) {
  cl_device_type type = 0;
  cl_bool available = CL_FALSE, compiler = CL_FALSE;
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(
      clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL),
      CL_SUCCESS);
  return (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CPU)) &&
         available && compiler;
}

/* Every usable device of every platform, straight from OpenCL. */
static uint32_t list_direct_devices(direct_device *devices) {
  cl_platform_id platforms[16];
  cl_uint platform_count = 0;
  ck_assert_int_eq(clGetPlatformIDs(16, platforms, &platform_count), CL_SUCCESS);
  uint32_t count = 0;
  for (cl_uint p = 0; p < platform_count && p < 16; ++p) {
    cl_device_id ids[MAX_DIRECT_DEVICES];
    cl_uint found = 0;
    cl_int error =
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DIRECT_DEVICES, ids, &found);
    if (error == CL_DEVICE_NOT_FOUND) continue;
    ck_assert_int_eq(error, CL_SUCCESS);
    char platform_name[256] = "";
    ck_assert_int_eq(clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name,
                                       platform_name, NULL),
                     CL_SUCCESS);
    for (cl_uint d = 0; d < found && d < MAX_DIRECT_DEVICES && count < MAX_DIRECT_DEVICES; ++d) {
      if (!direct_usable(ids[d])) continue;
      direct_device *device = &devices[count++];
      memset(device, 0, sizeof *device);
      snprintf(device->platform, sizeof device->platform, "%s", platform_name);
      ck_assert_int_eq(
          clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof device->name - 1, device->name, NULL),
          CL_SUCCESS);
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof device->memory,
                                       &device->memory, NULL),
                       CL_SUCCESS);
      size_t size = 0;
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_EXTENSIONS, 0, NULL, &size), CL_SUCCESS);
      char *extensions = calloc(size + 1, 1);
      ck_assert_ptr_nonnull(extensions);
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_EXTENSIONS, size, extensions, NULL),
                       CL_SUCCESS);
      device->fp16 = strstr(extensions, "cl_khr_fp16") != NULL;
      free(extensions);
    }
  }
  return count;
}

static int is_gpu(int32_t type) {
  return type == TFLACCEL_DEVICE_DISCRETE_GPU || type == TFLACCEL_DEVICE_INTEGRATED_GPU;
}

START_TEST(devices_match_what_opencl_reports) {
  direct_device direct[MAX_DIRECT_DEVICES];
  uint32_t direct_count = list_direct_devices(direct);
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  uint32_t count = test.plugin->device_count(test.state);
  ck_assert_uint_eq(count, direct_count);
  int seen_non_gpu = 0;
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device_info info;
    gpu_test_assert_ok(test.plugin->device_info(test.state, i, &info), "device_info");
    /* GPUs first: no GPU after a CPU, accelerator or software device. */
    if (is_gpu(info.type))
      ck_assert_msg(!seen_non_gpu, "GPU %s comes after a non-GPU device", info.name);
    else
      seen_non_gpu = 1;
    int matched = 0;
    for (uint32_t d = 0; d < direct_count && !matched; ++d) {
      if (strncmp(direct[d].name, info.name, sizeof info.name - 1) != 0) continue;
      matched = 1;
      ck_assert_uint_eq(info.memory_bytes, direct[d].memory);
      ck_assert(info.caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE);
      ck_assert_int_eq((info.caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) != 0, direct[d].fp16);
    }
    ck_assert_msg(matched, "device %s is not among OpenCL's devices", info.name);
    ck_assert_msg(strncmp(info.api_version, "OpenCL ", 7) == 0, "api_version %s", info.api_version);
    /* PoCL's host device runs on the CPU and says so. */
    if (strstr(info.api_version, "PoCL") != NULL &&
        (strncmp(info.name, "pthread", 7) == 0 || strncmp(info.name, "cpu", 3) == 0))
      ck_assert_int_eq(info.type, TFLACCEL_DEVICE_CPU);
  }
  gpu_test_plugin_close(&test);
}
END_TEST

START_TEST(platform_option_filters_platforms) {
  direct_device direct[MAX_DIRECT_DEVICES];
  uint32_t direct_count = list_direct_devices(direct);
  ck_assert_uint_ge(direct_count, 1);
  /* The first device's platform, by name: keeps exactly its devices. */
  uint32_t on_platform = 0;
  for (uint32_t d = 0; d < direct_count; ++d)
    on_platform += strcmp(direct[d].platform, direct[0].platform) == 0;
  const char *const same[] = {"platform", direct[0].platform, NULL};
  gpu_test_plugin test;
  gpu_test_assert_ok(gpu_test_plugin_open(&test, same), "init with platform=<first platform>");
  ck_assert_uint_eq(test.plugin->device_count(test.state), on_platform);
  gpu_test_plugin_close(&test);

  const char *const none[] = {"platform", "no-such-opencl-platform", NULL};
  tflaccel_status status = gpu_test_plugin_open(&test, none);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNAVAILABLE);
  ck_assert_ptr_nonnull(
      strstr(tflaccel_status_message(status), "platform=no-such-opencl-platform"));
  ck_assert_ptr_null(test.state);
  tflaccel_status_free(status);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_cl");
  suite_add_tcase(suite, gpu_common_test_case());
  TCase *specific = tcase_create("gpu_cl OpenCL");
  tcase_add_test(specific, devices_match_what_opencl_reports);
  tcase_add_test(specific, platform_option_filters_platforms);
  suite_add_tcase(suite, specific);
  return gpu_test_run(suite);
}
