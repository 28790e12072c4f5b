/* The GNU build ID of the shared object this code is linked into, so that a
 * cache entry written by one build of a plugin is never taken by another
 * build of the same version (a lowered program's layout and kernels change
 * between builds; PACKAGE_VERSION alone does not say so). */
#ifndef TFLACCEL_GPU_BUILD_ID_H
#define TFLACCEL_GPU_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#define GPU_BUILD_ID_MAX 64

/* Copies up to capacity bytes of the build ID into id and returns its
 * length; 0 when the object has none (linked without --build-id). */
size_t gpu_build_id(uint8_t *id, size_t capacity);

#endif /* TFLACCEL_GPU_BUILD_ID_H */
