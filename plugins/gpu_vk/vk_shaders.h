/* The GLSL kernels of kernels/glsl, compiled to SPIR-V by glslc at build
 * time (kernels/glsl/embed_spirv.sh generates the definitions into
 * kernels/glsl_spirv.c): one module per kernel of the catalogue and per
 * storage variant. */
#ifndef TFLACCEL_GPU_VK_VK_SHADERS_H
#define TFLACCEL_GPU_VK_VK_SHADERS_H

#include <stddef.h>
#include <stdint.h>

/* How a module stores and computes values; the order of embed_spirv.sh's
 * variant list. */
typedef enum vk_shader_variant {
  VK_SHADER_FP32 = 0,        /* float storage and arithmetic */
  VK_SHADER_HALF_16BIT = 1,  /* float16_t storage (storageBuffer16BitAccess), float arithmetic */
  VK_SHADER_HALF_PACKED = 2, /* halves packed two to a uint, float arithmetic */
  VK_SHADER_HALF_MATH = 3,   /* float16_t storage and arithmetic (+ shaderFloat16) */
  VK_SHADER_VARIANT_COUNT
} vk_shader_variant;

typedef struct vk_spirv {
  const uint32_t *words;
  size_t size; /* bytes */
} vk_spirv;

typedef struct vk_kernel_spirv {
  const char *name; /* the catalogue's entry name: "gpu_conv2d" */
  vk_spirv variants[VK_SHADER_VARIANT_COUNT];
} vk_kernel_spirv;

/* Indexed by gpu_kernel_id. */
extern const vk_kernel_spirv gpu_vk_spirv[];
extern const unsigned gpu_vk_spirv_count;

#endif
