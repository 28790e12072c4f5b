/* gpu_cl: the OpenCL accelerator. It finds OpenCL devices through the ICD
 * loader and gives each a context, a queue and buffers; the shared GPU
 * plugin (plugins/gpu_common/gpu_plugin.h) does the rest: the GPU layer
 * decides which ops run and lowers partitions into dispatches of the
 * OpenCL C kernels in kernels/cl/, which cl_backend builds and queues.
 *
 * Options (section [plugin.gpu_cl]): platform=TEXT (only platforms whose
 * name or vendor contain it), device=N, profile=1 (gpu_plugin.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_cl/cl_backend.h"
#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_external_memory.h"
#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_cl/cl_native.h"
#include "plugins/gpu_cl/cl_staging.h"
#include "plugins/gpu_common/gpu_plugin.h"
#include "tflaccel/accelerator.h"

typedef struct cl_plugin_state {
  const tflaccel_host_services *host;
  cl_device_list devices;
} cl_plugin_state;

typedef struct cl_plugin_device {
  const tflaccel_host_services *host;
  cl_platform_id platform;
  cl_device_context cl;
  cl_staging read_staging; /* for large buffer reads */
  cl_backend_device backend_device;
  gpu_fault fault; /* the fault hook (gpu_fault.h) of this device's calls */
  cl_external_memory external; /* imported opaque fds (cl_external_memory.h) */
} cl_plugin_device;

static void close_plugin(void *state) {
  cl_plugin_state *self = state;
  cl_device_list_release(self->host, &self->devices);
  self->host->free(self->host->context, self);
}

static tflaccel_status open_plugin(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  cl_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(cl_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  tflaccel_status status =
      cl_device_list_scan(host, host->config_get(host->context, "platform"), &self->devices);
  if (status != NULL) {
    close_plugin(self);
    return status;
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(const void *state) {
  return ((const cl_plugin_state *)state)->devices.count;
}

static const tflaccel_device_info *device_info(const void *state, uint32_t index) {
  return &((const cl_plugin_state *)state)->devices.entries[index].info;
}

static void keep_only(void *state, uint32_t index) {
  cl_device_list *devices = &((cl_plugin_state *)state)->devices;
  devices->entries[0] = devices->entries[index];
  devices->count = 1;
}

static void device_close(void *device) {
  cl_plugin_device *self = device;
  cl_backend_release(&self->backend_device);
  cl_external_memory_release_all(self->host, &self->external);
  cl_staging_release(self->host, &self->cl, &self->read_staging);
  cl_device_context_release(self->host, &self->cl);
  self->host->free(self->host->context, self);
}

static tflaccel_status device_open(void *state, uint32_t index, int32_t profiling, void **device,
                                   gpu_backend *backend) {
  const cl_plugin_state *plugin = state;
  const tflaccel_host_services *host = plugin->host;
  const cl_device_entry *entry = &plugin->devices.entries[index];
  *device = NULL;
  cl_plugin_device *self = host->alloc(host->context, sizeof *self, _Alignof(cl_plugin_device));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  self->platform = entry->platform;
  tflaccel_status status = cl_device_context_create(host, entry, profiling, &self->cl);
  if (status != NULL) {
    host->free(host->context, self);
    return status;
  }
  status = gpu_fault_init(&self->fault, host, "gpu_cl");
  self->cl.fault = &self->fault;
  if (status == NULL)
    status =
        cl_backend_init(host, &self->cl, &entry->info, profiling, &self->backend_device, backend);
  if (status != NULL) {
    device_close(self);
    return status;
  }
  cl_external_memory_init(&self->external, self->platform, self->cl.device);
  self->backend_device.external = &self->external;
  *device = self;
  return NULL;
}

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  cl_plugin_device *self = device;
  return cl_buffer_create(self->host, &self->cl, size, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  cl_plugin_device *self = device;
  cl_external_memory_forget(&self->external, cl_buffer_memory(buffer));
  cl_buffer_destroy(self->host, buffer);
}

static tflaccel_status buffer_write(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                    const void *source, uint64_t size) {
  cl_plugin_device *self = device;
  return cl_buffer_write(self->host, &self->cl, buffer, offset, source, size);
}

static tflaccel_status buffer_read(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                   void *destination, uint64_t size) {
  cl_plugin_device *self = device;
  return cl_buffer_read(self->host, &self->cl, &self->read_staging, buffer, offset, destination,
                        size);
}

static tflaccel_status buffer_native(void *device, tflaccel_buffer *buffer,
                                     tflaccel_native_buffer *native) {
  (void)device;
  return cl_native_buffer(buffer, native);
}

static void device_native(void *device, tflaccel_native_device *native) {
  cl_plugin_device *self = device;
  cl_native_device(&self->cl, self->platform, native);
  memcpy(native->device_uuid, self->external.device_uuid, sizeof native->device_uuid);
  memcpy(native->driver_uuid, self->external.driver_uuid, sizeof native->driver_uuid);
}

static tflaccel_status buffer_wrap(void *device, const tflaccel_native_buffer *native,
                                   tflaccel_buffer **buffer) {
  cl_plugin_device *self = device;
  if (native->type == TFLACCEL_BUFFER_OPAQUE_FD || native->type == TFLACCEL_BUFFER_DMABUF)
    return cl_external_memory_import(self->host, &self->external, &self->cl, native, buffer);
  return cl_native_wrap(self->host, &self->cl, native, buffer);
}

static uint32_t buffer_wrap_types(void *device) {
  return ((cl_plugin_device *)device)->external.opaque_fd ? 1u << TFLACCEL_BUFFER_OPAQUE_FD : 0;
}

static const gpu_api cl_api = {
    .api_name = "OpenCL",
    .open = open_plugin,
    .close = close_plugin,
    .device_count = device_count,
    .device_info = device_info,
    .keep_only = keep_only,
    .device_open = device_open,
    .device_close = device_close,
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_write = buffer_write,
    .buffer_read = buffer_read,
    .buffer_native = buffer_native,
    .device_native = device_native,
    .buffer_wrap = buffer_wrap,
    .buffer_wrap_types = buffer_wrap_types,
    .has_events = 1,
};

GPU_PLUGIN_EXPORT(cl_api, "gpu_cl", "OpenCL devices through the ICD loader")
