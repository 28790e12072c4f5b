/* cpu_ref executables: a partition's ops with their kernels, one arena for
 * the tensors produced and consumed inside it, and state for variables.
 *
 * Every tensor the partition touches gets a host address in tensor_data:
 * constants point at their data, partition inputs and outputs at the bound
 * buffers (set at each execute), variables at state owned here, and every
 * other tensor produced inside at an offset of the arena, placed by the
 * host's planner from its lifetime within the partition. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/cpu_ref/device.h"
#include "plugins/cpu_ref/graph_copy.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"
#include "plugins/cpu_ref/op_support.h"

#define ARENA_ALIGNMENT 64

typedef struct cpu_variable {
  uint32_t tensor;
  uint64_t offset; /* in state */
} cpu_variable;

typedef struct cpu_executable {
  const tflaccel_host_services *host;
  const cpu_device *device;
  cpu_graph_copy graph; /* what kernels read at every run */
  uint32_t op_count;
  const cpu_kernel **kernels;
  cpu_op_context *contexts; /* one per op, op_data from prepare() */
  void **tensor_data;       /* graph.view.tensor_count entries */
  unsigned char *arena;
  uint64_t arena_size;
  /* Partition inputs then outputs: what bindings name. */
  uint32_t bound_count, input_count;
  uint32_t *bound_tensors;
  int32_t *bound_slot; /* tensor -> index in bound_tensors, or -1 */
  unsigned char *bound_seen;
  /* Variables and their state. */
  uint32_t variable_count;
  cpu_variable *variables;
  unsigned char *state;
  cpu_thread_pool *pool;
} cpu_executable;

/* What the partition does with each tensor (compile time only). */
enum tensor_role {
  ROLE_UNUSED = 0,
  ROLE_CONSTANT,
  ROLE_INPUT,
  ROLE_OUTPUT,
  ROLE_VARIABLE,
  ROLE_ARENA,
};

typedef struct tensor_use {
  int32_t role;
  int32_t producer; /* position in the partition, -1 if none */
  int32_t last_use;
  int32_t arena_request; /* index in the planner's requests, -1 if none */
} tensor_use;

static tflaccel_status annotate(const tflaccel_host_services *host, tflaccel_status status,
                                const char *format_prefix, uint32_t op_index,
                                const char *op_name) {
  tflaccel_status annotated =
      host->status_make(host->status_code(status), "%s op #%u (%s): %s", format_prefix, op_index,
                        op_name, host->status_message(status));
  host->status_free(status);
  return annotated;
}

