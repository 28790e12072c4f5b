/* Device buffers as a compiled model's inputs and outputs: which inputs
 * and outputs may take them (the partition whose device alone reads or
 * writes the tensor), their requirements, and making, wrapping and checking
 * them. The run binds them in place of the core's buffers
 * (compiled_model.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/buffer_type.h"
#include "core/facts/dtype.h"
#include "core/runtime/compiled_model.h"
#include "core/runtime/tensor_buffer.h"

static int has_native_calls(const tflaccel_device_vtable *vtable) {
  return TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, buffer_wrap) &&
         vtable->buffer_native != NULL && vtable->device_native != NULL;
}

static int binding_index(const partition_runtime *runtime, uint32_t first, uint32_t end,
                         uint32_t tensor) {
  for (uint32_t b = first; b < end; ++b)
    if (runtime->bindings[b].tensor == tensor) return (int)b;
  return -1;
}

static int is_listed(const uint32_t *list, uint32_t count, uint32_t tensor, uint32_t skip) {
  for (uint32_t i = 0; i < count; ++i)
    if (i != skip && list[i] == tensor) return 1;
  return 0;
}

/* The one partition all of whose readers (and writer) of tensor share a
 * device that binds device buffers, or -1. */
static int32_t sole_device_partition(const tflaccel_compiled_model *compiled, uint32_t tensor,
                                     int want_writer) {
  int32_t chosen = -1;
  const tflaccel_device *device = NULL;
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    const partition_runtime *runtime = &compiled->runtimes[p];
    int reads = binding_index(runtime, 0, runtime->input_binding_count, tensor) >= 0;
    int writes =
        binding_index(runtime, runtime->input_binding_count, runtime->binding_count, tensor) >= 0;
    if (!reads && !writes) continue;
    if (runtime->binds_host_arena || !has_native_calls(runtime->device->vtable)) return -1;
    if (device != NULL && device != runtime->device) return -1;
    device = runtime->device;
    if (writes || (!want_writer && chosen < 0)) chosen = (int32_t)p;
    if (writes && !want_writer) return -1;
  }
  if (want_writer && chosen >= 0 &&
      binding_index(&compiled->runtimes[chosen], compiled->runtimes[chosen].input_binding_count,
                    compiled->runtimes[chosen].binding_count, tensor) < 0)
    return -1;
  return chosen;
}

tflaccel_status device_io_plan(tflaccel_compiled_model *compiled) {
  uint32_t tensors = compiled->graph->tensor_count;
  compiled->input_partition = calloc(compiled->graph_input_count + 1, sizeof(int32_t));
  compiled->output_partition = calloc(compiled->graph_output_count + 1, sizeof(int32_t));
  compiled->override_buffer = calloc(tensors + 1, sizeof *compiled->override_buffer);
  compiled->override_offset = calloc(tensors + 1, sizeof *compiled->override_offset);
  if (!compiled->input_partition || !compiled->output_partition || !compiled->override_buffer ||
      !compiled->override_offset)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    partition_runtime *runtime = &compiled->runtimes[p];
    runtime->run_bindings = calloc(runtime->binding_count + 1, sizeof *runtime->run_bindings);
    if (runtime->run_bindings == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  }
  for (uint32_t i = 0; i < compiled->graph_input_count; ++i) {
    uint32_t tensor = compiled->graph_inputs[i];
    int unique = !is_listed(compiled->graph_inputs, compiled->graph_input_count, tensor, i) &&
                 !is_listed(compiled->graph_outputs, compiled->graph_output_count, tensor, UINT32_MAX);
    compiled->input_partition[i] = unique ? sole_device_partition(compiled, tensor, 0) : -1;
  }
  for (uint32_t i = 0; i < compiled->graph_output_count; ++i) {
    uint32_t tensor = compiled->graph_outputs[i];
    int unique = !is_listed(compiled->graph_outputs, compiled->graph_output_count, tensor, i) &&
                 !is_listed(compiled->graph_inputs, compiled->graph_input_count, tensor, UINT32_MAX);
    compiled->output_partition[i] = unique ? sole_device_partition(compiled, tensor, 1) : -1;
  }
  return NULL;
}

