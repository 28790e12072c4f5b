/* The OpenCL C sources of kernels/cl/, embedded at build time (the
 * definitions are generated into kernels/cl_kernel_sources.c). They are
 * concatenated in this order into one program per precision. */
#ifndef TFLACCEL_GPU_CL_CL_KERNEL_SOURCES_H
#define TFLACCEL_GPU_CL_CL_KERNEL_SOURCES_H

extern const char *const gpu_cl_kernel_sources[];
extern const unsigned gpu_cl_kernel_sources_count;

#endif