tflaccel_status cpu_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                uint32_t op_index, const tflaccel_compile_options *options,
                                tflaccel_op_support *support) {
  (void)options;
  const tflaccel_host_services *host = ((cpu_device *)device)->host;
  if (graph == NULL || support == NULL || op_index >= graph->op_count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_ref supports_op: op index %u is outside the graph", op_index);
  char reason[TFLACCEL_REASON_SIZE];
  const cpu_kernel *kernel = cpu_op_kernel(graph, &graph->ops[op_index], reason);
  support->level = kernel != NULL ? TFLACCEL_SUPPORT_YES : TFLACCEL_SUPPORT_NO;
  support->relative_cost = 1.0f;
  if (kernel != NULL)
    support->reason[0] = '\0';
  else
    snprintf(support->reason, sizeof support->reason, "%s", reason);
  return NULL;
}

static void executable_free(cpu_executable *executable) {
  const tflaccel_host_services *host = executable->host;
  if (executable->contexts != NULL && executable->kernels != NULL) {
    for (uint32_t i = 0; i < executable->op_count; i++) {
      const cpu_kernel *kernel = executable->kernels[i];
      if (kernel != NULL && kernel->release != NULL && executable->contexts[i].op_data != NULL)
        kernel->release(host, executable->contexts[i].op_data);
    }
  }
  cpu_thread_pool_destroy(executable->pool);
  void *allocations[] = {executable->kernels,      executable->contexts,   executable->tensor_data,
                         executable->arena,        executable->bound_tensors,
                         executable->bound_slot,   executable->bound_seen, executable->variables,
                         executable->state};
  for (size_t i = 0; i < sizeof allocations / sizeof allocations[0]; i++)
    if (allocations[i] != NULL) host->free(host->context, allocations[i]);
  cpu_graph_copy_destroy(host, &executable->graph);
  host->free(host->context, executable);
}

static void *alloc_zeroed(const tflaccel_host_services *host, size_t size, size_t alignment) {
  void *pointer = host->alloc(host->context, size, alignment);
  if (pointer != NULL) memset(pointer, 0, size);
  return pointer;
}

static tflaccel_status oom(const tflaccel_host_services *host, const char *what) {
  return host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref compile: no memory for %s", what);
}

/* Marks partition inputs and outputs; rejects indices out of range and
 * variables, which cpu_ref keeps as executable state. */
static tflaccel_status mark_bound(const tflaccel_host_services *host,
                                  const tflaccel_graph_view *graph, const uint32_t *tensors,
                                  uint32_t count, int32_t role, tensor_use *uses) {
  const char *what = role == ROLE_INPUT ? "input" : "output";
  for (uint32_t i = 0; i < count; i++) {
    uint32_t t = tensors[i];
    if (t >= graph->tensor_count)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref compile: partition %s %u names tensor %u, the graph has %u",
                               what, i, t, graph->tensor_count);
    const tflaccel_tensor_desc *tensor = &graph->tensors[t];
    if (tensor->flags & TFLACCEL_TENSOR_VARIABLE)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref compile: tensor %u '%s' is a variable (state kept by the "
                               "executable) and cannot be a partition %s",
                               t, tensor->name, what);
    if (uses[t].role == ROLE_INPUT || uses[t].role == ROLE_OUTPUT)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref compile: tensor %u is listed twice among the partition's "
                               "inputs and outputs",
                               t);
    uses[t].role = role;
  }
  return NULL;
}

/* Walks the ops in order: records producers and last uses, and checks that
 * every tensor read has a source. */
static tflaccel_status trace_uses(const tflaccel_host_services *host,
                                  const tflaccel_graph_view *graph,
                                  const tflaccel_partition_desc *partition, tensor_use *uses) {
  for (uint32_t p = 0; p < partition->op_count; p++) {
    uint32_t op_index = partition->ops[p];
    const tflaccel_op_desc *op = &graph->ops[op_index];
    for (uint32_t i = 0; i < op->input_count; i++) {
      uint32_t t = op->inputs[i];
      if (t == TFLACCEL_NO_TENSOR) continue;
      tensor_use *use = &uses[t];
      const tflaccel_tensor_desc *tensor = &graph->tensors[t];
      if (use->role == ROLE_UNUSED) {
        if (tensor->flags & TFLACCEL_TENSOR_VARIABLE)
          use->role = ROLE_VARIABLE;
        else if (cpu_is_constant(tensor))
          use->role = ROLE_CONSTANT;
        else if (use->producer < 0)
          return host->status_make(
              TFLACCEL_INVALID_ARGUMENT,
              "cpu_ref compile: op #%u (%s) reads tensor %u '%s', which is not a partition "
              "input, a constant, a variable or produced earlier in the partition",
              op_index, cpu_op_name(op), t, tensor->name);
      }
      if (use->role == ROLE_OUTPUT && use->producer < 0)
        return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                 "cpu_ref compile: op #%u (%s) reads tensor %u before the "
                                 "partition produces it",
                                 op_index, cpu_op_name(op), t);
      use->last_use = (int32_t)p;
    }
    for (uint32_t i = 0; i < op->output_count; i++) {
      uint32_t t = op->outputs[i];
      if (t == TFLACCEL_NO_TENSOR) continue;
      tensor_use *use = &uses[t];
      if (use->role == ROLE_INPUT || use->role == ROLE_CONSTANT || use->producer >= 0)
        return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                 "cpu_ref compile: op #%u (%s) writes tensor %u '%s', which is "
                                 "already a partition input, a constant or another op's output",
                                 op_index, cpu_op_name(op), t, graph->tensors[t].name);
      if (use->role == ROLE_UNUSED)
        use->role = (graph->tensors[t].flags & TFLACCEL_TENSOR_VARIABLE) ? ROLE_VARIABLE
                                                                          : ROLE_ARENA;
      use->producer = (int32_t)p;
      if (use->last_use < (int32_t)p) use->last_use = (int32_t)p;
    }
  }
  for (uint32_t i = 0; i < partition->output_count; i++) {
    uint32_t t = partition->outputs[i];
    if (uses[t].producer < 0)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref compile: partition output tensor %u '%s' is produced by "
                               "none of its ops",
                               t, graph->tensors[t].name);
  }
  return NULL;
}

