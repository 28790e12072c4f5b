/* gpu_vk: the Vulkan accelerator. It opens a headless Vulkan instance, finds
 * the devices that can compute and gives each a logical device, a compute
 * queue and buffers; kernels arrive in a later stage, so for now it accepts
 * no ops and says why. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_context.h"
#include "tflaccel/accelerator.h"

#define GPU_VK_NO_KERNELS_REASON \
  "gpu_vk has no kernels yet: GPU execution lands with the gpu_vk kernels issue"

typedef struct vk_plugin_state {
  const tflaccel_host_services *host;
  vk_instance_context vulkan;
} vk_plugin_state;

typedef struct vk_plugin_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const tflaccel_host_services *host;
  vk_device_context vulkan;
} vk_plugin_device;

static vk_plugin_device *plugin_device(tflaccel_device *device) {
  return (vk_plugin_device *)device;
}

/* ---- ops: none until the kernels land ---- */

static tflaccel_status supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                   uint32_t op_index, const tflaccel_compile_options *options,
                                   tflaccel_op_support *support) {
  (void)device;
  (void)graph;
  (void)op_index;
  (void)options;
  support->level = TFLACCEL_SUPPORT_NO;
  support->relative_cost = 0.0f;
  snprintf(support->reason, sizeof support->reason, "%s", GPU_VK_NO_KERNELS_REASON);
  return NULL;
}

static tflaccel_status compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                               const tflaccel_partition_desc *partition,
                               const tflaccel_compile_options *options,
                               tflaccel_executable **executable) {
  (void)graph;
  (void)partition;
  (void)options;
  *executable = NULL;
  return plugin_device(device)->host->status_make(TFLACCEL_UNSUPPORTED, "%s",
                                                  GPU_VK_NO_KERNELS_REASON);
}

/* compile() creates no executable yet, so there is never one to release. */
static void executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  (void)device;
  (void)executable;
}

static tflaccel_status execute(tflaccel_device *device, tflaccel_executable *executable,
                               const tflaccel_binding *bindings, uint32_t binding_count,
                               tflaccel_event **completion) {
  (void)executable;
  (void)bindings;
  (void)binding_count;
  if (completion != NULL) *completion = NULL;
  return plugin_device(device)->host->status_make(TFLACCEL_UNSUPPORTED, "%s",
                                                  GPU_VK_NO_KERNELS_REASON);
}

/* ---- buffers ---- */

static tflaccel_status buffer_create(tflaccel_device *device, uint64_t size,
                                     tflaccel_buffer **buffer) {
  vk_plugin_device *self = plugin_device(device);
  return vk_buffer_create(self->host, &self->vulkan, size, buffer);
}

static void buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  vk_plugin_device *self = plugin_device(device);
  vk_buffer_destroy(self->host, &self->vulkan, buffer);
}

static tflaccel_status buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                    uint64_t offset, const void *source, uint64_t size) {
  return vk_buffer_write(plugin_device(device)->host, buffer, offset, source, size);
}

static tflaccel_status buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                   uint64_t offset, void *destination, uint64_t size) {
  return vk_buffer_read(plugin_device(device)->host, buffer, offset, destination, size);
}

/* ---- devices ---- */

static void device_destroy(tflaccel_device *device) {
  vk_plugin_device *self = plugin_device(device);
  vk_device_context_release(self->host, &self->vulkan);
  self->host->free(self->host->context, self);
}

static const tflaccel_device_vtable device_vtable = {
    .struct_size = sizeof(tflaccel_device_vtable),
    .destroy = device_destroy,
    .supports_op = supports_op,
    .compile = compile,
    .executable_destroy = executable_destroy,
    .execute = execute,
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_write = buffer_write,
    .buffer_read = buffer_read,
};

/* ---- plugin ---- */

/* Keeps only device `device` (the option) of the list found. */
static tflaccel_status apply_device_option(const tflaccel_host_services *host,
                                           vk_instance_context *vulkan) {
  const char *text = host->config_get(host->context, "device");
  if (text == NULL) return NULL;
  char *end = NULL;
  errno = 0;
  unsigned long index = strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
    return host->status_make(TFLACCEL_INVALID_CONFIG,
                             "gpu_vk option device=%s is not a device index", text);
  if (index >= vulkan->count)
    return host->status_make(TFLACCEL_INVALID_CONFIG,
                             "gpu_vk option device=%s: only %u Vulkan device(s) found", text,
                             (unsigned)vulkan->count);
  vulkan->entries[0] = vulkan->entries[index];
  vulkan->count = 1;
  return NULL;
}

static void plugin_shutdown(void *state) {
  vk_plugin_state *self = state;
  if (self == NULL) return;
  const tflaccel_host_services *host = self->host;
  vk_instance_context_release(host, &self->vulkan);
  host->free(host->context, self);
}

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  vk_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(vk_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  tflaccel_status status = vk_instance_context_create(host, &self->vulkan);
  if (status == NULL) status = apply_device_option(host, &self->vulkan);
  if (status != NULL) {
    plugin_shutdown(self);
    return status;
  }
  for (uint32_t i = 0; i < self->vulkan.count; ++i) {
    const tflaccel_device_info *info = &self->vulkan.entries[i].info;
    host->log(host->context, TFLACCEL_LOG_INFO, "device %u: %s (%s, driver %s, %s)", (unsigned)i,
              info->name, info->vendor, info->driver_version, info->api_version);
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(void *state) { return ((vk_plugin_state *)state)->vulkan.count; }

static tflaccel_status device_info(void *state, uint32_t index, tflaccel_device_info *info) {
  const vk_plugin_state *self = state;
  if (index >= self->vulkan.count)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_vk device %u does not exist (%u found)", (unsigned)index,
                                   (unsigned)self->vulkan.count);
  *info = self->vulkan.entries[index].info;
  return NULL;
}

static tflaccel_status device_create(void *state, uint32_t index, tflaccel_device **device) {
  const vk_plugin_state *self = state;
  const tflaccel_host_services *host = self->host;
  *device = NULL;
  if (index >= self->vulkan.count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_vk device %u does not exist (%u found)", (unsigned)index,
                             (unsigned)self->vulkan.count);
  vk_plugin_device *created =
      host->alloc(host->context, sizeof *created, _Alignof(vk_plugin_device));
  if (created == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory");
  memset(created, 0, sizeof *created);
  created->base.vtable = &device_vtable;
  created->host = host;
  tflaccel_status status =
      vk_device_context_create(host, &self->vulkan.entries[index], &created->vulkan);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  *device = &created->base;
  return NULL;
}

static const tflaccel_accelerator_plugin plugin_descriptor = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "gpu_vk",
    .version = PACKAGE_VERSION,
    .description = "Vulkan compute devices through the Vulkan loader",
    .init = plugin_init,
    .shutdown = plugin_shutdown,
    .device_count = device_count,
    .device_info = device_info,
    .device_create = device_create,
};

TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(
    uint32_t host_abi_version) {
  if (TFLACCEL_ABI_VERSION_MAJOR(host_abi_version) != TFLACCEL_ABI_MAJOR) return NULL;
  return &plugin_descriptor;
}
