/* gpu_vk: the Vulkan accelerator. It opens a headless Vulkan instance, finds
 * the devices that can compute and gives each a logical device, a compute
 * queue and buffers; the GPU layer (plugins/gpu_common) decides which ops
 * run and lowers partitions into dispatches of the GLSL kernels in
 * kernels/glsl/, embedded as SPIR-V, which vk_backend records and submits;
 * the shared GPU plugin (plugins/gpu_common/gpu_plugin.h) does the rest.
 *
 * Options ([plugin.gpu_vk] of tflaccel.ini):
 *   device=N          use only device N of the list
 *   validation=1      enable VK_LAYER_KHRONOS_validation; any error it
 *                     reports fails the plugin call it happened in
 *   fp16_features=    all (default: what the device has), storage (no
 *                     shaderFloat16) or none (halves packed in uints): the
 *                     fallbacks, for tests
 *   staging=1         fill device buffers through staging copies even where
 *                     they could be mapped (tests that path)
 *   device_local_io=  auto (default), 1 or 0: whether the buffers the core
 *                     creates (partition inputs and outputs) are mirrored,
 *                     device-local for the kernels with a host-visible
 *                     mirror for the host, copied between in each run's one
 *                     submission (vk_buffer.h, vk_backend.h). auto: where
 *                     host-visible memory is not device-local (discrete
 *                     GPUs, whose kernels would otherwise reach the core's
 *                     buffers across the bus); elsewhere (software,
 *                     integrated) those buffers stay mapped memory the
 *                     kernels use directly, which is faster there. 1 forces
 *                     mirroring (tests that path on any device)
 *   profile=1         time every dispatch with timestamps; each compiled
 *                     partition logs where its GPU time went when destroyed */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "plugins/gpu_common/gpu_plugin.h"
#include "plugins/gpu_vk/vk_backend.h"
#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_external_memory.h"
#include "plugins/gpu_vk/vk_context.h"
#include "plugins/gpu_vk/vk_debug.h"
#include "tflaccel/accelerator.h"

typedef struct vk_plugin_state {
  const tflaccel_host_services *host;
  vk_debug debug; /* used when validation=1 */
  int32_t validation;
  int32_t stage_device_buffers;
  int32_t device_local_io; /* option device_local_io: 0, 1, or -1 for auto */
  vk_instance_context vulkan;
} vk_plugin_state;

typedef struct vk_plugin_device {
  const tflaccel_host_services *host;
  VkInstance instance; /* the plugin's */
  vk_debug *debug; /* the plugin's, or NULL without validation */
  vk_device_context vulkan;
  vk_backend_device backend_device;
  vk_memory_kind io_memory; /* of the buffers the core creates */
  gpu_fault fault;          /* the fault hook (gpu_fault.h) of this device's calls */
} vk_plugin_device;

/* ---- the plugin ---- */

/* A 0/1 option; absent is default_value. */
static tflaccel_status flag_option(const tflaccel_host_services *host, const char *key,
                                   int32_t default_value, int32_t *value) {
  const char *text = host->config_get(host->context, key);
  *value = default_value;
  if (text == NULL) return NULL;
  if (strcmp(text, "1") == 0 || strcmp(text, "true") == 0) {
    *value = 1;
  } else if (strcmp(text, "0") == 0 || strcmp(text, "false") == 0) {
    *value = 0;
  } else {
    return host->status_make(TFLACCEL_INVALID_CONFIG, "gpu_vk option %s=%s is not 0 or 1", key,
                             text);
  }
  return NULL;
}