/* Places every ROLE_ARENA tensor and allocates the arena. */
static tflaccel_status plan_arena(cpu_executable *executable, const tflaccel_graph_view *graph,
                                  tensor_use *uses) {
  const tflaccel_host_services *host = executable->host;
  uint32_t request_count = 0;
  for (uint32_t t = 0; t < graph->tensor_count; t++)
    if (uses[t].role == ROLE_ARENA) request_count++;
  tflaccel_arena_request *requests = NULL;
  if (request_count > 0) {
    requests = alloc_zeroed(host, sizeof *requests * request_count, 0);
    if (requests == NULL) return oom(host, "arena requests");
  }
  uint32_t r = 0;
  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    if (uses[t].role != ROLE_ARENA) continue;
    requests[r].size = graph->tensors[t].byte_size;
    requests[r].first_use = uses[t].producer;
    requests[r].last_use = uses[t].last_use;
    uses[t].arena_request = (int32_t)r;
    r++;
  }
  uint64_t total = 0;
  tflaccel_status status = NULL;
  if (request_count > 0) status = host->plan_arena(requests, request_count, ARENA_ALIGNMENT, &total);
  if (status == NULL && total > (uint64_t)SIZE_MAX)
    status = host->status_make(TFLACCEL_OUT_OF_MEMORY, "cpu_ref compile: arena too large");
  if (status == NULL) {
    executable->arena = host->alloc(host->context, (size_t)total, ARENA_ALIGNMENT);
    executable->arena_size = total;
    if (executable->arena == NULL) status = oom(host, "the activation arena");
  }
  if (status == NULL) {
    for (uint32_t t = 0; t < graph->tensor_count; t++)
      if (uses[t].role == ROLE_ARENA)
        executable->tensor_data[t] = executable->arena + requests[uses[t].arena_request].offset;
  }
  if (requests != NULL) host->free(host->context, requests);
  return status;
}

/* Restores every variable to its initial value (its data, else zeros). */
static void load_initial_state(cpu_executable *executable) {
  const tflaccel_graph_view *graph = &executable->graph.view;
  for (uint32_t i = 0; i < executable->variable_count; i++) {
    const tflaccel_tensor_desc *tensor = &graph->tensors[executable->variables[i].tensor];
    unsigned char *state = executable->state + executable->variables[i].offset;
    if (tensor->data != NULL) {
      memcpy(state, tensor->data, (size_t)tensor->byte_size);
    } else if (tensor->dtype == TFLACCEL_DTYPE_INT8 && tensor->quantization.count > 0) {
      /* TFLite resets a quantized int8 state to its zero point (the real
       * value 0), not to the integer 0. */
      memset(state, (unsigned char)(int8_t)tensor->quantization.zero_points[0],
             (size_t)tensor->byte_size);
    } else {
      memset(state, 0, (size_t)tensor->byte_size);
    }
  }
}