void device_io_release(tflaccel_compiled_model *compiled) {
  free(compiled->input_partition);
  free(compiled->output_partition);
  free(compiled->override_buffer);
  free(compiled->override_offset);
}

/* Input or output `index`: its tensor and io partition, or an error for a
 * bad index. */
static tflaccel_status find_io(const tflaccel_compiled_model *compiled, int is_output,
                               uint32_t index, uint32_t *tensor, int32_t *io_partition) {
  uint32_t count = is_output ? compiled->graph_output_count : compiled->graph_input_count;
  if (index >= count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u out of range (%u %ss)",
                                is_output ? "output" : "input", index, count,
                                is_output ? "output" : "input");
  *tensor = is_output ? compiled->graph_outputs[index] : compiled->graph_inputs[index];
  *io_partition = is_output ? compiled->output_partition[index] : compiled->input_partition[index];
  return NULL;
}

static tflaccel_status native_device_of(const partition_runtime *runtime,
                                        tflaccel_native_device *native) {
  memset(native, 0, sizeof *native);
  native->struct_size = sizeof *native;
  registry_device_lock(runtime->plugin);
  tflaccel_status status = runtime->device->vtable->device_native(runtime->device, native);
  registry_device_unlock(runtime->plugin);
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s: device_native", runtime->plugin->config->name);
  if (native->offset_alignment == 0) native->offset_alignment = 1;
  return NULL;
}

static tflaccel_status requirements(const tflaccel_compiled_model *compiled, int is_output,
                                    uint32_t index, tflaccel_buffer_requirements *out) {
  if (compiled == NULL || out == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "buffer_requirements: NULL argument");
  if (out->struct_size < sizeof *out)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "buffer_requirements: struct_size too small");
  uint32_t tensor = 0;
  int32_t io_partition = -1;
  tflaccel_status status = find_io(compiled, is_output, index, &tensor, &io_partition);
  if (status != NULL) return status;
  memset(out, 0, sizeof *out);
  out->struct_size = sizeof *out;
  out->types[out->type_count++] = TFLACCEL_BUFFER_HOST;
  out->size = compiled->graph->tensors[tensor].byte_size;
  out->alignment = 1;
  if (io_partition < 0) return NULL;
  const partition_runtime *runtime = &compiled->runtimes[io_partition];
  tflaccel_native_device native;
  status = native_device_of(runtime, &native);
  if (status != NULL) return status;
  if (native.type > TFLACCEL_BUFFER_HOST && native.type < TFLACCEL_BUFFER_TYPE_COUNT)
    out->types[out->type_count++] = native.type;
  /* Then the external memory fds its driver imports (ABI 1.3). */
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  if (out->type_count == 2 && TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, buffer_export) &&
      vtable->buffer_wrap_types != NULL) {
    uint32_t extra = vtable->buffer_wrap_types(runtime->device);
    static const int32_t fd_types[] = {TFLACCEL_BUFFER_OPAQUE_FD, TFLACCEL_BUFFER_DMABUF};
    for (size_t i = 0; i < sizeof fd_types / sizeof fd_types[0]; ++i)
      if ((extra & (1u << fd_types[i])) != 0 && out->type_count < TFLACCEL_BUFFER_REQUIREMENTS_MAX_TYPES)
        out->types[out->type_count++] = fd_types[i];
  }
  out->alignment = native.offset_alignment;
  out->accelerator = runtime->plugin->config->name;
  return NULL;
}

tflaccel_status tflaccel_compiled_model_input_buffer_requirements(
    const tflaccel_compiled_model *compiled, uint32_t index, tflaccel_buffer_requirements *out) {
  return requirements(compiled, 0, index, out);
}

tflaccel_status tflaccel_compiled_model_output_buffer_requirements(
    const tflaccel_compiled_model *compiled, uint32_t index, tflaccel_buffer_requirements *out) {
  return requirements(compiled, 1, index, out);
}

/* What the partition of input/output `index` takes, for messages:
 * "read by gpu_cl, which takes host and OpenCL buffers". */
