/* gpu_cl: the OpenCL accelerator. It finds OpenCL devices through the ICD
 * loader and gives each a context, a queue and buffers; the GPU layer
 * (plugins/gpu_common) decides which ops run and lowers partitions into
 * dispatches of the OpenCL C kernels in kernels/cl/, which this plugin
 * builds for the device and queues. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_cl/cl_backend.h"
#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_common/gpu_executable.h"
#include "plugins/gpu_common/gpu_support.h"
#include "plugins/gpu_common/gpu_options.h"
#include "tflaccel/accelerator.h"

typedef struct cl_plugin_state {
  const tflaccel_host_services *host;
  cl_device_list devices;
  int32_t profiling; /* option profile = 1: time every dispatch */
} cl_plugin_state;

typedef struct cl_plugin_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const tflaccel_host_services *host;
  cl_device_context cl;
  cl_staging read_staging; /* for large buffer_reads */
  cl_backend_device backend_device;
  gpu_backend backend;
} cl_plugin_device;

static cl_plugin_device *plugin_device(tflaccel_device *device) {
  return (cl_plugin_device *)device;
}

/* ---- ops ---- */

static tflaccel_status supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                   uint32_t op_index, const tflaccel_compile_options *options,
                                   tflaccel_op_support *support) {
  (void)options;
  if (op_index >= graph->op_count)
    return plugin_device(device)->host->status_make(
        TFLACCEL_INVALID_ARGUMENT, "gpu_cl: supports_op: op %u of %u", op_index, graph->op_count);
  support->relative_cost = 0.0f;
  support->reason[0] = '\0';
  support->level = gpu_op_supported(graph, op_index, "gpu_cl", support->reason,
                                    sizeof support->reason)
                       ? TFLACCEL_SUPPORT_YES
                       : TFLACCEL_SUPPORT_NO;
  return NULL;
}

static tflaccel_status compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                               const tflaccel_partition_desc *partition,
                               const tflaccel_compile_options *options,
                               tflaccel_executable **executable) {
  gpu_executable *created = NULL;
  tflaccel_status status =
      gpu_executable_create(&plugin_device(device)->backend, graph, partition, options, &created);
  *executable = (tflaccel_executable *)created;
  return status;
}

static void executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  (void)device;
  gpu_executable_destroy((gpu_executable *)executable);
}

static tflaccel_status execute(tflaccel_device *device, tflaccel_executable *executable,
                               const tflaccel_binding *bindings, uint32_t binding_count,
                               tflaccel_event **completion) {
  if (completion != NULL) *completion = NULL; /* runs are synchronous */
  if (executable == NULL)
    return plugin_device(device)->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                                    "gpu_cl: execute without an executable");
  return gpu_executable_run((gpu_executable *)executable, bindings, binding_count);
}

/* ---- buffers ---- */

static tflaccel_status buffer_create(tflaccel_device *device, uint64_t size,
                                     tflaccel_buffer **buffer) {
  cl_plugin_device *self = plugin_device(device);
  return cl_buffer_create(self->host, &self->cl, size, buffer);
}

static void buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  cl_buffer_destroy(plugin_device(device)->host, buffer);
}

static tflaccel_status buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                    uint64_t offset, const void *source, uint64_t size) {
  cl_plugin_device *self = plugin_device(device);
  return cl_buffer_write(self->host, &self->cl, buffer, offset, source, size);
}

static tflaccel_status buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                   uint64_t offset, void *destination, uint64_t size) {
  cl_plugin_device *self = plugin_device(device);
  return cl_buffer_read(self->host, &self->cl, &self->read_staging, buffer, offset, destination,
                        size);
}

/* ---- devices ---- */

static void device_destroy(tflaccel_device *device) {
  cl_plugin_device *self = plugin_device(device);
  cl_backend_release(&self->backend_device);
  cl_staging_release(self->host, &self->cl, &self->read_staging);
  cl_device_context_release(self->host, &self->cl);
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
                                           cl_device_list *devices) {
  int32_t index = -1;
  tflaccel_status status = gpu_option_device(host, "gpu_cl", "OpenCL", devices->count, &index);
  if (status != NULL || index < 0) return status;
  devices->entries[0] = devices->entries[index];
  devices->count = 1;
  return NULL;
}

static void plugin_shutdown(void *state) {
  cl_plugin_state *self = state;
  if (self == NULL) return;
  const tflaccel_host_services *host = self->host;
  cl_device_list_release(host, &self->devices);
  host->free(host->context, self);
}

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  cl_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(cl_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  const char *platform_filter = host->config_get(host->context, "platform");
  tflaccel_status status = gpu_option_profile(host, "gpu_cl", &self->profiling);
  if (status == NULL) status = cl_device_list_scan(host, platform_filter, &self->devices);
  if (status == NULL) status = apply_device_option(host, &self->devices);
  if (status != NULL) {
    plugin_shutdown(self);
    return status;
  }
  for (uint32_t i = 0; i < self->devices.count; ++i) {
    const tflaccel_device_info *info = &self->devices.entries[i].info;
    host->log(host->context, TFLACCEL_LOG_INFO, "device %u: %s (%s, driver %s, %s)", (unsigned)i,
              info->name, info->vendor, info->driver_version, info->api_version);
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(void *state) { return ((cl_plugin_state *)state)->devices.count; }

static tflaccel_status device_info(void *state, uint32_t index, tflaccel_device_info *info) {
  const cl_plugin_state *self = state;
  if (index >= self->devices.count)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_cl device %u does not exist (%u found)", (unsigned)index,
                                   (unsigned)self->devices.count);
  *info = self->devices.entries[index].info;
  return NULL;
}

static tflaccel_status device_create(void *state, uint32_t index, tflaccel_device **device) {
  const cl_plugin_state *self = state;
  const tflaccel_host_services *host = self->host;
  *device = NULL;
  if (index >= self->devices.count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_cl device %u does not exist (%u found)", (unsigned)index,
                             (unsigned)self->devices.count);
  cl_plugin_device *created =
      host->alloc(host->context, sizeof *created, _Alignof(cl_plugin_device));
  if (created == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory");
  memset(created, 0, sizeof *created);
  created->base.vtable = &device_vtable;
  created->host = host;
  tflaccel_status status =
      cl_device_context_create(host, &self->devices.entries[index], self->profiling, &created->cl);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  status = cl_backend_init(host, &created->cl, &self->devices.entries[index].info, self->profiling,
                           &created->backend_device, &created->backend);
  if (status != NULL) {
    cl_device_context_release(host, &created->cl);
    host->free(host->context, created);
    return status;
  }
  *device = &created->base;
  return NULL;
}

static const tflaccel_accelerator_plugin plugin_descriptor = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "gpu_cl",
    .version = PACKAGE_VERSION,
    .description = "OpenCL devices through the ICD loader",
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
