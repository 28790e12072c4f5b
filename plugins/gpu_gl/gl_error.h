/* EGL and OpenGL ES error codes as names, and statuses that name the failed
 * call. */
#ifndef TFLACCEL_GPU_GL_GL_ERROR_H
#define TFLACCEL_GPU_GL_GL_ERROR_H

#include "plugins/gpu_common/gpu_fault.h"
#include "plugins/gpu_gl/gl_api.h"
#include "tflaccel/accelerator.h"

/* "EGL_BAD_ALLOC" etc.; "unknown EGL error" for codes not listed. */
const char *egl_error_name(EGLint error);
/* "GL_OUT_OF_MEMORY" etc.; "unknown GL error" for codes not listed. */
const char *gl_error_name(GLenum error);

/* "<call> failed: <name> (0x...)" for the thread's pending EGL error
 * (eglGetError, which also clears it). */
tflaccel_status egl_call_failed(const tflaccel_host_services *host, const char *call);

/* Drops GL errors left pending by earlier calls, so that a check reports
 * only what the calls after it did. Needs a current context. */
void gl_clear_errors(void);
/* NULL when no GL error is pending, else "<call> failed: <name> (0x...)" and
 * the pending errors are cleared. Needs a current context. */
tflaccel_status gl_check_error(const tflaccel_host_services *host, const char *call);

/* GLES 3.2's GL_CONTEXT_LOST (KHR_robustness): a reset lost the context.
 * A status naming it is TFLACCEL_DEVICE_LOST. */
#define GL_ERROR_CONTEXT_LOST 0x0507

/* gl_check_error after the fault hook (gpu_fault.h): when the hook fails
 * the call, the pending errors are dropped and the status names the call
 * with GL_CONTEXT_LOST, GL_OUT_OF_MEMORY or GL_INVALID_OPERATION for its
 * kind (what gl_fault_failed makes; GL calls cannot be refused before
 * they run, so the hook fails the check after them). */
tflaccel_status gl_check_call(const tflaccel_host_services *host, gpu_fault *fault,
                              const char *call, gpu_fault_kind usual);
tflaccel_status gl_fault_failed(const tflaccel_host_services *host, const char *call,
                                gpu_fault_kind kind);

#endif
