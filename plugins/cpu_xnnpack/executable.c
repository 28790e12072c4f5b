/* cpu_xnnpack executables: one XNNPACK runtime per partition. Compiling
 * defines the partition's ops as one subgraph (partition inputs and outputs
 * as external values, in binding order) and creates the runtime, which packs
 * the weights once. Executing points the external values at the bound
 * buffers (re-done only when the addresses change) and invokes it. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"
#include "plugins/cpu_xnnpack/xnn_device.h"

typedef struct xnnp_executable {
  xnn_runtime_t runtime;
  uint32_t input_count, external_count; /* inputs first, then outputs */
  uint32_t *tensors;                    /* external id -> tensor */
  uint64_t *sizes;                      /* external id -> byte size */
  struct xnn_external_value *externals; /* what setup last received */
  unsigned char **staging; /* per input: a padded copy for memory without slack */
  uint32_t *bound_in_run;   /* external id -> the run that last bound it */
  uint32_t run;
  int set_up;
} xnnp_executable;

static tflaccel_status oom(const tflaccel_host_services *host, const char *what) {
  return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_xnnpack: no memory for %s", what);
}

void xnnp_executable_destroy(tflaccel_device *device, tflaccel_executable *handle) {
  if (handle == NULL) return;
  const tflaccel_host_services *host = ((xnnp_device *)device)->host;
  xnnp_executable *executable = (xnnp_executable *)handle;
  if (executable->runtime != NULL) xnn_delete_runtime(executable->runtime);
  for (uint32_t i = 0; executable->staging != NULL && i < executable->input_count; i++)
    host->free(host->context, executable->staging[i]);
  host->free(host->context, executable->staging);
  host->free(host->context, executable->tensors);
  host->free(host->context, executable->sizes);
  host->free(host->context, executable->externals);
  host->free(host->context, executable->bound_in_run);
  host->free(host->context, executable);
}

static void *zeroed(const tflaccel_host_services *host, size_t size) {
  void *memory = host->alloc(host->context, size > 0 ? size : 1, 0);
  if (memory != NULL) memset(memory, 0, size > 0 ? size : 1);
  return memory;
}

/* Defines the partition in build->subgraph. On failure, fills reason. */
static int define_partition(xnnp_build *build, const tflaccel_partition_desc *partition,
                            uint32_t *failed_op) {
  for (uint32_t i = 0; i < partition->input_count; i++)
    if (!xnnp_external_value(build, partition->inputs[i], i, XNN_VALUE_FLAG_EXTERNAL_INPUT))
      return 0;
  for (uint32_t i = 0; i < partition->output_count; i++)
    if (!xnnp_external_value(build, partition->outputs[i], partition->input_count + i,
                             XNN_VALUE_FLAG_EXTERNAL_OUTPUT))
      return 0;
  for (uint32_t i = 0; i < partition->op_count; i++) {
    *failed_op = partition->ops[i];
    if (!xnnp_define_op(build, &build->graph->ops[partition->ops[i]])) return 0;
  }
  return 1;
}

static tflaccel_status check_partition(const tflaccel_host_services *host,
                                       const tflaccel_graph_view *graph,
                                       const tflaccel_partition_desc *partition) {
  if (graph == NULL || partition == NULL || partition->op_count == 0 ||
      partition->output_count == 0 || partition->ops == NULL || partition->outputs == NULL ||
      (partition->input_count > 0 && partition->inputs == NULL))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_xnnpack compile: an empty or incomplete partition");
  for (uint32_t i = 0; i < partition->op_count; i++)
    if (partition->ops[i] >= graph->op_count)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_xnnpack compile: op %u is outside the graph", partition->ops[i]);
  for (uint32_t i = 0; i < partition->input_count + partition->output_count; i++) {
    uint32_t tensor = i < partition->input_count ? partition->inputs[i]
                                                 : partition->outputs[i - partition->input_count];
    if (tensor >= graph->tensor_count)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_xnnpack compile: tensor %u is outside the graph", tensor);
  }
  return NULL;
}

