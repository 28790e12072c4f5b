/* A test-only accelerator, "test_subset": it forwards everything to cpu_ref
 * (loaded from the option `target`) but accepts only the op codes listed in
 * the option `ops` (comma-separated numbers). It offers no host-memory
 * import, so the core must move boundary tensors through buffer_write and
 * buffer_read, as it will for a GPU. Results must equal cpu_ref's bit for
 * bit.
 *
 * The optional `fp32_ops` (op codes) are ops it runs only at fp32, as a GPU
 * plugin runs int32 values past fp16's exact integers: asked at fp16 it
 * answers YES with precision fp32 (ABI 1.3), or NO to a support struct
 * without that field; compile refuses them at fp16 and logs (debug) each
 * partition's precision. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/accelerator.h"

#define MAX_OP_CODE 256

typedef struct subset_state {
  const tflaccel_host_services *host;
  const tflaccel_accelerator_plugin *target;
  void *target_state;
  uint8_t allowed[MAX_OP_CODE];
  char allowed_text[256];
  uint8_t fp32_only[MAX_OP_CODE];
} subset_state;

typedef struct subset_device {
  tflaccel_device base;
  subset_state *state;
  tflaccel_device *inner;
} subset_device;

static tflaccel_device *inner_of(tflaccel_device *device) { return ((subset_device *)device)->inner; }

static void subset_destroy(tflaccel_device *device) {
  subset_device *subset = (subset_device *)device;
  subset->inner->vtable->destroy(subset->inner);
  subset->state->host->free(subset->state->host->context, subset);
}

static tflaccel_status subset_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                          uint32_t op_index, const tflaccel_compile_options *options,
                                          tflaccel_op_support *support) {
  subset_device *subset = (subset_device *)device;
  int32_t code = graph->ops[op_index].code;
  if (code < 0 || code >= MAX_OP_CODE || !subset->state->allowed[code]) {
    support->level = TFLACCEL_SUPPORT_NO;
    /* Prefixed with the plugin's name, as the GPU plugins do: the core
     * shows it once (tests/partition: warning_and_summary_lines_are_exact). */
    snprintf(support->reason, sizeof support->reason,
             "test_subset: test_subset accepts only op codes %.200s",
             subset->state->allowed_text);
    return NULL;
  }
  tflaccel_status status =
      subset->inner->vtable->supports_op(subset->inner, graph, op_index, options, support);
  if (status != NULL || support->level != TFLACCEL_SUPPORT_YES || !subset->state->fp32_only[code] ||
      (options != NULL && options->precision == TFLACCEL_PRECISION_FP32))
    return status;
  if (!TFLACCEL_HAS_FIELD(tflaccel_op_support, support, precision)) {
    support->level = TFLACCEL_SUPPORT_NO;
    snprintf(support->reason, sizeof support->reason,
             "test_subset: op code %d runs here only at fp32", (int)code);
    return NULL;
  }
  support->precision = TFLACCEL_PRECISION_FP32;
  snprintf(support->reason, sizeof support->reason,
           "test_subset: op code %d runs here only at fp32", (int)code);
  return NULL;
}

static tflaccel_status subset_compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                                      const tflaccel_partition_desc *partition,
                                      const tflaccel_compile_options *options,
                                      tflaccel_executable **executable) {
  const subset_state *state = ((subset_device *)device)->state;
  tflaccel_device *inner = inner_of(device);
  uint32_t fp32_only = 0;
  for (uint32_t i = 0; i < partition->op_count; ++i) {
    int32_t code = graph->ops[partition->ops[i]].code;
    fp32_only += code >= 0 && code < MAX_OP_CODE && state->fp32_only[code];
  }
  if (fp32_only != 0 && options->precision != TFLACCEL_PRECISION_FP32)
    return state->host->status_make(TFLACCEL_INTERNAL,
                                    "test_subset: %u fp32-only ops compiled at precision %d",
                                    fp32_only, (int)options->precision);
  state->host->log(state->host->context, TFLACCEL_LOG_DEBUG, "compiling %u ops at %s",
                   partition->op_count,
                   options->precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32");
  return inner->vtable->compile(inner, graph, partition, options, executable);
}

static void subset_executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  tflaccel_device *inner = inner_of(device);
  inner->vtable->executable_destroy(inner, executable);
}

static tflaccel_status subset_execute(tflaccel_device *device, tflaccel_executable *executable,
                                      const tflaccel_binding *bindings, uint32_t binding_count,
                                      tflaccel_event **completion) {
  tflaccel_device *inner = inner_of(device);
  return inner->vtable->execute(inner, executable, bindings, binding_count, completion);
}

static tflaccel_status subset_buffer_create(tflaccel_device *device, uint64_t size,
                                            tflaccel_buffer **buffer) {
  tflaccel_device *inner = inner_of(device);
  return inner->vtable->buffer_create(inner, size, buffer);
}

static void subset_buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  tflaccel_device *inner = inner_of(device);
  inner->vtable->buffer_destroy(inner, buffer);
}

static tflaccel_status subset_buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                           uint64_t offset, const void *source, uint64_t size) {
  tflaccel_device *inner = inner_of(device);
  return inner->vtable->buffer_write(inner, buffer, offset, source, size);
}

