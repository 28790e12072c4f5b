#version 310 es
/* OpenGL ES 3.1 prelude of the GLSL kernels (compiled by the driver at run
 * time). gpu_gl appends, after it, the storage define (GPU_HALF_STORAGE:
 * halves packed two to a uint with packHalf2x16) and the work-group size
 * layout; the dispatch's parameter offset is the uniform at location 0,
 * its grid values those at 1..6. */
#if defined(GL_EXT_gpu_shader5)
#extension GL_EXT_gpu_shader5 : enable
#define GPU_PRECISE precise
#elif defined(GL_OES_gpu_shader5)
#extension GL_OES_gpu_shader5 : enable
#define GPU_PRECISE precise
#else
/* Without precise the driver may contract multiply-adds: fp32 results can
 * then differ from cpu_ref's in the last bits. */
#define GPU_PRECISE
#endif

/* highp everywhere, mediump nowhere: the sums of many taps drift past the
 * fp16 bar in half precision (common.glsl's madd4), and desktop drivers
 * compute mediump as highp anyway; fp16 is a storage format here
 * (GPU_HALF_STORAGE, packHalf2x16). */
precision highp float;
precision highp int;

layout(location = 0) uniform int params_base;
#define PARAMS_BASE params_base
/* GPU_GRID_VALUE_* (gpu_kernel_catalog.h), set where the post-op list has
 * a grid; locations 1..6. */
layout(location = 1) uniform int grid_values[6];
#define GRID_VALUE(i) grid_values[i]

/* GLSL ES has no loop attributes (prelude_vulkan.glsl's UNROLL). */
#define UNROLL

/* common.glsl's posted_slice: a known post-op list written out, not
 * looped over (NVIDIA's GLSL compiler does not unroll that loop). */
#define GPU_POSTS_WRITTEN_OUT 1
