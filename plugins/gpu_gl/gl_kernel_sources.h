/* The GLSL kernels of kernels/glsl, embedded as text at build time (the
 * definitions are generated into kernels/glsl_gles_sources.c by
 * kernels/embed_sources.sh): [0] the GLES prelude, [1] common.glsl, then
 * one file per kernel in the catalogue's order (gpu_kernel_catalog.h). */
#ifndef TFLACCEL_GPU_GL_GL_KERNEL_SOURCES_H
#define TFLACCEL_GPU_GL_GL_KERNEL_SOURCES_H

#define GL_KERNEL_SOURCE_PRELUDE 0
#define GL_KERNEL_SOURCE_COMMON 1
#define GL_KERNEL_SOURCE_FIRST_KERNEL 2

extern const char *const gpu_gl_kernel_sources[];
extern const unsigned gpu_gl_kernel_sources_count;

#endif
