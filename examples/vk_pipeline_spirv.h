/* The SPIR-V of vk_pipeline's two compute shaders (vk_draw.comp,
 * vk_sum.comp), compiled by glslc at build time (examples/local.mk) into
 * the generated vk_pipeline_spirv.c. */
#ifndef TFLACCEL_EXAMPLES_VK_PIPELINE_SPIRV_H
#define TFLACCEL_EXAMPLES_VK_PIPELINE_SPIRV_H

#include <stddef.h>
#include <stdint.h>

extern const uint32_t vk_pipeline_draw_spirv[];
extern const size_t vk_pipeline_draw_spirv_size; /* bytes */
extern const uint32_t vk_pipeline_sum_spirv[];
extern const size_t vk_pipeline_sum_spirv_size;

#endif