static tflaccel_status allocate_state(cpu_executable *executable, const tensor_use *uses) {
  const tflaccel_host_services *host = executable->host;
  const tflaccel_graph_view *graph = &executable->graph.view;
  uint32_t count = 0;
  uint64_t size = 0;
  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    if (uses[t].role != ROLE_VARIABLE) continue;
    count++;
    size += (graph->tensors[t].byte_size + ARENA_ALIGNMENT - 1) / ARENA_ALIGNMENT * ARENA_ALIGNMENT;
  }
  executable->variable_count = count;
  if (count == 0) return NULL;
  executable->variables = host->alloc(host->context, sizeof *executable->variables * count, 0);
  executable->state = host->alloc(host->context, (size_t)size, ARENA_ALIGNMENT);
  if (executable->variables == NULL || executable->state == NULL)
    return oom(host, "variable state");
  uint32_t v = 0;
  uint64_t offset = 0;
  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    if (uses[t].role != ROLE_VARIABLE) continue;
    executable->variables[v].tensor = t;
    executable->variables[v].offset = offset;
    executable->tensor_data[t] = executable->state + offset;
    offset += (graph->tensors[t].byte_size + ARENA_ALIGNMENT - 1) / ARENA_ALIGNMENT * ARENA_ALIGNMENT;
    v++;
  }
  load_initial_state(executable);
  return NULL;
}

static tflaccel_status build(cpu_executable *executable, const tflaccel_graph_view *graph,
                             const tflaccel_partition_desc *partition,
                             const tflaccel_compile_options *options, tensor_use *uses) {
  const tflaccel_host_services *host = executable->host;
  uint32_t op_count = partition->op_count;
  executable->op_count = op_count;

  executable->kernels = alloc_zeroed(host, sizeof *executable->kernels * (op_count + 1), 0);
  executable->contexts = alloc_zeroed(host, sizeof *executable->contexts * (op_count + 1), 0);
  if (executable->kernels == NULL || executable->contexts == NULL) return oom(host, "ops");
  for (uint32_t p = 0; p < op_count; p++) {
    uint32_t op_index = partition->ops[p];
    if (op_index >= graph->op_count)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref compile: partition op %u is op #%u, the graph has %u ops",
                               p, op_index, graph->op_count);
    char reason[TFLACCEL_REASON_SIZE];
    executable->kernels[p] = cpu_op_kernel(graph, &graph->ops[op_index], reason);
    if (executable->kernels[p] == NULL)
      return host->status_make(TFLACCEL_UNSUPPORTED, "cpu_ref cannot run op #%u (%s): %s",
                               op_index, cpu_op_name(&graph->ops[op_index]), reason);
  }

  tflaccel_status status = cpu_graph_copy_create(host, graph, &executable->graph);
  if (status != NULL) return status;
  const tflaccel_graph_view *view = &executable->graph.view;

  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    uses[t].producer = -1;
    uses[t].last_use = -1;
    uses[t].arena_request = -1;
  }
  status = mark_bound(host, graph, partition->inputs, partition->input_count, ROLE_INPUT, uses);
  if (status == NULL)
    status =
        mark_bound(host, graph, partition->outputs, partition->output_count, ROLE_OUTPUT, uses);
  if (status == NULL) status = trace_uses(host, graph, partition, uses);
  if (status != NULL) return status;

  executable->tensor_data = alloc_zeroed(host, sizeof(void *) * (graph->tensor_count + 1), 0);
  if (executable->tensor_data == NULL) return oom(host, "the tensor table");
  for (uint32_t t = 0; t < graph->tensor_count; t++)
    if (uses[t].role == ROLE_CONSTANT) executable->tensor_data[t] = (void *)view->tensors[t].data;
  status = plan_arena(executable, graph, uses);
  if (status == NULL) status = allocate_state(executable, uses);
  if (status != NULL) return status;

  executable->input_count = partition->input_count;
  executable->bound_count = partition->input_count + partition->output_count;
  executable->bound_tensors =
      host->alloc(host->context, sizeof(uint32_t) * (executable->bound_count + 1), 0);
  executable->bound_seen = alloc_zeroed(host, executable->bound_count + 1, 0);
  executable->bound_slot = host->alloc(host->context, sizeof(int32_t) * (graph->tensor_count + 1), 0);
  if (executable->bound_tensors == NULL || executable->bound_seen == NULL ||
      executable->bound_slot == NULL)
    return oom(host, "bindings");
  for (uint32_t t = 0; t < graph->tensor_count; t++) executable->bound_slot[t] = -1;
  for (uint32_t i = 0; i < partition->input_count; i++)
    executable->bound_tensors[i] = partition->inputs[i];
  for (uint32_t i = 0; i < partition->output_count; i++)
    executable->bound_tensors[partition->input_count + i] = partition->outputs[i];
  for (uint32_t i = 0; i < executable->bound_count; i++)
    executable->bound_slot[executable->bound_tensors[i]] = (int32_t)i;

  int32_t threads = options != NULL ? options->thread_count : 1;
  if (executable->device->thread_override > 0) threads = executable->device->thread_override;
  status = cpu_thread_pool_create(host, threads, &executable->pool);
  if (status != NULL) return status;

  for (uint32_t p = 0; p < op_count; p++) {
    cpu_op_context *context = &executable->contexts[p];
    context->host = host;
    context->graph = view;
    context->op_index = partition->ops[p];
    context->op = &view->ops[context->op_index];
    context->tensor_data = executable->tensor_data;
    context->op_data = NULL;
    context->pool = executable->pool;
    context->precision = options != NULL ? options->precision : TFLACCEL_PRECISION_FP32;
    const cpu_kernel *kernel = executable->kernels[p];
    if (kernel->prepare == NULL) continue;
    void *op_data = NULL;
    status = kernel->prepare(context, &op_data);
    context->op_data = op_data;
    if (status != NULL)
      return annotate(host, status, "cpu_ref compile:", context->op_index,
                      cpu_op_name(context->op));
  }
  if (host->log_enabled(host->context, TFLACCEL_LOG_DEBUG))
    host->log(host->context, TFLACCEL_LOG_DEBUG,
              "compiled %u ops: arena %llu bytes, %u variables, %d threads", op_count,
              (unsigned long long)executable->arena_size, executable->variable_count,
              cpu_thread_pool_size(executable->pool));
  return NULL;
}

