/* gpu_vk: the Vulkan accelerator. It opens a headless Vulkan instance, finds
 * the devices that can compute and gives each a logical device, a compute
 * queue and buffers; the GPU layer (plugins/gpu_common) decides which ops
 * run and lowers partitions into dispatches of the GLSL kernels in
 * kernels/glsl/, embedded as SPIR-V, which vk_backend records and submits.
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_executable.h"
#include "plugins/gpu_common/gpu_support.h"
#include "plugins/gpu_vk/vk_backend.h"
#include "plugins/gpu_vk/vk_buffer.h"
#include "plugins/gpu_vk/vk_context.h"
#include "plugins/gpu_vk/vk_debug.h"
#include "plugins/gpu_common/gpu_options.h"
#include "tflaccel/accelerator.h"

typedef struct vk_plugin_state {
  const tflaccel_host_services *host;
  vk_debug debug; /* used when validation=1 */
  int32_t validation;
  int32_t stage_device_buffers;
  int32_t profiling;       /* option profile = 1 */
  int32_t device_local_io; /* option device_local_io: 0, 1, or -1 for auto */
  vk_instance_context vulkan;
} vk_plugin_state;

typedef struct vk_plugin_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const tflaccel_host_services *host;
  vk_debug *debug; /* the plugin's, or NULL without validation */
  vk_device_context vulkan;
  vk_backend_device backend_device;
  gpu_backend backend;
  vk_memory_kind io_memory; /* of the buffers the core creates */
} vk_plugin_device;

static vk_plugin_device *plugin_device(tflaccel_device *device) {
  return (vk_plugin_device *)device;
}

/* A call's own failure wins; else a validation error reported during it. */
static tflaccel_status with_validation(vk_plugin_device *self, tflaccel_status status) {
  tflaccel_status reported = vk_debug_take_errors(self->debug);
  if (status == NULL) return reported;
  if (reported != NULL) self->host->status_free(reported);
  return status;
}

/* ---- ops ---- */

static tflaccel_status supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                   uint32_t op_index, const tflaccel_compile_options *options,
                                   tflaccel_op_support *support) {
  (void)options;
  if (op_index >= graph->op_count)
    return plugin_device(device)->host->status_make(
        TFLACCEL_INVALID_ARGUMENT, "gpu_vk: supports_op: op %u of %u", op_index, graph->op_count);
  support->relative_cost = 0.0f;
  support->reason[0] = '\0';
  support->level =
      gpu_op_supported(graph, op_index, "gpu_vk", support->reason, sizeof support->reason)
          ? TFLACCEL_SUPPORT_YES
          : TFLACCEL_SUPPORT_NO;
  return NULL;
}

static tflaccel_status compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                               const tflaccel_partition_desc *partition,
                               const tflaccel_compile_options *options,
                               tflaccel_executable **executable) {
  vk_plugin_device *self = plugin_device(device);
  gpu_executable *created = NULL;
  tflaccel_status status = with_validation(
      self, gpu_executable_create(&self->backend, graph, partition, options, &created));
  if (status != NULL && created != NULL) {
    gpu_executable_destroy(created);
    created = NULL;
  }
  *executable = (tflaccel_executable *)created;
  return status;
}

static void executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  vk_plugin_device *self = plugin_device(device);
  gpu_executable_destroy((gpu_executable *)executable);
  tflaccel_status status = with_validation(self, NULL);
  if (status != NULL) {
    self->host->log(self->host->context, TFLACCEL_LOG_ERROR, "%s",
                    self->host->status_message(status));
    self->host->status_free(status);
  }
}

static tflaccel_status execute(tflaccel_device *device, tflaccel_executable *executable,
                               const tflaccel_binding *bindings, uint32_t binding_count,
                               tflaccel_event **completion) {
  vk_plugin_device *self = plugin_device(device);
  if (completion != NULL) *completion = NULL; /* runs are synchronous */
  if (executable == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_vk: execute without an executable");
  vk_backend_begin_run(&self->backend_device);
  return with_validation(self,
                         gpu_executable_run((gpu_executable *)executable, bindings, binding_count));
}

/* ---- buffers ---- */

static tflaccel_status buffer_create(tflaccel_device *device, uint64_t size,
                                     tflaccel_buffer **buffer) {
  vk_plugin_device *self = plugin_device(device);
  tflaccel_status status = with_validation(
      self, vk_buffer_create(self->host, &self->vulkan, size, self->io_memory, buffer));
  if (status != NULL && *buffer != NULL) {
    vk_buffer_destroy(self->host, &self->vulkan, *buffer);
    *buffer = NULL;
  }
  return status;
}

static void buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  vk_plugin_device *self = plugin_device(device);
  vk_buffer_destroy(self->host, &self->vulkan, buffer);
}

static tflaccel_status buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                    uint64_t offset, const void *source, uint64_t size) {
  vk_plugin_device *self = plugin_device(device);
  return with_validation(
      self, vk_backend_buffer_write(&self->backend_device, buffer, offset, source, size));
}

static tflaccel_status buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                   uint64_t offset, void *destination, uint64_t size) {
  vk_plugin_device *self = plugin_device(device);
  return with_validation(
      self, vk_backend_buffer_read(&self->backend_device, buffer, offset, destination, size));
}

/* ---- devices ---- */

static void device_destroy(tflaccel_device *device) {
  vk_plugin_device *self = plugin_device(device);
  vk_backend_release(&self->backend_device);
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
  int32_t index = -1;
  tflaccel_status status = gpu_option_device(host, "gpu_vk", "Vulkan", vulkan->count, &index);
  if (status != NULL || index < 0) return status;
  vulkan->entries[0] = vulkan->entries[index];
  vulkan->count = 1;
  return NULL;
}

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
  if (status == NULL) status = gpu_option_profile(host, "gpu_vk", &self->profiling);
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

static void plugin_shutdown(void *state) {
  vk_plugin_state *self = state;
  if (self == NULL) return;
  const tflaccel_host_services *host = self->host;
  vk_instance_context_release(host, &self->vulkan);
  vk_debug_release(&self->debug);
  host->free(host->context, self);
}

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  vk_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(vk_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_vk: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  vk_instance_options options;
  tflaccel_status status = read_options(host, self, &options);
  if (status == NULL) status = vk_instance_context_create(host, &options, &self->vulkan);
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
  created->debug = self->vulkan.debug;
  tflaccel_status status =
      vk_device_context_create(host, &self->vulkan.entries[index], &created->vulkan);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  created->vulkan.stage_device_buffers = self->stage_device_buffers;
  int mirrored = self->device_local_io == 1;
  if (self->device_local_io < 0) {
    int device_local = 1;
    status = vk_buffer_host_memory_is_device_local(host, &created->vulkan, &device_local);
    mirrored = !device_local;
  }
  created->io_memory = mirrored ? VK_MEMORY_MIRRORED : VK_MEMORY_HOST;
  if (status == NULL)
    host->log(host->context, TFLACCEL_LOG_DEBUG, "%s: partition inputs and outputs %s",
              self->vulkan.entries[index].info.name,
              mirrored ? "in device-local memory, copied through host-visible mirrors"
                       : "in mapped host-visible memory");
  if (status == NULL)
    status = vk_backend_init(host, &created->vulkan, self->profiling, &created->backend_device,
                             &created->backend);
  if (status == NULL) status = vk_debug_take_errors(created->debug);
  if (status != NULL) {
    vk_backend_release(&created->backend_device);
    vk_device_context_release(host, &created->vulkan);
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
