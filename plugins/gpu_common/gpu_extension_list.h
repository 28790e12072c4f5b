/* Extension strings as OpenCL and EGL report them: names separated by
 * spaces. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EXTENSION_LIST_H
#define TFLACCEL_GPU_COMMON_GPU_EXTENSION_LIST_H

/* 1 when the space-separated list contains name as a whole word; a NULL
 * list contains nothing. */
int gpu_extension_listed(const char *list, const char *name);

#endif
