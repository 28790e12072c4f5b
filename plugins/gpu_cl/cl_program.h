/* The kernel catalogue built for one device: one OpenCL program per
 * storage mode, compiled from the embedded sources on first use (or loaded
 * from a partition's entry in the compiled-model cache) and kept for the device's lifetime (every
 * compile of every model reuses it). */
#ifndef TFLACCEL_GPU_CL_CL_PROGRAM_H
#define TFLACCEL_GPU_CL_CL_PROGRAM_H

#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

typedef struct cl_program_set {
  cl_program programs[GPU_STORAGE_MODE_COUNT];
} cl_program_set;

/* The clBuildProgram options of storage mode. */
const char *cl_program_build_options(int32_t storage);

/* The program for storage mode, built now if needed (or set from the
 * partition's cache entry before, cl_backend.c). A failed build's
 * status carries the start of the build log. */
tflaccel_status cl_program_get(const tflaccel_host_services *host, const cl_device_context *context,
                               cl_program_set *set, int32_t storage, cl_program *program);
void cl_program_set_release(const tflaccel_host_services *host, cl_program_set *set);

#endif