static tflaccel_status read_options(const tflaccel_host_services *host, vk_plugin_state *self,
                                    vk_instance_options *options) {
  options->debug = NULL;
  options->use_16bit_storage = 1;
  options->use_float16 = 1;
  tflaccel_status status = flag_option(host, "validation", 0, &self->validation);
  if (status == NULL) status = flag_option(host, "staging", 0, &self->stage_device_buffers);
  if (status != NULL) return status;
  const char *device_local_io = host->config_get(host->context, "device_local_io");
  self->device_local_io = -1;
  if (device_local_io != NULL) {
    if (strcmp(device_local_io, "1") == 0 || strcmp(device_local_io, "true") == 0) {
      self->device_local_io = 1;
    } else if (strcmp(device_local_io, "0") == 0 || strcmp(device_local_io, "false") == 0) {
      self->device_local_io = 0;
    } else if (strcmp(device_local_io, "auto") != 0) {
      return host->status_make(TFLACCEL_INVALID_CONFIG,
                               "gpu_vk option device_local_io=%s is not 0, 1 or auto",
                               device_local_io);
    }
  }
  const char *features = host->config_get(host->context, "fp16_features");
  if (features != NULL) {
    if (strcmp(features, "storage") == 0) {
      options->use_float16 = 0;
    } else if (strcmp(features, "none") == 0) {
      options->use_float16 = 0;
      options->use_16bit_storage = 0;
    } else if (strcmp(features, "all") != 0) {
      return host->status_make(TFLACCEL_INVALID_CONFIG,
                               "gpu_vk option fp16_features=%s is not all, storage or none",
                               features);
    }
  }
  if (self->validation) {
    status = vk_debug_init(host, &self->debug);
    if (status != NULL) return status;
    options->debug = &self->debug;
  }
  return NULL;
}

static void close_plugin(void *state) {
  vk_plugin_state *self = state;
  const tflaccel_host_services *host = self->host;
  vk_instance_context_release(host, &self->vulkan);
  vk_debug_release(&self->debug);
  host->free(host->context, self);
}

