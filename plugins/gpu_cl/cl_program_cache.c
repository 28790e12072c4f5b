/* gpu_cl's program binary cache (cl_program_cache.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_cl/cl_program_cache.h"
#include "plugins/gpu_common/gpu_disk_cache.h"

/* Adds a string the device or its platform reports. */
static void add_info(gpu_disk_cache_key_builder *key, const cl_device_context *context,
                     cl_device_info name, int of_platform) {
  char text[512] = "";
  if (of_platform) {
    cl_platform_id platform = NULL;
    if (clGetDeviceInfo(context->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) ==
        CL_SUCCESS)
      clGetPlatformInfo(platform, (cl_platform_info)name, sizeof text - 1, text, NULL);
  } else {
    clGetDeviceInfo(context->device, name, sizeof text - 1, text, NULL);
  }
  gpu_disk_cache_key_add_string(key, text);
}

void cl_program_cache_add_device(const cl_device_context *context, const char *options,
                                 const char *const *sources, uint32_t count,
                                 gpu_disk_cache_key_builder *builder) {
  gpu_disk_cache_key_add_string(builder, "gpu_cl program binary");
  add_info(builder, context, CL_PLATFORM_NAME, 1);
  add_info(builder, context, CL_PLATFORM_VERSION, 1);
  add_info(builder, context, CL_DEVICE_NAME, 0);
  add_info(builder, context, CL_DEVICE_VERSION, 0);
  add_info(builder, context, CL_DRIVER_VERSION, 0);
  gpu_disk_cache_key_add_string(builder, options);
  for (uint32_t i = 0; i < count; ++i) gpu_disk_cache_key_add_string(builder, sources[i]);
}

cl_program cl_program_cache_load(const gpu_disk_cache *disk, const cl_device_context *context,
                                 const char *options, const gpu_disk_cache_key *key) {
  const tflaccel_host_services *host = disk->host;
  void *binary = NULL;
  uint32_t size = 0, tag = 0;
  if (!gpu_disk_cache_read(disk, key, &binary, &size, &tag)) return NULL;
  size_t length = size;
  const unsigned char *bytes = binary;
  cl_int binary_status = CL_SUCCESS, error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context->context, 1, &context->device, &length,
                                                 &bytes, &binary_status, &error);
  /* A binary still needs clBuildProgram; the driver refuses one of another
   * version or device here or there. */
  if (program != NULL && (error != CL_SUCCESS || binary_status != CL_SUCCESS ||
                          clBuildProgram(program, 1, &context->device, options, NULL, NULL) !=
                              CL_SUCCESS)) {
    clReleaseProgram(program);
    program = NULL;
  }
  host->free(host->context, binary);
  host->log(host->context, program != NULL ? TFLACCEL_LOG_DEBUG : TFLACCEL_LOG_INFO,
            "program cache: the verified binary was %s",
            program != NULL ? "loaded" : "refused by the driver; building from source");
  return program;
}

void cl_program_cache_store(const gpu_disk_cache *disk, const gpu_disk_cache_key *key,
                            cl_program program) {
  const tflaccel_host_services *host = disk->host;
  if (!gpu_disk_cache_enabled(disk)) return;
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
      size == 0 || size > GPU_DISK_CACHE_MAX_BYTES)
    return;
  unsigned char *binary = host->alloc(host->context, size, 16);
  if (binary == NULL) return;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) == CL_SUCCESS)
    gpu_disk_cache_write(disk, key, "OpenCL program binary", binary,
                         (uint32_t)size, 0);
  host->free(host->context, binary);
}
