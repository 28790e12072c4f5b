/* libcpu_xnnpack.so: the host CPU through XNNPACK (the distribution's
 * libXNNPACK and libpthreadpool). Float32 and 8-bit quantized models (per
 * tensor and per channel), fp16 inference where the CPU and the library
 * allow it. One device; synchronous execution on host memory. Ops XNNPACK
 * lacks are refused in supports_op and run on cpu_ref. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xnnpack.h>

#include "plugins/cpu_common/host_cpu.h"
#include "plugins/cpu_xnnpack/xnn_device.h"

typedef struct xnnp_plugin_state {
  const tflaccel_host_services *host;
  tflaccel_device_info info; /* read once at init: device_info must be pure */
  int32_t thread_override;   /* [plugin.cpu_xnnpack] threads, 0 when unset */
  int32_t fp16_supported;
} xnnp_plugin_state;

/* Whether this library on this CPU runs fp16 inference: XNNPACK refuses a
 * forced-fp16 runtime when it cannot. */
static int probe_fp16(void) {
  xnn_subgraph_t subgraph = NULL;
  if (xnn_create_subgraph(2, 0, &subgraph) != xnn_status_success) return 0;
  size_t dims[2] = {1, 8};
  uint32_t input = XNN_INVALID_VALUE_ID, output = XNN_INVALID_VALUE_ID;
  int supported = 0;
  if (xnn_define_tensor_value(subgraph, xnn_datatype_fp32, 2, dims, NULL, 0,
                              XNN_VALUE_FLAG_EXTERNAL_INPUT, &input) == xnn_status_success &&
      xnn_define_tensor_value(subgraph, xnn_datatype_fp32, 2, dims, NULL, 1,
                              XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &output) == xnn_status_success &&
      xnn_define_clamp(subgraph, 0.0f, 6.0f, input, output, 0) == xnn_status_success) {
    xnn_runtime_t runtime = NULL;
    if (xnn_create_runtime_v2(subgraph, NULL, XNN_FLAG_FORCE_FP16_INFERENCE, &runtime) ==
        xnn_status_success) {
      supported = 1;
      xnn_delete_runtime(runtime);
    }
  }
  xnn_delete_subgraph(subgraph);
  return supported;
}

static void describe_device(xnnp_plugin_state *state) {
  tflaccel_device_info *info = &state->info;
  host_cpu_describe(info);
  snprintf(info->vendor, sizeof info->vendor, "XNNPACK");
  snprintf(info->driver_version, sizeof info->driver_version, "libXNNPACK (distribution)");
  snprintf(info->api_version, sizeof info->api_version, "XNNPACK subgraph API");
  if (state->fp16_supported)
    info->caps |= TFLACCEL_DEVICE_CAP_FP16_STORAGE | TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC;
}

static void device_destroy(tflaccel_device *handle) {
  if (handle == NULL) return;
  xnnp_device *device = (xnnp_device *)handle;
  xnnp_device_pools_destroy(device);
  device->host->free(device->host->context, device);
}

static const tflaccel_device_vtable xnnp_device_vtable = {
    .struct_size = sizeof(tflaccel_device_vtable),
    .destroy = device_destroy,
    .supports_op = xnnp_supports_op,
    .compile = xnnp_compile,
    .executable_destroy = xnnp_executable_destroy,
    .execute = xnnp_execute,
    .buffer_create = host_buffer_create,
    .buffer_destroy = host_buffer_destroy,
    .buffer_write = host_buffer_write,
    .buffer_read = host_buffer_read,
    .buffer_map = host_buffer_map,
    .buffer_import = host_buffer_import,
    .buffer_copy = host_buffer_copy,
    .event_wait = NULL,
    .event_destroy = NULL,
    .synchronize = NULL,
    .reset_state = NULL, /* variables are refused in supports_op */
};

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state_out) {
  *state_out = NULL;
  /* xnn_initialize is idempotent and thread-safe; XNNPACK's own
   * deinitialize is never called, as the core never unloads a plugin. */
  enum xnn_status initialized = xnn_initialize(NULL);
  if (initialized == xnn_status_unsupported_hardware)
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "cpu_xnnpack: XNNPACK does not support this CPU");
  if (initialized != xnn_status_success)
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "cpu_xnnpack: XNNPACK failed to initialize (status %d)",
                             (int)initialized);
  xnnp_plugin_state *state = host->alloc(host->context, sizeof *state, 0);
  if (state == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory");
  state->host = host;
  tflaccel_status status = host_cpu_threads_option(host, "cpu_xnnpack", &state->thread_override);
  if (status != NULL) {
    host->free(host->context, state);
    return status;
  }
  state->fp16_supported = probe_fp16();
  describe_device(state);
  *state_out = state;
  return NULL;
}

static void plugin_shutdown(void *state_pointer) {
  xnnp_plugin_state *state = state_pointer;
  if (state == NULL) return;
  state->host->free(state->host->context, state);
}

static uint32_t plugin_device_count(void *state) {
  (void)state;
  return 1;
}

static tflaccel_status plugin_device_info(void *state_pointer, uint32_t index,
                                          tflaccel_device_info *info) {
  xnnp_plugin_state *state = state_pointer;
  return host_cpu_device_info(state->host, "cpu_xnnpack", &state->info, index, info);
}

static tflaccel_status plugin_device_create(void *state_pointer, uint32_t index,
                                            tflaccel_device **device_out) {
  xnnp_plugin_state *state = state_pointer;
  const tflaccel_host_services *host = state->host;
  *device_out = NULL;
  if (index != 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_xnnpack has one device; there is no device %u", index);
  xnnp_device *device = host->alloc(host->context, sizeof *device, 0);
  if (device == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory");
  memset(device, 0, sizeof *device);
  device->base.vtable = &xnnp_device_vtable;
  device->host = host;
  device->plugin_name = "cpu_xnnpack";
  device->buffer_slack = XNN_EXTRA_BYTES; /* XNNPACK reads past an input's end */
  device->thread_override = state->thread_override;
  device->fp16_supported = state->fp16_supported;
  *device_out = &device->base;
  return NULL;
}

static const tflaccel_accelerator_plugin cpu_xnnpack_plugin = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "cpu_xnnpack",
    .version = PACKAGE_VERSION,
    .description = "CPU through XNNPACK (float32, int8/uint8 quantized, fp16 where supported)",
    .init = plugin_init,
    .shutdown = plugin_shutdown,
    .device_count = plugin_device_count,
    .device_info = plugin_device_info,
    .device_create = plugin_device_create,
};

TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(
    uint32_t host_abi_version) {
  if (TFLACCEL_ABI_VERSION_MAJOR(host_abi_version) != TFLACCEL_ABI_MAJOR) return NULL;
  return &cpu_xnnpack_plugin;
}
