#version 450
#extension GL_EXT_control_flow_attributes : require
/* Vulkan prelude of the GLSL kernels (compiled by glslc into SPIR-V at
 * build time). The storage defines come from the command line:
 *   GPU_HALF_STORAGE    half storage, float arithmetic
 *   GPU_HALF_MATH       half storage and arithmetic (shaderFloat16)
 *   GPU_STORAGE_16BIT   halves stored as float16_t (storageBuffer16BitAccess);
 *                       without it two halves are packed in a uint
 * Work-group sizes are specialization constants 0..2, the post-op list is
 * 3; the dispatch's parameter offset and its grid values are push
 * constants. */
#if defined(GPU_STORAGE_16BIT)
#extension GL_EXT_shader_16bit_storage : require
#endif
#if defined(GPU_HALF_MATH)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
/* The dispatch's post-op list (common.glsl's POST_LIST; gpu_vk makes a
 * pipeline per list, 0 for none known). */
layout(constant_id = 3) const uint POST_LIST = 0u;
#define GPU_POST_LIST_DECLARED 1
layout(push_constant) uniform DispatchConstants {
  int base;
  int grid[6]; /* GPU_GRID_VALUE_* (gpu_kernel_catalog.h) */
} dispatch_constants;
#define PARAMS_BASE dispatch_constants.base
#define GRID_VALUE(i) dispatch_constants.grid[i]

/* SPIR-V NoContraction: operations feeding a precise variable are never
 * fused into multiply-adds. */
#define GPU_PRECISE precise

/* Declare scalar views of the float tensors (common.glsl): Vulkan counts
 * descriptors, not the blocks aliasing them. */
#define GPU_SCALAR_VIEWS 1

/* Loops the compiler should unroll ([[unroll]]): the depthwise taps, whose
 * bounds are constants after inlining (gpu_vk, H200: pose_landmark_lite
 * 1.094 -> 1.060 ms, hand_landmark_lite 0.685 -> 0.640 ms). */
#define UNROLL [[unroll]]
