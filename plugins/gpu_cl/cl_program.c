/* Building the kernel catalogue (cl_program.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_kernel_sources.h"
#include "plugins/gpu_cl/cl_program.h"

/* How much of a build log a status message carries. */
#define BUILD_LOG_EXCERPT 1500

const char *cl_program_build_options(int32_t storage) {
  switch (storage) {
    case GPU_STORAGE_HALF: return "-cl-std=CL1.2 -DGPU_HALF_STORAGE";
    case GPU_STORAGE_HALF_MATH: return "-cl-std=CL1.2 -DGPU_HALF_MATH";
    default: return "-cl-std=CL1.2";
  }
}

static const char *storage_name(int32_t storage) {
  switch (storage) {
    case GPU_STORAGE_HALF: return "fp16 storage";
    case GPU_STORAGE_HALF_MATH: return "fp16 arithmetic";
    default: return "fp32";
  }
}

/* "clBuildProgram failed (...): <log excerpt>", the log on one line. */
static tflaccel_status build_failure(const tflaccel_host_services *host, cl_program program,
                                     cl_device_id device, int32_t storage, cl_int error) {
  char excerpt[BUILD_LOG_EXCERPT + 1] = "";
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
      size > 0) {
    char *log = host->alloc(host->context, size + 1, 1);
    if (log != NULL) {
      if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) ==
          CL_SUCCESS) {
        log[size] = '\0';
        size_t at = 0;
        for (size_t i = 0; log[i] != '\0' && at < BUILD_LOG_EXCERPT; ++i)
          excerpt[at++] = log[i] == '\n' || log[i] == '\r' ? ' ' : log[i];
        excerpt[at] = '\0';
      }
      host->free(host->context, log);
    }
  }
  return host->status_make(cl_error_status_code(error),
                           "clBuildProgram (the kernels, %s) failed: %s (%d): %s",
                           storage_name(storage), cl_error_name(error), (int)error,
                           excerpt[0] ? excerpt : "no build log");
}

tflaccel_status cl_program_get(const tflaccel_host_services *host, const cl_device_context *context,
                               cl_program_set *set, int32_t storage, cl_program *program) {
  *program = NULL;
  if (storage < 0 || storage >= GPU_STORAGE_MODE_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_cl: storage mode %d", (int)storage);
  if (set->programs[storage] != NULL) {
    *program = set->programs[storage];
    return NULL;
  }
  const char *options = cl_program_build_options(storage);
  cl_int error = cl_fault(context->fault, "clCreateProgramWithSource", GPU_FAULT_MEMORY);
  cl_program built =
      error != CL_SUCCESS
          ? NULL
          : clCreateProgramWithSource(context->context, gpu_cl_kernel_sources_count,
                                      (const char **)gpu_cl_kernel_sources, NULL, &error);
  if (built == NULL || error != CL_SUCCESS)
    return cl_call_failed(host, "clCreateProgramWithSource",
                          error != CL_SUCCESS ? error : CL_OUT_OF_HOST_MEMORY);
  error = cl_fault(context->fault, "clBuildProgram", GPU_FAULT_ERROR);
  if (error == CL_SUCCESS) error = clBuildProgram(built, 1, &context->device, options, NULL, NULL);
  if (error != CL_SUCCESS) {
    tflaccel_status status = build_failure(host, built, context->device, storage, error);
    clReleaseProgram(built);
    return status;
  }
  set->programs[storage] = built;
  *program = built;
  return NULL;
}

void cl_program_set_release(const tflaccel_host_services *host, cl_program_set *set) {
  for (int i = 0; i < GPU_STORAGE_MODE_COUNT; ++i) {
    if (set->programs[i] == NULL) continue;
    cl_int error = clReleaseProgram(set->programs[i]);
    if (error != CL_SUCCESS)
      host->log(host->context, TFLACCEL_LOG_WARNING, "clReleaseProgram failed: %s (%d)",
                cl_error_name(error), (int)error);
    set->programs[i] = NULL;
  }
}
