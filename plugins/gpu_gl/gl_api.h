/* The EGL and OpenGL ES 3.1 headers as gpu_gl uses them. Extension entry
 * points are looked up with eglGetProcAddress, never linked: gl2ext.h
 * gives their pointer types (GL_GLEXT_PROTOTYPES stays undefined). */
#ifndef TFLACCEL_GPU_GL_GL_API_H
#define TFLACCEL_GPU_GL_GL_API_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>

#endif