tflaccel_status xnnp_compile(tflaccel_device *device_handle, const tflaccel_graph_view *graph,
                             const tflaccel_partition_desc *partition,
                             const tflaccel_compile_options *options,
                             tflaccel_executable **executable_out) {
  xnnp_device *device = (xnnp_device *)device_handle;
  const tflaccel_host_services *host = device->host;
  *executable_out = NULL;
  tflaccel_status status = check_partition(host, graph, partition);
  if (status != NULL) return status;
  int32_t thread_count = options != NULL ? options->thread_count : 1;
  int32_t precision = options != NULL ? options->precision : TFLACCEL_PRECISION_FP32;

  uint32_t external_count = partition->input_count + partition->output_count;
  xnnp_executable *executable = zeroed(host, sizeof *executable);
  if (executable == NULL) return oom(host, "an executable");
  executable->input_count = partition->input_count;
  executable->external_count = external_count;
  executable->tensors = zeroed(host, external_count * sizeof *executable->tensors);
  executable->sizes = zeroed(host, external_count * sizeof *executable->sizes);
  executable->externals = zeroed(host, external_count * sizeof *executable->externals);
  executable->staging = zeroed(host, partition->input_count * sizeof *executable->staging);
  executable->bound_in_run = zeroed(host, external_count * sizeof *executable->bound_in_run);
  uint32_t *value_ids = host->alloc(host->context, (graph->tensor_count + 1) * sizeof *value_ids, 0);
  if (executable->tensors == NULL || executable->sizes == NULL ||
      executable->externals == NULL || executable->staging == NULL || executable->bound_in_run == NULL || value_ids == NULL) {
    host->free(host->context, value_ids);
    xnnp_executable_destroy(device_handle, (tflaccel_executable *)executable);
    return oom(host, "an executable");
  }
  memset(value_ids, 0xFF, (graph->tensor_count + 1) * sizeof *value_ids);
  for (uint32_t i = 0; i < external_count; i++) {
    uint32_t tensor = i < partition->input_count ? partition->inputs[i]
                                                 : partition->outputs[i - partition->input_count];
    executable->tensors[i] = tensor;
    executable->sizes[i] = graph->tensors[tensor].byte_size;
    executable->externals[i].id = i;
  }

  xnn_subgraph_t subgraph = NULL;
  enum xnn_status xnn = xnn_create_subgraph(external_count, 0, &subgraph);
  if (xnn != xnn_status_success) {
    status = host->status_make(TFLACCEL_OUT_OF_MEMORY,
                               "cpu_xnnpack: cannot create a subgraph (status %d)", (int)xnn);
  } else {
    char reason[TFLACCEL_REASON_SIZE] = "";
    xnnp_build build = {subgraph, graph, value_ids, reason};
    uint32_t failed_op = UINT32_MAX;
    if (!define_partition(&build, partition, &failed_op)) {
      if (failed_op != UINT32_MAX)
        status = host->status_make(TFLACCEL_UNSUPPORTED, "cpu_xnnpack compile: op #%u (%s): %s",
                                   failed_op, xnnp_op_name(&graph->ops[failed_op]), reason);
      else
        status = host->status_make(TFLACCEL_UNSUPPORTED, "cpu_xnnpack compile: %s", reason);
    }
    pthreadpool_t pool = NULL;
    if (status == NULL) status = xnnp_device_pool(device, thread_count, &pool);
    if (status == NULL) {
      uint32_t flags = precision == TFLACCEL_PRECISION_FP16 && device->fp16_supported
                           ? XNN_FLAG_HINT_FP16_INFERENCE
                           : 0;
      xnn = xnn_create_runtime_v2(subgraph, pool, flags, &executable->runtime);
      if (xnn != xnn_status_success) {
        executable->runtime = NULL;
        status = host->status_make(TFLACCEL_UNSUPPORTED,
                                   "cpu_xnnpack compile: XNNPACK cannot create the runtime for "
                                   "%u ops (status %d)",
                                   partition->op_count, (int)xnn);
      }
    }
    /* The runtime keeps what it needs; the subgraph can go. */
    xnn_delete_subgraph(subgraph);
  }
  host->free(host->context, value_ids);
  if (status != NULL) {
    xnnp_executable_destroy(device_handle, (tflaccel_executable *)executable);
    return status;
  }
  *executable_out = (tflaccel_executable *)executable;
  return NULL;
}