static void describe_taker(const tflaccel_compiled_model *compiled, int is_output, uint32_t index,
                           char *text, size_t size) {
  tflaccel_buffer_requirements taken = {.struct_size = sizeof taken};
  tflaccel_status status = requirements(compiled, is_output, index, &taken);
  if (status != NULL || taken.accelerator == NULL) {
    tflaccel_status_free(status);
    snprintf(text, size, "it takes host buffers only");
    return;
  }
  char fds[64] = "";
  for (uint32_t t = 2; t < taken.type_count; ++t)
    snprintf(fds + strlen(fds), sizeof fds - strlen(fds), " or %s", buffer_type_name(taken.types[t]));
  snprintf(text, size, "it is %s by %s, which takes host and %s buffers%s%s",
           is_output ? "written" : "read", taken.accelerator, buffer_type_name(taken.types[1]),
           fds[0] != '\0' ? ", imports" : "", fds[0] != '\0' ? fds + 3 : "");
}

static int is_listed_type(const tflaccel_buffer_requirements *taken, int32_t type) {
  for (uint32_t t = 0; t < taken->type_count; ++t)
    if (taken->types[t] == type) return 1;
  return 0;
}

tflaccel_status tflaccel_compiled_model_native_device(const tflaccel_compiled_model *compiled,
                                                      int32_t is_output, uint32_t index,
                                                      tflaccel_native_device *device) {
  if (compiled == NULL || device == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "native_device: NULL argument");
  uint32_t tensor;
  int32_t io_partition;
  tflaccel_status status = find_io(compiled, is_output != 0, index, &tensor, &io_partition);
  if (status != NULL) return status;
  if (io_partition < 0)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%s %u (%s): host buffers only, no device",
                                is_output ? "output" : "input", index,
                                compiled->graph->tensors[tensor].name);
  return native_device_of(&compiled->runtimes[io_partition], device);
}

/* A device tensor buffer for the tensor around device_buffer (taken). */
static tflaccel_status make_device_tensor_buffer(const tflaccel_compiled_model *compiled,
                                                 const partition_runtime *runtime, uint32_t tensor,
                                                 tflaccel_buffer *device_buffer,
                                                 const tflaccel_native_buffer *native,
                                                 tflaccel_tensor_buffer **buffer) {
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  tflaccel_status status = tensor_buffer_alloc(desc->dtype, desc->rank, desc->dims, buffer);
  if (status != NULL) {
    registry_device_lock(runtime->plugin);
    runtime->device->vtable->buffer_destroy(runtime->device, device_buffer);
    registry_device_unlock(runtime->plugin);
    return status;
  }
  (*buffer)->type = native->type;
  (*buffer)->plugin = runtime->plugin;
  (*buffer)->device = runtime->device;
  (*buffer)->device_buffer = device_buffer;
  (*buffer)->offset = native->offset;
  (*buffer)->native = *native;
  (*buffer)->native.struct_size = sizeof (*buffer)->native;
  return NULL;
}

static tflaccel_status create_device_buffer(const tflaccel_compiled_model *compiled, int is_output,
                                            uint32_t index, int32_t type,
                                            tflaccel_tensor_buffer **buffer) {
  if (compiled == NULL || buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "create_device_buffer: NULL argument");
  *buffer = NULL;
  uint32_t tensor;
  int32_t io_partition;
  tflaccel_status status = find_io(compiled, is_output, index, &tensor, &io_partition);
  if (status != NULL) return status;
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  if (type == TFLACCEL_BUFFER_HOST)
    return tflaccel_tensor_buffer_create(desc->dtype, desc->rank, desc->dims, buffer);
  tflaccel_buffer_requirements taken = {.struct_size = sizeof taken};
  status = requirements(compiled, is_output, index, &taken);
  if (status != NULL) return status;
  if (taken.type_count < 2 || taken.types[1] != type) {
    char taker[160];
    describe_taker(compiled, is_output, index, taker, sizeof taker);
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%s %u (%s): no %s buffer: %s",
                                is_output ? "output" : "input", index, desc->name,
                                buffer_type_name(type), taker);
  }
  const partition_runtime *runtime = &compiled->runtimes[io_partition];
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  tflaccel_buffer *device_buffer = NULL;
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  registry_device_lock(runtime->plugin);
  status = vtable->buffer_create(runtime->device, desc->byte_size ? desc->byte_size : 1,
                                 &device_buffer);
  if (status == NULL) status = vtable->buffer_native(runtime->device, device_buffer, &native);
  if (status != NULL && device_buffer != NULL) vtable->buffer_destroy(runtime->device, device_buffer);
  registry_device_unlock(runtime->plugin);
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s: %s buffer for %s %u", runtime->plugin->config->name,
                                    buffer_type_name(type), is_output ? "output" : "input", index);
  native.offset = 0;
  native.size = desc->byte_size;
  return make_device_tensor_buffer(compiled, runtime, tensor, device_buffer, &native, buffer);
}

