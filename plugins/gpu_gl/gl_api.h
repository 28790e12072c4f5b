/* The EGL and OpenGL ES 3.1 headers as gpu_gl uses them. Extension entry
 * points are looked up with eglGetProcAddress, never linked. */
#ifndef TFLACCEL_GPU_GL_GL_API_H
#define TFLACCEL_GPU_GL_GL_API_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#endif