static tflaccel_status open_plugin(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  vk_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(vk_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  vk_instance_options options;
  tflaccel_status status = read_options(host, self, &options);
  if (status == NULL) status = vk_instance_context_create(host, &options, &self->vulkan);
  if (status != NULL) {
    close_plugin(self);
    return status;
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(const void *state) {
  return ((const vk_plugin_state *)state)->vulkan.count;
}

static const tflaccel_device_info *device_info(const void *state, uint32_t index) {
  return &((const vk_plugin_state *)state)->vulkan.entries[index].info;
}

static void keep_only(void *state, uint32_t index) {
  vk_instance_context *vulkan = &((vk_plugin_state *)state)->vulkan;
  vulkan->entries[0] = vulkan->entries[index];
  vulkan->count = 1;
}

/* ---- a device ---- */

static void device_close(void *device) {
  vk_plugin_device *self = device;
  vk_backend_release(&self->backend_device);
  vk_device_context_release(self->host, &self->vulkan);
  self->host->free(self->host->context, self);
}

static tflaccel_status device_open(void *state, uint32_t index, int32_t profiling, void **device,
                                   gpu_backend *backend) {
  const vk_plugin_state *plugin = state;
  const tflaccel_host_services *host = plugin->host;
  *device = NULL;
  vk_plugin_device *self = host->alloc(host->context, sizeof *self, _Alignof(vk_plugin_device));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  self->debug = plugin->vulkan.debug;
  self->instance = plugin->vulkan.instance;
  tflaccel_status status =
      vk_device_context_create(host, &plugin->vulkan.entries[index], &self->vulkan);
  if (status != NULL) {
    host->free(host->context, self);
    return status;
  }
  self->vulkan.stage_device_buffers = plugin->stage_device_buffers;
  status = gpu_fault_init(&self->fault, host, "gpu_vk");
  self->vulkan.fault = &self->fault;
  int mirrored = plugin->device_local_io == 1;
  if (status == NULL && plugin->device_local_io < 0) {
    int device_local = 1;
    status = vk_buffer_host_memory_is_device_local(host, &self->vulkan, &device_local);
    mirrored = !device_local;
  }
  self->io_memory = mirrored ? VK_MEMORY_MIRRORED : VK_MEMORY_HOST;
  if (status == NULL)
    host->log(host->context, TFLACCEL_LOG_DEBUG, "%s: partition inputs and outputs %s",
              plugin->vulkan.entries[index].info.name,
              mirrored ? "in device-local memory, copied through host-visible mirrors"
                       : "in mapped host-visible memory");
  if (status == NULL)
    status = vk_backend_init(host, &self->vulkan, profiling, &self->backend_device, backend);
  if (status == NULL) status = vk_debug_take_errors(self->debug);
  if (status != NULL) {
    device_close(self);
    return status;
  }
  *device = self;
  return NULL;
}

/* A call's own failure wins; else a validation error reported during it. */
static tflaccel_status device_check(void *device, tflaccel_status status) {
  vk_plugin_device *self = device;
  tflaccel_status reported = vk_debug_take_errors(self->debug);
  if (status == NULL) return reported;
  if (reported != NULL) self->host->status_free(reported);
  return status;
}

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  vk_plugin_device *self = device;
  return vk_buffer_create_exportable(self->host, &self->vulkan, size, self->io_memory, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  vk_plugin_device *self = device;
  /* Not while a queued run may use it. */
  tflaccel_status drained = vk_backend_drain(&self->backend_device);
  if (drained != NULL) {
    self->host->log(self->host->context, TFLACCEL_LOG_ERROR, "%s",
                    self->host->status_message(drained));
    self->host->status_free(drained);
  }
  vk_buffer_destroy(self->host, &self->vulkan, buffer);
}

static tflaccel_status buffer_write(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                    const void *source, uint64_t size) {
  vk_plugin_device *self = device;
  return vk_backend_buffer_write(&self->backend_device, buffer, offset, source, size);
}

static tflaccel_status buffer_read(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                   void *destination, uint64_t size) {
  vk_plugin_device *self = device;
  return vk_backend_buffer_read(&self->backend_device, buffer, offset, destination, size);
}

/* Device buffers handed to the application: a buffer's VkBuffer (a
 * mirrored one's device-local side, whose mirror a run then no longer
 * refreshes: the application reads it on the device) and its memory. */
static tflaccel_status buffer_native(void *device, tflaccel_buffer *buffer,
                                     tflaccel_native_buffer *native) {
  (void)device;
  vk_buffer_hand_out(buffer);
  native->type = TFLACCEL_BUFFER_VULKAN;
  native->handle = (uint64_t)(uintptr_t)vk_buffer_handle(buffer);
  native->memory = (uint64_t)(uintptr_t)vk_buffer_memory(buffer);
  native->offset = 0;
  native->size = vk_buffer_size(buffer);
  return NULL;
}

static void device_native(void *device, tflaccel_native_device *native) {
  vk_plugin_device *self = device;
  native->type = TFLACCEL_BUFFER_VULKAN;
  native->vk_instance = self->instance;
  native->vk_physical_device = self->vulkan.entry->physical;
  native->vk_device = self->vulkan.device;
  native->vk_queue_family = self->vulkan.entry->compute_family;
  vk_external_memory_uuids(&self->vulkan, native);
}

/* The application's VkBuffer (with its memory, on this VkDevice), or an
 * fd of external memory (vk_external_memory.h). */
static tflaccel_status buffer_wrap(void *device, const tflaccel_native_buffer *native,
                                   tflaccel_buffer **buffer) {
  vk_plugin_device *self = device;
  *buffer = NULL;
  if (native->type == TFLACCEL_BUFFER_VULKAN)
    return vk_buffer_wrap(self->host, &self->vulkan, (VkBuffer)(uintptr_t)native->handle,
                          (VkDeviceMemory)(uintptr_t)native->memory, native->offset + native->size,
                          buffer);
  if (native->type == TFLACCEL_BUFFER_OPAQUE_FD || native->type == TFLACCEL_BUFFER_DMABUF)
    return vk_external_memory_import(self->host, &self->vulkan, self->io_memory, native, buffer);
  return self->host->status_make(TFLACCEL_UNSUPPORTED, "gpu_vk: takes Vulkan buffers, not type %d",
                                 (int)native->type);
}

static uint32_t buffer_wrap_types(void *device) {
  return vk_external_memory_types(&((vk_plugin_device *)device)->vulkan);
}

static tflaccel_status buffer_export(void *device, tflaccel_buffer *buffer, int32_t type,
                                     tflaccel_native_buffer *native) {
  vk_plugin_device *self = device;
  /* A buffer the core's runs may still be writing: none may run on. */
  tflaccel_status drained = vk_backend_drain(&self->backend_device);
  if (drained != NULL) return drained;
  return vk_external_memory_export(self->host, &self->vulkan, buffer, type, native);
}

static const gpu_api vk_api = {
    .api_name = "Vulkan",
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
    .device_check = device_check,
    .buffer_native = buffer_native,
    .device_native = device_native,
    .buffer_wrap = buffer_wrap,
    .has_events = 1,
    .buffer_wrap_types = buffer_wrap_types,
    .buffer_export = buffer_export,
};

GPU_PLUGIN_EXPORT(vk_api, "gpu_vk", "Vulkan compute devices through the Vulkan loader")