tflaccel_status cpu_compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                            const tflaccel_partition_desc *partition,
                            const tflaccel_compile_options *options,
                            tflaccel_executable **executable_out) {
  const tflaccel_host_services *host = ((cpu_device *)device)->host;
  if (executable_out == NULL || graph == NULL || partition == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_ref compile: NULL argument");
  *executable_out = NULL;
  if ((partition->op_count > 0 && partition->ops == NULL) ||
      (partition->input_count > 0 && partition->inputs == NULL) ||
      (partition->output_count > 0 && partition->outputs == NULL))
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_ref compile: the partition lacks its op, input or output list");
  cpu_executable *executable = alloc_zeroed(host, sizeof *executable, 0);
  tensor_use *uses = alloc_zeroed(host, sizeof *uses * (graph->tensor_count + 1), 0);
  if (executable == NULL || uses == NULL) {
    if (executable != NULL) host->free(host->context, executable);
    if (uses != NULL) host->free(host->context, uses);
    return oom(host, "an executable");
  }
  executable->host = host;
  executable->device = (const cpu_device *)device;
  tflaccel_status status = build(executable, graph, partition, options, uses);
  host->free(host->context, uses);
  if (status != NULL) {
    executable_free(executable);
    return status;
  }
  *executable_out = (tflaccel_executable *)executable;
  return NULL;
}

void cpu_executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  (void)device;
  if (executable != NULL) executable_free((cpu_executable *)executable);
}

/* Points every bound tensor at its buffer after checking the bindings name
 * each partition input and output exactly once, with the right size. */