static tflaccel_status subset_buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                          uint64_t offset, void *destination, uint64_t size) {
  tflaccel_device *inner = inner_of(device);
  return inner->vtable->buffer_read(inner, buffer, offset, destination, size);
}

static tflaccel_status subset_reset_state(tflaccel_device *device, tflaccel_executable *executable) {
  tflaccel_device *inner = inner_of(device);
  if (inner->vtable->reset_state == NULL) return NULL;
  return inner->vtable->reset_state(inner, executable);
}

static const tflaccel_device_vtable subset_vtable = {
    .struct_size = sizeof(tflaccel_device_vtable),
    .destroy = subset_destroy,
    .supports_op = subset_supports_op,
    .compile = subset_compile,
    .executable_destroy = subset_executable_destroy,
    .execute = subset_execute,
    .buffer_create = subset_buffer_create,
    .buffer_destroy = subset_buffer_destroy,
    .buffer_write = subset_buffer_write,
    .buffer_read = subset_buffer_read,
    .reset_state = subset_reset_state,
};

static tflaccel_status subset_init(const tflaccel_host_services *host, void **state_out) {
  const char *target_path = host->config_get(host->context, "target");
  const char *ops = host->config_get(host->context, "ops");
  if (target_path == NULL || ops == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "test_subset needs the options target and ops");
  subset_state *state = host->alloc(host->context, sizeof *state, 8);
  if (state == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "test_subset: out of memory");
  memset(state, 0, sizeof *state);
  state->host = host;
  snprintf(state->allowed_text, sizeof state->allowed_text, "%s", ops);
  for (const char *cursor = ops; *cursor;) {
    char *end = NULL;
    long code = strtol(cursor, &end, 10);
    if (end == cursor || code < 0 || code >= MAX_OP_CODE) {
      host->free(host->context, state);
      return host->status_make(TFLACCEL_INVALID_ARGUMENT, "test_subset: bad ops list '%s'", ops);
    }
    state->allowed[code] = 1;
    cursor = *end == ',' ? end + 1 : end;
  }
  const char *fp32_ops = host->config_get(host->context, "fp32_ops");
  for (const char *cursor = fp32_ops ? fp32_ops : ""; *cursor;) {
    char *end = NULL;
    long code = strtol(cursor, &end, 10);
    if (end == cursor || code < 0 || code >= MAX_OP_CODE) {
      host->free(host->context, state);
      return host->status_make(TFLACCEL_INVALID_ARGUMENT, "test_subset: bad fp32_ops list '%s'",
                               fp32_ops);
    }
    state->fp32_only[code] = 1;
    cursor = *end == ',' ? end + 1 : end;
  }
  void *library = dlopen(target_path, RTLD_NOW | RTLD_LOCAL);
  tflaccel_accelerator_entry_fn entry =
      library ? (tflaccel_accelerator_entry_fn)dlsym(library, TFLACCEL_ACCELERATOR_ENTRY_NAME) : NULL;
  state->target = entry ? entry(TFLACCEL_ABI_VERSION) : NULL;
  if (state->target == NULL) {
    host->free(host->context, state);
    return host->status_make(TFLACCEL_UNAVAILABLE, "test_subset: cannot load %s", target_path);
  }
  tflaccel_status status = state->target->init(host, &state->target_state);
  if (status != NULL) {
    host->free(host->context, state);
    return status;
  }
  *state_out = state;
  return NULL;
}

static void subset_shutdown(void *state_pointer) {
  subset_state *state = state_pointer;
  state->target->shutdown(state->target_state);
  state->host->free(state->host->context, state);
}

static uint32_t subset_device_count(void *state_pointer) {
  (void)state_pointer;
  return 1;
}

static tflaccel_status subset_device_info(void *state_pointer, uint32_t index,
                                          tflaccel_device_info *info) {
  subset_state *state = state_pointer;
  tflaccel_status status = state->target->device_info(state->target_state, index, info);
  if (status == NULL) info->caps &= ~(uint32_t)(TFLACCEL_DEVICE_CAP_HOST_MEMORY | TFLACCEL_DEVICE_CAP_IMPORT);
  return status;
}

static tflaccel_status subset_device_create(void *state_pointer, uint32_t index,
                                            tflaccel_device **device) {
  subset_state *state = state_pointer;
  subset_device *subset = state->host->alloc(state->host->context, sizeof *subset, 8);
  if (subset == NULL) return state->host->status_make(TFLACCEL_OUT_OF_MEMORY, "test_subset: out of memory");
  tflaccel_status status = state->target->device_create(state->target_state, index, &subset->inner);
  if (status != NULL) {
    state->host->free(state->host->context, subset);
    return status;
  }
  subset->base.vtable = &subset_vtable;
  subset->state = state;
  *device = &subset->base;
  return NULL;
}

static const tflaccel_accelerator_plugin subset_descriptor = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "test_subset",
    .version = "test",
    .description = "cpu_ref restricted to a configured set of op codes (tests only)",
    .init = subset_init,
    .shutdown = subset_shutdown,
    .device_count = subset_device_count,
    .device_info = subset_device_info,
    .device_create = subset_device_create,
};

TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(uint32_t host) {
  return TFLACCEL_ABI_VERSION_MAJOR(host) == TFLACCEL_ABI_MAJOR ? &subset_descriptor : NULL;
}
