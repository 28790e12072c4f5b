/* The OpenCL headers as gpu_cl uses them: written against OpenCL 3.0, with the
 * 1.2 entry points that every platform still has (clCreateCommandQueue), so
 * that 1.2-only platforms work too. Include this instead of <CL/cl.h>. */
#ifndef TFLACCEL_GPU_CL_CL_API_H
#define TFLACCEL_GPU_CL_CL_API_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#endif