tflaccel_status tflaccel_compiled_model_create_input_device_buffer(
    const tflaccel_compiled_model *compiled, uint32_t index, int32_t type,
    tflaccel_tensor_buffer **buffer) {
  return create_device_buffer(compiled, 0, index, type, buffer);
}

tflaccel_status tflaccel_compiled_model_create_output_device_buffer(
    const tflaccel_compiled_model *compiled, uint32_t index, int32_t type,
    tflaccel_tensor_buffer **buffer) {
  return create_device_buffer(compiled, 1, index, type, buffer);
}

static tflaccel_status wrap_buffer(const tflaccel_compiled_model *compiled, int is_output,
                                   uint32_t index, const tflaccel_native_buffer *native,
                                   tflaccel_tensor_buffer **buffer) {
  if (compiled == NULL || native == NULL || buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "wrap_buffer: NULL argument");
  *buffer = NULL;
  if (native->struct_size < sizeof *native)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "wrap_buffer: struct_size too small");
  uint32_t tensor;
  int32_t io_partition;
  tflaccel_status status = find_io(compiled, is_output, index, &tensor, &io_partition);
  if (status != NULL) return status;
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  const char *role = is_output ? "output" : "input";
  if (native->type == TFLACCEL_BUFFER_HOST)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s %u (%s): wrap host memory with tflaccel_tensor_buffer_wrap_host",
                                role, index, desc->name);
  tflaccel_buffer_requirements taken = {.struct_size = sizeof taken};
  status = requirements(compiled, is_output, index, &taken);
  if (status != NULL) return status;
  /* An fd of external memory goes to a device that takes device buffers
   * even when it is not listed: the device names the extension its
   * driver lacks. */
  int fd_type = native->type == TFLACCEL_BUFFER_DMABUF || native->type == TFLACCEL_BUFFER_OPAQUE_FD;
  if (taken.type_count < 2 || (!is_listed_type(&taken, native->type) && !fd_type)) {
    char taker[160];
    describe_taker(compiled, is_output, index, taker, sizeof taker);
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u (%s): a %s buffer, but %s", role,
                                index, desc->name, buffer_type_name(native->type), taker);
  }
  if (native->size != desc->byte_size)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s %u (%s): the %s buffer holds %llu bytes, the %s tensor %llu",
                                role, index, desc->name, buffer_type_name(native->type),
                                (unsigned long long)native->size, dtype_name(desc->dtype),
                                (unsigned long long)desc->byte_size);
  if (native->offset % taken.alignment != 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s %u (%s): offset %llu is not a multiple of %llu bytes", role,
                                index, desc->name, (unsigned long long)native->offset,
                                (unsigned long long)taken.alignment);
  const partition_runtime *runtime = &compiled->runtimes[io_partition];
  tflaccel_buffer *device_buffer = NULL;
  registry_device_lock(runtime->plugin);
  status = runtime->device->vtable->buffer_wrap(runtime->device, native, &device_buffer);
  registry_device_unlock(runtime->plugin);
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s %u (%s)", role, index, desc->name);
  return make_device_tensor_buffer(compiled, runtime, tensor, device_buffer, native, buffer);
}

tflaccel_status tflaccel_compiled_model_wrap_input_buffer(const tflaccel_compiled_model *compiled,
                                                          uint32_t index,
                                                          const tflaccel_native_buffer *native,
                                                          tflaccel_tensor_buffer **buffer) {
  return wrap_buffer(compiled, 0, index, native, buffer);
}

