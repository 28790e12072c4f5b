/* The accelerator plugin of every GPU API, written once: the plugin entry
 * (init, devices, their info), the device vtable of accelerator.h
 * (supports_op, compile, execute, buffers) and the options every GPU
 * plugin shares (device=N, profile=1). Each API folder supplies one
 * static const gpu_api table: how to find its devices, open one (filling
 * the GPU layer's gpu_backend) and move the core's buffers, plus optional
 * hooks (gpu_gl runs every call on its context's worker thread, gpu_vk
 * adds what its validation layer reported during a call). Its plugin.c is
 * then GPU_PLUGIN_EXPORT(table). */
#ifndef TFLACCEL_GPU_COMMON_GPU_PLUGIN_H
#define TFLACCEL_GPU_COMMON_GPU_PLUGIN_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_backend.h"
#include "tflaccel/accelerator.h"

typedef tflaccel_status (*gpu_device_job)(void *argument);

typedef struct gpu_api {
  const char *api_name; /* "OpenCL": names devices in messages */

  /* ---- the plugin: state is the API's own ---- */

  /* Reads the API's own options (host->config_get), then finds its
   * devices. A bad option is TFLACCEL_INVALID_CONFIG naming it. */
  tflaccel_status (*open)(const tflaccel_host_services *host, void **state);
  void (*close)(void *state);
  uint32_t (*device_count)(const void *state);
  const tflaccel_device_info *(*device_info)(const void *state, uint32_t index);
  /* Optional: where device index was found, for the log ("EGL device 0"). */
  const char *(*device_origin)(const void *state, uint32_t index);
  /* Keeps only device index of those found (the option device=N). */
  void (*keep_only)(void *state, uint32_t index);

  /* ---- a device: device is the API's own ---- */

  /* Opens device index, and fills backend (its ops, device, host and
   * caps; plugin_name is the plugin's) for the GPU layer. profiling: the option
   * profile=1, time every dispatch. On failure nothing is left open. */
  tflaccel_status (*device_open)(void *state, uint32_t index, int32_t profiling, void **device,
                                 gpu_backend *backend);
  void (*device_close)(void *device);

  /* The buffers the core creates on the device (partition inputs and
   * outputs) and the host's copies into and out of them. */
  tflaccel_status (*buffer_create)(void *device, uint64_t size, tflaccel_buffer **buffer);
  void (*buffer_destroy)(void *device, tflaccel_buffer *buffer);
  tflaccel_status (*buffer_write)(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                  const void *source, uint64_t size);
  tflaccel_status (*buffer_read)(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                 void *destination, uint64_t size);

  /* Optional: runs job(argument) where the device's API calls must be
   * made and returns its status (gpu_gl: on the worker thread that owns
   * the context). NULL: on the calling thread. */
  tflaccel_status (*device_call)(void *device, gpu_device_job job, void *argument);
  /* Optional: the status of a device call, with what the API reported
   * while it ran (gpu_vk: validation errors). The call's own failure
   * wins. NULL: status as it is. */
  tflaccel_status (*device_check)(void *device, tflaccel_status status);

  /* Optional (all three or none): device buffers handed to the
   * application (tflaccel.h). The native object of a buffer made by
   * buffer_create; the device's API objects (type and handles: the GPU
   * layer fills offset_alignment); a buffer around the application's
   * object, checked to belong to this device and to hold native->offset +
   * native->size bytes (a type or extension the driver lacks:
   * TFLACCEL_UNSUPPORTED naming it). Run through device_call like the rest. */
  tflaccel_status (*buffer_native)(void *device, tflaccel_buffer *buffer,
                                   tflaccel_native_buffer *native);
  void (*device_native)(void *device, tflaccel_native_device *native);
  tflaccel_status (*buffer_wrap)(void *device, const tflaccel_native_buffer *native,
                                 tflaccel_buffer **buffer);

  /* 1 when every device's backend has the asynchronous calls
   * (gpu_backend_ops.sequence_submit and the events): its devices report
   * TFLACCEL_DEVICE_CAP_ASYNC. */
  int32_t has_events;

  /* Optional, each (ABI 1.3): external memory. The buffer types
   * beyond the API's own that buffer_wrap takes on this device (a mask of
   * 1u << tflaccel_buffer_type, from what the driver offers; read without
   * an API call), and the native object of type (an fd the caller owns)
   * for a buffer made by buffer_create, as accelerator.h's buffer_export. */
  uint32_t (*buffer_wrap_types)(void *device);
  tflaccel_status (*buffer_export)(void *device, tflaccel_buffer *buffer, int32_t type,
                                   tflaccel_native_buffer *native);
} gpu_api;

/* The plugin entry's calls for api (GPU_PLUGIN_EXPORT wires them);
 * plugin is the descriptor they serve (its name names the plugin). */
tflaccel_status gpu_plugin_init(const gpu_api *api, const tflaccel_accelerator_plugin *plugin,
                                const tflaccel_host_services *host, void **state);
void gpu_plugin_shutdown(void *state);
uint32_t gpu_plugin_device_count(void *state);
tflaccel_status gpu_plugin_device_info(void *state, uint32_t index, tflaccel_device_info *info);
tflaccel_status gpu_plugin_device_create(void *state, uint32_t index, tflaccel_device **device);

/* The one exported entry symbol of the GPU plugin name_literal (a string
 * literal) whose API table is `table` (a static const gpu_api);
 * PACKAGE_VERSION comes from config.h. */
#define GPU_PLUGIN_EXPORT(table, name_literal, text)                                          \
  static const tflaccel_accelerator_plugin gpu_plugin_descriptor;                             \
  static tflaccel_status gpu_plugin_init_api(const tflaccel_host_services *host,              \
                                             void **state) {                                  \
    return gpu_plugin_init(&(table), &gpu_plugin_descriptor, host, state);                    \
  }                                                                                           \
  static const tflaccel_accelerator_plugin gpu_plugin_descriptor = {                          \
      .struct_size = sizeof(tflaccel_accelerator_plugin),                                     \
      .abi_version = TFLACCEL_ABI_VERSION,                                                    \
      .name = name_literal,                                                                   \
      .version = PACKAGE_VERSION,                                                             \
      .description = text,                                                                    \
      .init = gpu_plugin_init_api,                                                            \
      .shutdown = gpu_plugin_shutdown,                                                        \
      .device_count = gpu_plugin_device_count,                                                \
      .device_info = gpu_plugin_device_info,                                                  \
      .device_create = gpu_plugin_device_create,                                              \
  };                                                                                          \
  TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(       \
      uint32_t host_abi_version) {                                                            \
    if (TFLACCEL_ABI_VERSION_MAJOR(host_abi_version) != TFLACCEL_ABI_MAJOR) return NULL;      \
    return &gpu_plugin_descriptor;                                                            \
  }

#endif