static int32_t external_slot(const xnnp_executable *executable, uint32_t tensor) {
  for (uint32_t i = 0; i < executable->external_count; i++)
    if (executable->tensors[i] == tensor) return (int32_t)i;
  return -1;
}

/* An input XNNPACK may over-read by XNN_EXTRA_BYTES: memory without that
 * slack is copied into a padded staging area first. */
static tflaccel_status input_address(const tflaccel_host_services *host,
                                     xnnp_executable *executable, uint32_t slot,
                                     const xnnp_buffer *buffer, uint64_t offset, void **address) {
  unsigned char *data = buffer->data + offset;
  uint64_t size = executable->sizes[slot];
  uint64_t readable_after = buffer->size - offset - size + buffer->slack;
  if (readable_after >= XNN_EXTRA_BYTES) {
    *address = data;
    return NULL;
  }
  if (executable->staging[slot] == NULL) {
    executable->staging[slot] = host->alloc(host->context, (size_t)size + XNN_EXTRA_BYTES, 64);
    if (executable->staging[slot] == NULL) return oom(host, "an input copy");
  }
  memcpy(executable->staging[slot], data, (size_t)size);
  *address = executable->staging[slot];
  return NULL;
}

tflaccel_status xnnp_execute(tflaccel_device *device, tflaccel_executable *handle,
                             const tflaccel_binding *bindings, uint32_t binding_count,
                             tflaccel_event **completion) {
  const tflaccel_host_services *host = ((xnnp_device *)device)->host;
  xnnp_executable *executable = (xnnp_executable *)handle;
  if (completion != NULL) *completion = NULL;
  if (executable == NULL || (binding_count > 0 && bindings == NULL))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_xnnpack execute: no executable or no bindings");
  if (binding_count != executable->external_count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_xnnpack execute: %u bindings for %u inputs and outputs",
                             binding_count, executable->external_count);
  int changed = !executable->set_up;
  /* Every run has its own mark, so a tensor bound twice (and hence, with the
   * count checked, one left unbound) is caught without clearing anything. */
  uint32_t run = ++executable->run;
  if (run == 0) {
    memset(executable->bound_in_run, 0,
           executable->external_count * sizeof *executable->bound_in_run);
    run = executable->run = 1;
  }
  for (uint32_t i = 0; i < binding_count; i++) {
    const tflaccel_binding *binding = &bindings[i];
    int32_t slot = external_slot(executable, binding->tensor);
    const xnnp_buffer *buffer = (const xnnp_buffer *)binding->buffer;
    if (slot < 0)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_xnnpack execute: tensor %u is not an input or output of the "
                               "partition",
                               binding->tensor);
    if (buffer == NULL || binding->size != executable->sizes[slot] ||
        binding->offset > buffer->size || binding->size > buffer->size - binding->offset)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_xnnpack execute: the binding for tensor %u is not %llu bytes "
                               "inside its buffer",
                               binding->tensor, (unsigned long long)executable->sizes[slot]);
    if (executable->bound_in_run[slot] == run)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_xnnpack execute: tensor %u is bound twice", binding->tensor);
    executable->bound_in_run[slot] = run;
    void *address = buffer->data + binding->offset;
    if ((uint32_t)slot < executable->input_count) {
      tflaccel_status status =
          input_address(host, executable, (uint32_t)slot, buffer, binding->offset, &address);
      if (status != NULL) return status;
    }
    if (executable->externals[slot].data != address) changed = 1;
    executable->externals[slot].data = address;
  }
  if (changed) {
    enum xnn_status status =
        xnn_setup_runtime(executable->runtime, executable->external_count, executable->externals);
    if (status != xnn_status_success) {
      executable->set_up = 0;
      return host->status_make(TFLACCEL_INTERNAL,
                               "cpu_xnnpack execute: XNNPACK setup failed (status %d)",
                               (int)status);
    }
    executable->set_up = 1;
  }
  enum xnn_status status = xnn_invoke_runtime(executable->runtime);
  if (status != xnn_status_success)
    return host->status_make(TFLACCEL_INTERNAL, "cpu_xnnpack execute: XNNPACK run failed (status %d)",
                             (int)status);
  return NULL;
}