static tflaccel_status apply_bindings(cpu_executable *executable,
                                      const tflaccel_binding *bindings, uint32_t binding_count) {
  const tflaccel_host_services *host = executable->host;
  const tflaccel_graph_view *graph = &executable->graph.view;
  if (binding_count > 0 && bindings == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_ref execute: bindings is NULL");
  memset(executable->bound_seen, 0, executable->bound_count);
  for (uint32_t i = 0; i < binding_count; i++) {
    const tflaccel_binding *binding = &bindings[i];
    uint32_t t = binding->tensor;
    int32_t slot = t < graph->tensor_count ? executable->bound_slot[t] : -1;
    if (slot < 0)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: binding %u names tensor %u, which is not an input "
                               "or output of this partition",
                               i, t);
    const tflaccel_tensor_desc *tensor = &graph->tensors[t];
    if (executable->bound_seen[slot])
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: tensor %u '%s' is bound twice", t, tensor->name);
    executable->bound_seen[slot] = 1;
    const cpu_buffer *buffer = (const cpu_buffer *)binding->buffer;
    if (buffer == NULL)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: binding for tensor %u '%s' has no buffer", t,
                               tensor->name);
    if (binding->size != tensor->byte_size)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: binding for tensor %u '%s' is %llu bytes, the "
                               "tensor is %llu bytes",
                               t, tensor->name, (unsigned long long)binding->size,
                               (unsigned long long)tensor->byte_size);
    if (binding->offset > buffer->size || binding->size > buffer->size - binding->offset)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: binding for tensor %u '%s' covers bytes [%llu, "
                               "+%llu), outside its %llu-byte buffer",
                               t, tensor->name, (unsigned long long)binding->offset,
                               (unsigned long long)binding->size,
                               (unsigned long long)buffer->size);
    unsigned char *address = buffer->data + binding->offset;
    size_t element_size = cpu_dtype_size(tensor->dtype);
    if (element_size > 8) element_size = 8;
    if (element_size > 1 && ((uintptr_t)address % element_size) != 0)
      return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                               "cpu_ref execute: binding for tensor %u '%s' at offset %llu is not "
                               "aligned to its %zu-byte elements",
                               t, tensor->name, (unsigned long long)binding->offset,
                               element_size);
    executable->tensor_data[t] = address;
  }
  for (uint32_t slot = 0; slot < executable->bound_count; slot++) {
    if (executable->bound_seen[slot]) continue;
    uint32_t t = executable->bound_tensors[slot];
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "cpu_ref execute: partition %s tensor %u '%s' is not bound",
                             slot < executable->input_count ? "input" : "output", t,
                             graph->tensors[t].name);
  }
  return NULL;
}

static void clear_bindings(cpu_executable *executable) {
  for (uint32_t slot = 0; slot < executable->bound_count; slot++)
    executable->tensor_data[executable->bound_tensors[slot]] = NULL;
}

tflaccel_status cpu_execute(tflaccel_device *device, tflaccel_executable *handle,
                            const tflaccel_binding *bindings, uint32_t binding_count,
                            tflaccel_event **completion) {
  const tflaccel_host_services *host = ((cpu_device *)device)->host;
  /* Synchronous device: results are in place when execute returns. */
  if (completion != NULL) *completion = NULL;
  if (handle == NULL)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_ref execute: NULL executable");
  cpu_executable *executable = (cpu_executable *)handle;
  tflaccel_status status = apply_bindings(executable, bindings, binding_count);
  for (uint32_t p = 0; status == NULL && p < executable->op_count; p++) {
    const cpu_op_context *context = &executable->contexts[p];
    status = executable->kernels[p]->eval(context);
    if (status != NULL)
      status = annotate(host, status, "cpu_ref execute:", context->op_index,
                        cpu_op_name(context->op));
  }
  clear_bindings(executable);
  return status;
}

tflaccel_status cpu_reset_state(tflaccel_device *device, tflaccel_executable *handle) {
  if (handle == NULL)
    return ((cpu_device *)device)
        ->host->status_make(TFLACCEL_INVALID_ARGUMENT, "cpu_ref reset_state: NULL executable");
  load_initial_state((cpu_executable *)handle);
  return NULL;
}
