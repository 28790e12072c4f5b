/* libcpu_ref.so: the CPU reference accelerator. Always available: it is the
 * fallback for whatever a GPU plugin cannot run and the numerical reference
 * GPU plugins are compared with. One device, the host CPU; synchronous
 * execution on host memory. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugins/cpu_common/host_cpu.h"
#include "plugins/cpu_ref/device.h"

typedef struct cpu_plugin_state {
  const tflaccel_host_services *host;
  tflaccel_device_info info; /* read once at init: device_info must be pure */
  int32_t thread_override;   /* [plugin.cpu_ref] threads, 0 when unset */
} cpu_plugin_state;

static void describe_host_cpu(tflaccel_device_info *info) {
  host_cpu_describe(info);
  snprintf(info->driver_version, sizeof info->driver_version, "%s", PACKAGE_VERSION);
  snprintf(info->api_version, sizeof info->api_version, "C11");
}

static void device_destroy(tflaccel_device *device) {
  if (device == NULL) return;
  cpu_device *cpu = (cpu_device *)device;
  cpu->host->free(cpu->host->context, cpu);
}

static const tflaccel_device_vtable cpu_device_vtable = {
    .struct_size = sizeof(tflaccel_device_vtable),
    .destroy = device_destroy,
    .supports_op = cpu_supports_op,
    .compile = cpu_compile,
    .executable_destroy = cpu_executable_destroy,
    .execute = cpu_execute,
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
    .reset_state = cpu_reset_state,
};

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state_out) {
  *state_out = NULL;
  cpu_plugin_state *state = host->alloc(host->context, sizeof *state, 0);
  if (state == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory");
  state->host = host;
  tflaccel_status status = host_cpu_threads_option(host, "cpu_ref", &state->thread_override);
  if (status != NULL) {
    host->free(host->context, state);
    return status;
  }
  describe_host_cpu(&state->info);
  *state_out = state;
  return NULL;
}

static void plugin_shutdown(void *state_pointer) {
  cpu_plugin_state *state = state_pointer;
  if (state == NULL) return;
  state->host->free(state->host->context, state);
}

static uint32_t plugin_device_count(void *state) {
  (void)state;
  return 1;
}

static tflaccel_status plugin_device_info(void *state_pointer, uint32_t index,
                                          tflaccel_device_info *info) {
  cpu_plugin_state *state = state_pointer;
  return host_cpu_device_info(state->host, "cpu_ref", &state->info, index, info);
}

static tflaccel_status plugin_device_create(void *state_pointer, uint32_t index,
                                            tflaccel_device **device_out) {
  cpu_plugin_state *state = state_pointer;
  const tflaccel_host_services *host = state->host;
  *device_out = NULL;
  if (index != 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_ref has one device; there is no device %u", index);
  cpu_device *device = host->alloc(host->context, sizeof *device, 0);
  if (device == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref: no memory");
  device->base.vtable = &cpu_device_vtable;
  device->host = host;
  device->plugin_name = "cpu_ref";
  device->buffer_slack = 0;
  device->thread_override = state->thread_override;
  *device_out = &device->base;
  return NULL;
}

static const tflaccel_accelerator_plugin cpu_ref_plugin = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "cpu_ref",
    .version = PACKAGE_VERSION,
    .description = "CPU reference kernels (float32, quantized and generic), always available",
    .init = plugin_init,
    .shutdown = plugin_shutdown,
    .device_count = plugin_device_count,
    .device_info = plugin_device_info,
    .device_create = plugin_device_create,
};

TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(
    uint32_t host_abi_version) {
  if (TFLACCEL_ABI_VERSION_MAJOR(host_abi_version) != TFLACCEL_ABI_MAJOR) return NULL;
  return &cpu_ref_plugin;
}