tflaccel_status tflaccel_compiled_model_wrap_output_buffer(const tflaccel_compiled_model *compiled,
                                                           uint32_t index,
                                                           const tflaccel_native_buffer *native,
                                                           tflaccel_tensor_buffer **buffer) {
  return wrap_buffer(compiled, 1, index, native, buffer);
}

int32_t tflaccel_tensor_buffer_type(const tflaccel_tensor_buffer *buffer) {
  return buffer ? buffer->type : -1;
}

tflaccel_status tflaccel_tensor_buffer_native(const tflaccel_tensor_buffer *buffer,
                                              tflaccel_native_buffer *native) {
  if (buffer == NULL || native == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer native: NULL argument");
  if (native->struct_size < sizeof *native)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer native: struct_size too small");
  if (buffer->type == TFLACCEL_BUFFER_HOST)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer native: a host buffer has no native object");
  *native = buffer->native;
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_export(const tflaccel_tensor_buffer *buffer, int32_t type,
                                              tflaccel_native_buffer *native) {
  if (buffer == NULL || native == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor buffer export: NULL argument");
  if (native->struct_size < sizeof *native)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer export: struct_size too small");
  if (type != TFLACCEL_BUFFER_OPAQUE_FD && type != TFLACCEL_BUFFER_DMABUF)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer export: a %s buffer is not external memory (export "
                                "an opaque fd or a dma-buf)",
                                buffer_type_name(type));
  if (buffer->type == TFLACCEL_BUFFER_HOST || buffer->device == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "tensor buffer export: a host buffer has no device memory to export");
  const tflaccel_device_vtable *vtable = buffer->device->vtable;
  if (!TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, buffer_export) ||
      vtable->buffer_export == NULL)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "tensor buffer export: %s cannot export its buffers (its plugin "
                                "predates ABI 1.3)",
                                buffer->plugin->config->name);
  tflaccel_native_buffer exported = {.struct_size = sizeof exported};
  registry_device_lock(buffer->plugin);
  tflaccel_status status = vtable->buffer_export(buffer->device, buffer->device_buffer, type, &exported);
  registry_device_unlock(buffer->plugin);
  if (status != NULL)
    return tflaccel_status_annotate(status, "tensor buffer export (%s)", buffer->plugin->config->name);
  exported.struct_size = sizeof exported;
  exported.offset = buffer->offset;
  exported.size = buffer->byte_size;
  *native = exported;
  return NULL;
}

tflaccel_status device_io_check(const tflaccel_compiled_model *compiled, int is_output,
                                uint32_t index, const tflaccel_tensor_buffer *buffer) {
  if (buffer->type == TFLACCEL_BUFFER_HOST) return NULL;
  int32_t io_partition = is_output ? compiled->output_partition[index] : compiled->input_partition[index];
  if (io_partition >= 0 && compiled->runtimes[io_partition].device == buffer->device) return NULL;
  uint32_t tensor = is_output ? compiled->graph_outputs[index] : compiled->graph_inputs[index];
  char taker[160];
  describe_taker(compiled, is_output, index, taker, sizeof taker);
  return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u (%s): a %s %s buffer, but %s",
                              is_output ? "output" : "input", index,
                              compiled->graph->tensors[tensor].name,
                              buffer->plugin ? buffer->plugin->config->name : "",
                              buffer_type_name(buffer->type), taker);
}

tflaccel_status tflaccel_compiled_model_last_run_stats(const tflaccel_compiled_model *compiled,
                                                       tflaccel_run_stats *stats) {
  if (compiled == NULL || stats == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "last_run_stats: NULL argument");
  if (stats->struct_size < sizeof *stats)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "last_run_stats: struct_size too small");
  tflaccel_compiled_model *mutable_compiled = (tflaccel_compiled_model *)compiled;
  pthread_mutex_lock(&mutable_compiled->stats_lock);
  *stats = compiled->last_stats;
  pthread_mutex_unlock(&mutable_compiled->stats_lock);
  stats->struct_size = sizeof *stats;
  return NULL;
}
