/* Names and checks of native sync objects (gpu_native_event.h). */
#include "config.h"

#include <stddef.h>

#include "plugins/gpu_common/gpu_native_event.h"

const char *gpu_native_event_name(int32_t type) {
  static const char *const names[TFLACCEL_NATIVE_EVENT_TYPE_COUNT] = {
      [TFLACCEL_NATIVE_EVENT_NONE] = "no native object",
      [TFLACCEL_NATIVE_EVENT_OPENCL] = "cl_event",
      [TFLACCEL_NATIVE_EVENT_GL_SYNC] = "GLsync",
      [TFLACCEL_NATIVE_EVENT_EGL_SYNC] = "EGLSyncKHR",
      [TFLACCEL_NATIVE_EVENT_VULKAN_FENCE] = "VkFence",
      [TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE] = "VkSemaphore",
      [TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD] = "sync_file fd",
      [TFLACCEL_NATIVE_EVENT_OPAQUE_FD] = "opaque semaphore fd",
  };
  if (type < 0 || type >= TFLACCEL_NATIVE_EVENT_TYPE_COUNT) return "an unknown type";
  return names[type];
}

tflaccel_status gpu_native_event_check(const tflaccel_host_services *host, const char *plugin_name,
                                       const tflaccel_native_event *native) {
  if (native == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_wrap: NULL native event",
                             plugin_name);
  if (!TFLACCEL_HAS_FIELD(tflaccel_native_event, native, value))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "%s: event_wrap: native event struct_size %u is too small",
                             plugin_name, native->struct_size);
  if (native->type <= TFLACCEL_NATIVE_EVENT_NONE || native->type >= TFLACCEL_NATIVE_EVENT_TYPE_COUNT)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "%s: event_wrap: unknown native event type %d", plugin_name,
                             (int)native->type);
  /* A sync_file fd may be 0 in principle, but never is in practice (stdin). */
  if (native->handle == 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_wrap: NULL %s", plugin_name,
                             gpu_native_event_name(native->type));
  return NULL;
}

tflaccel_status gpu_native_event_unsupported(const tflaccel_host_services *host,
                                             const char *plugin_name, int32_t type,
                                             const char *missing) {
  return host->status_make(TFLACCEL_UNSUPPORTED, "%s: no %s events: %s", plugin_name,
                           gpu_native_event_name(type), missing);
}
