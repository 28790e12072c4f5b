/* EGL and GLES error names. */
#include "config.h"

#include "plugins/gpu_gl/gl_error.h"

/* A context reports at most one error per kind; a few more reads guard
 * against drivers that keep a queue. */
#define GL_ERROR_DRAIN_LIMIT 16

const char *egl_error_name(EGLint error) {
  switch (error) {
  case EGL_SUCCESS: return "EGL_SUCCESS";
  case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
  case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
  case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
  case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
  case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
  case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
  case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
  case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
  case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
  case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
  case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
  case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
  case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
  case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
  case EGL_BAD_DEVICE_EXT: return "EGL_BAD_DEVICE_EXT";
  default: return "unknown EGL error";
  }
}

const char *gl_error_name(GLenum error) {
  switch (error) {
  case GL_NO_ERROR: return "GL_NO_ERROR";
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  case GL_ERROR_CONTEXT_LOST: return "GL_CONTEXT_LOST";
  default: return "unknown GL error";
  }
}

tflaccel_status egl_call_failed(const tflaccel_host_services *host, const char *call) {
  EGLint error = eglGetError();
  int32_t code = TFLACCEL_BACKEND_ERROR;
  if (error == EGL_BAD_ALLOC) code = TFLACCEL_OUT_OF_MEMORY;
  if (error == EGL_CONTEXT_LOST) code = TFLACCEL_DEVICE_LOST;
  return host->status_make(code, "%s failed: %s (0x%04x)", call, egl_error_name(error),
                           (unsigned)error);
}

void gl_clear_errors(void) {
  for (int i = 0; i < GL_ERROR_DRAIN_LIMIT && glGetError() != GL_NO_ERROR; ++i) {
  }
}

static tflaccel_status gl_call_failed(const tflaccel_host_services *host, const char *call,
                                      GLenum error) {
  int32_t code = error == GL_OUT_OF_MEMORY        ? TFLACCEL_OUT_OF_MEMORY
                 : error == GL_ERROR_CONTEXT_LOST ? TFLACCEL_DEVICE_LOST
                                                  : TFLACCEL_BACKEND_ERROR;
  return host->status_make(code, "%s failed: %s (0x%04x)", call, gl_error_name(error),
                           (unsigned)error);
}

tflaccel_status gl_check_error(const tflaccel_host_services *host, const char *call) {
  GLenum error = glGetError();
  if (error == GL_NO_ERROR) return NULL;
  gl_clear_errors();
  return gl_call_failed(host, call, error);
}

tflaccel_status gl_fault_failed(const tflaccel_host_services *host, const char *call,
                                gpu_fault_kind kind) {
  return gl_call_failed(host, call,
                        kind == GPU_FAULT_LOST     ? GL_ERROR_CONTEXT_LOST
                        : kind == GPU_FAULT_MEMORY ? GL_OUT_OF_MEMORY
                                                   : GL_INVALID_OPERATION);
}

tflaccel_status gl_check_call(const tflaccel_host_services *host, gpu_fault *fault,
                              const char *call, gpu_fault_kind usual) {
  gpu_fault_kind kind = gpu_fault_next(fault, call, usual);
  if (kind == GPU_FAULT_NONE) return gl_check_error(host, call);
  gl_clear_errors();
  return gl_fault_failed(host, call, kind);
}
