/* What a GLES context can do: its version, whether compute shaders run, the
 * device info it implies, and its extensions. */
#ifndef TFLACCEL_GPU_GL_GL_PROBE_H
#define TFLACCEL_GPU_GL_GL_PROBE_H

#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

/* With a context of display current on the calling thread: checks that it
 * is OpenGL ES 3.1 or later (else TFLACCEL_UNAVAILABLE) and that a compute
 * shader compiles, links and writes a storage buffer (else
 * TFLACCEL_BACKEND_ERROR), and fills info. */
tflaccel_status gl_probe_device(const tflaccel_host_services *host, EGLDisplay display,
                                tflaccel_device_info *info);

/* Whether the current context lists the GL extension name. */
int gl_has_extension(const char *name);

#endif
