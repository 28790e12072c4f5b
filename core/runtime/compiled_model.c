/* tflaccel_compiled_model_*: partition, compile, run.
 *
 * Boundary tensors (graph inputs and outputs, and tensors that cross from
 * one partition to another) live in one host arena planned by lifetime in
 * partition steps. Host-memory accelerators use it in place; the others
 * copy their inputs in and their outputs out around each execute. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/dtype.h"
#include "core/facts/op_names.h"
#include "core/log/log.h"
#include "core/memory/arena_planner.h"
#include "core/graph/model.h"
#include "core/runtime/compiled_model.h"
#include "core/runtime/device_event.h"
#include "core/runtime/environment.h"
#include "core/runtime/run_profile.h"
#include "core/runtime/tensor_buffer.h"
#include "core/runtime/tensor_event.h"

#define ARENA_ALIGNMENT 64

void tflaccel_compilation_options_init(tflaccel_compilation_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->struct_size = sizeof *options;
  options->accelerators = NULL;
  options->precision = -1;
  options->thread_count = 0;
  options->max_delegated_partitions = -1;
  options->min_partition_ops = -1;
  options->require_full_delegation = -1;
}

static const char *op_display_name(const tflaccel_op_desc *op) {
  if (op->code == TFLACCEL_OP_CUSTOM && op->custom_code != NULL) return op->custom_code;
  const char *name = op_code_name(op->code);
  return name ? name : "UNKNOWN";
}

static const char *precision_name(int32_t precision) {
  return precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32";
}

/* Asks every candidate about every op. */
typedef struct support_table {
  uint8_t *supported;       /* candidate-major */
  float *relative_cost;
  int32_t *precision; /* the precision an op needs other than the requested, else -1 */
  char (*reasons)[TFLACCEL_REASON_SIZE];
  const char **reason_pointers;
} support_table;

static void support_table_free(support_table *table) {
  free(table->supported);
  free(table->relative_cost);
  free(table->precision);
  free(table->reasons);
  free(table->reason_pointers);
}

static tflaccel_status query_support(tflaccel_compiled_model *compiled, support_table *table,
                                     tflaccel_device **devices) {
  const tflaccel_graph_view *graph = compiled->graph;
  size_t cells = (size_t)compiled->candidate_count * (graph->op_count ? graph->op_count : 1);
  table->supported = calloc(cells, 1);
  table->relative_cost = calloc(cells, sizeof *table->relative_cost);
  table->precision = calloc(cells, sizeof *table->precision);
  table->reasons = calloc(cells, sizeof *table->reasons);
  table->reason_pointers = calloc(cells, sizeof *table->reason_pointers);
  if (!table->supported || !table->relative_cost || !table->precision || !table->reasons ||
      !table->reason_pointers)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  for (uint32_t c = 0; c < compiled->candidate_count; ++c) {
    for (uint32_t op = 0; op < graph->op_count; ++op) {
      size_t cell = (size_t)c * graph->op_count + op;
      tflaccel_op_support support;
      memset(&support, 0, sizeof support);
      support.struct_size = sizeof support;
      support.precision = -1; /* a plugin built before ABI 1.3 leaves it */
      /* supports_op is pure by the ABI; the lock costs little and keeps a
       * plugin that caches per device safe all the same. */
      registry_device_lock(compiled->candidate_plugins[c]);
      tflaccel_status status = devices[c]->vtable->supports_op(devices[c], graph, op,
                                                                &compiled->compile_options, &support);
      registry_device_unlock(compiled->candidate_plugins[c]);
      if (status != NULL)
        return tflaccel_status_annotate(status, "%s: supports_op(op %u)", compiled->candidate_names[c], op);
      support.reason[TFLACCEL_REASON_SIZE - 1] = '\0';
      table->supported[cell] = support.level == TFLACCEL_SUPPORT_YES;
      table->precision[cell] = -1;
      if (table->supported[cell] && TFLACCEL_HAS_FIELD(tflaccel_op_support, &support, precision) &&
          support.precision != -1 && support.precision != compiled->compile_options.precision) {
        if (support.precision != TFLACCEL_PRECISION_FP32 &&
            support.precision != TFLACCEL_PRECISION_FP16)
          return tflaccel_status_make(TFLACCEL_INTERNAL,
                                      "%s: supports_op(op %u) requires precision %d, neither fp32 "
                                      "nor fp16",
                                      compiled->candidate_names[c], op, (int)support.precision);
        table->precision[cell] = support.precision;
      }
      table->relative_cost[cell] = support.relative_cost;
      /* Every message that shows a reason names the accelerator already;
       * a reason that starts with it too ("gpu_cl: ...") loses that prefix. */
      const char *reason = support.reason;
      size_t name_length = strlen(compiled->candidate_names[c]);
      if (!strncmp(reason, compiled->candidate_names[c], name_length) &&
          !strncmp(reason + name_length, ": ", 2))
        reason += name_length + 2;
      snprintf(table->reasons[cell], TFLACCEL_REASON_SIZE, "%s", reason);
      if (!table->supported[cell] && table->reasons[cell][0] == '\0')
        snprintf(table->reasons[cell], TFLACCEL_REASON_SIZE, "no reason given");
      table->reason_pointers[cell] = table->reasons[cell];
    }
  }
  return NULL;
}

/* TFLite users know these lines: one warning per declined op code, then a
 * summary of where ops run. */
static void report_placement(const tflaccel_compiled_model *compiled, const support_table *table,
                             uint32_t fallback) {
  const tflaccel_graph_view *graph = compiled->graph;
  int32_t level = compiled->environment->log_level;
  for (uint32_t c = 0; c < compiled->candidate_count; ++c) {
    if (c == fallback) continue;
    for (uint32_t op = 0; op < graph->op_count; ++op) {
      size_t cell = (size_t)c * graph->op_count + op;
      if (table->supported[cell]) continue;
      int first = 1;
      for (uint32_t earlier = 0; earlier < op && first; ++earlier) {
        size_t earlier_cell = (size_t)c * graph->op_count + earlier;
        if (!table->supported[earlier_cell] && graph->ops[earlier].code == graph->ops[op].code &&
            (graph->ops[op].code != TFLACCEL_OP_CUSTOM ||
             !strcmp(op_display_name(&graph->ops[earlier]), op_display_name(&graph->ops[op]))))
          first = 0;
      }
      if (!first) continue;
      log_write(level, TFLACCEL_LOG_WARNING, NULL,
                "op code #%d (%s) cannot be handled by this delegate (%s): %s",
                (int)graph->ops[op].code, op_display_name(&graph->ops[op]),
                compiled->candidate_names[c], table->reasons[cell]);
    }
  }
  uint32_t on_fallback = 0;
  for (uint32_t op = 0; op < graph->op_count; ++op)
    if (compiled->plan->op_candidate[op] == fallback) ++on_fallback;
  for (uint32_t c = 0; c < compiled->candidate_count; ++c) {
    if (c == fallback) continue;
    uint32_t ops = 0, partitions = 0;
    for (uint32_t op = 0; op < graph->op_count; ++op)
      if (compiled->plan->op_candidate[op] == c) ++ops;
    for (uint32_t p = 0; p < compiled->plan->partition_count; ++p)
      if (compiled->plan->partitions[p].candidate == c) ++partitions;
    /* An accelerator that got nothing was already explained by the
     * warnings above; a "0 operations" line per accelerator is noise. */
    if (ops == 0) continue;
    log_write(level, TFLACCEL_LOG_INFO, NULL,
              "%u operations will run on %s in %u partitions, and the remaining %u operations "
              "will run on %s",
              ops, compiled->candidate_names[c], partitions, on_fallback,
              compiled->candidate_names[fallback]);
  }
  /* Partitions compiled at a precision other than the requested one, with
   * the plugin's reason for their first op that needs it (the others
   * joined it: core/partition/partitioner.c, raise_small_runs). */
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    const partition *part = &compiled->plan->partitions[p];
    if (part->precision == -1 || part->op_count == 0) continue;
    uint32_t first = part->ops[0], needing = 0;
    for (uint32_t i = 0; i < part->op_count; ++i) {
      uint32_t op = part->ops[i];
      if (table->precision[(size_t)part->candidate * graph->op_count + op] != part->precision)
        continue;
      if (needing++ == 0) first = op;
    }
    const char *why = table->reasons[(size_t)part->candidate * graph->op_count + first];
    char joined[64] = "";
    if (needing < part->op_count)
      snprintf(joined, sizeof joined, " (%u of them need it; the others joined them)", needing);
    log_write(level, TFLACCEL_LOG_INFO, NULL,
              "partition %u (%u operation%s on %s) runs at %s%s, not the requested %s: op %u (%s): %s",
              p, part->op_count, part->op_count == 1 ? "" : "s",
              compiled->candidate_names[part->candidate],
              precision_name(part->precision), joined,
              precision_name(compiled->compile_options.precision),
              first, op_display_name(&graph->ops[first]), *why ? why : "no reason given");
  }
}

static tflaccel_status plan_arena(tflaccel_compiled_model *compiled) {
  const tflaccel_graph_view *graph = compiled->graph;
  const partition_plan *plan = compiled->plan;
  uint32_t tensor_count = graph->tensor_count;
  compiled->tensor_offset = malloc(sizeof *compiled->tensor_offset * (tensor_count + 1));
  int32_t *first = malloc(sizeof *first * (tensor_count + 1));
  int32_t *last = malloc(sizeof *last * (tensor_count + 1));
  tflaccel_arena_request *requests = malloc(sizeof *requests * (tensor_count + 1));
  uint32_t *request_tensor = malloc(sizeof *request_tensor * (tensor_count + 1));
  tflaccel_status status = NULL;
  if (!compiled->tensor_offset || !first || !last || !requests || !request_tensor) {
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
    goto cleanup;
  }
  for (uint32_t t = 0; t < tensor_count; ++t) {
    compiled->tensor_offset[t] = UINT64_MAX;
    first[t] = INT32_MAX;
    last[t] = -1;
  }
  int32_t end = (int32_t)plan->partition_count;
  for (uint32_t i = 0; i < compiled->graph_input_count; ++i) {
    uint32_t t = compiled->graph_inputs[i];
    first[t] = 0;
    if (last[t] < 0) last[t] = 0;
  }
  for (uint32_t i = 0; i < compiled->graph_output_count; ++i) {
    uint32_t t = compiled->graph_outputs[i];
    if (graph->tensors[t].flags & TFLACCEL_TENSOR_CONSTANT) continue;
    if (first[t] == INT32_MAX) first[t] = end;
    last[t] = end;
  }
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    const partition *part = &plan->partitions[p];
    for (uint32_t i = 0; i < part->input_count; ++i) {
      uint32_t t = part->inputs[i];
      if (first[t] > (int32_t)p) first[t] = (int32_t)p;
      if (last[t] < (int32_t)p) last[t] = (int32_t)p;
    }
    for (uint32_t i = 0; i < part->output_count; ++i) {
      uint32_t t = part->outputs[i];
      if (first[t] > (int32_t)p) first[t] = (int32_t)p;
      if (last[t] < (int32_t)p) last[t] = (int32_t)p;
    }
  }
  uint32_t count = 0;
  for (uint32_t t = 0; t < tensor_count; ++t) {
    if (last[t] < 0) continue;
    requests[count].size = graph->tensors[t].byte_size;
    requests[count].first_use = first[t];
    requests[count].last_use = last[t];
    request_tensor[count] = t;
    ++count;
  }
  status = arena_plan(requests, count, ARENA_ALIGNMENT, &compiled->arena_size);
  if (status != NULL) goto cleanup;
  for (uint32_t i = 0; i < count; ++i) compiled->tensor_offset[request_tensor[i]] = requests[i].offset;
  if (posix_memalign((void **)&compiled->arena, ARENA_ALIGNMENT,
                     compiled->arena_size ? compiled->arena_size : ARENA_ALIGNMENT) != 0) {
    compiled->arena = NULL;
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: cannot allocate a %llu-byte arena",
                                  (unsigned long long)compiled->arena_size);
    goto cleanup;
  }
  memset(compiled->arena, 0, compiled->arena_size ? compiled->arena_size : ARENA_ALIGNMENT);
cleanup:
  free(first);
  free(last);
  free(requests);
  free(request_tensor);
  return status;
}

/* The device buffer holding `tensor` as an output of an earlier partition
 * that runs on the same device as partition `index` (without binding the
 * host arena); 0 when there is none. */
static int find_device_producer(const tflaccel_compiled_model *compiled, uint32_t index,
                                uint32_t tensor, tflaccel_buffer **buffer) {
  const partition_runtime *runtime = &compiled->runtimes[index];
  for (uint32_t p = 0; p < index; ++p) {
    const partition_runtime *producer = &compiled->runtimes[p];
    if (producer->device != runtime->device || producer->binds_host_arena) continue;
    for (uint32_t b = producer->input_binding_count; b < producer->binding_count; ++b) {
      if (producer->bindings[b].tensor != tensor) continue;
      *buffer = producer->bindings[b].buffer;
      return 1;
    }
  }
  return 0;
}

/* After every partition is prepared: an output read only by partitions that
 * take it from the device needs no copy back to the host. */
static void mark_device_only_outputs(tflaccel_compiled_model *compiled) {
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    partition_runtime *producer = &compiled->runtimes[p];
    if (producer->binds_host_arena) continue;
    for (uint32_t b = producer->input_binding_count; b < producer->binding_count; ++b) {
      uint32_t tensor = producer->bindings[b].tensor;
      int host_needs_it = 0;
      for (uint32_t i = 0; i < compiled->graph_output_count; ++i)
        host_needs_it |= compiled->graph_outputs[i] == tensor;
      for (uint32_t q = p + 1; q < compiled->plan->partition_count && !host_needs_it; ++q) {
        const partition_runtime *consumer = &compiled->runtimes[q];
        for (uint32_t k = 0; k < consumer->input_binding_count; ++k) {
          if (consumer->bindings[k].tensor != tensor) continue;
          if (consumer->binds_host_arena || !consumer->stays_on_device[k]) host_needs_it = 1;
        }
      }
      producer->stays_on_device[b] = !host_needs_it;
    }
  }
}

/* Compiles partition `index` and gives it its buffers; the caller holds the
 * device's lock. */
static tflaccel_status prepare_partition_locked(tflaccel_compiled_model *compiled, uint32_t index) {
  const partition *part = &compiled->plan->partitions[index];
  partition_runtime *runtime = &compiled->runtimes[index];
  tflaccel_status status = NULL;
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  tflaccel_partition_desc desc = {
      .struct_size = sizeof desc,
      .op_count = part->op_count,
      .ops = part->ops,
      .input_count = part->input_count,
      .inputs = part->inputs,
      .output_count = part->output_count,
      .outputs = part->outputs,
  };
  /* A partition of ops exact only at another precision compiles at it
   * (the cache key follows: the plugin keys entries by its options). */
  tflaccel_compile_options options = compiled->compile_options;
  if (part->precision != -1) options.precision = part->precision;
  status = vtable->compile(runtime->device, compiled->graph, &desc, &options, &runtime->executable);
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s: compiling partition %u (%u ops)",
                                    runtime->plugin->config->name, index, part->op_count);
  runtime->binding_count = part->input_count + part->output_count;
  runtime->input_binding_count = part->input_count;
  runtime->bindings = calloc(runtime->binding_count + 1, sizeof *runtime->bindings);
  if (runtime->bindings == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  /* Prefer binding the arena in place when the device works in host memory. */
  if (TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, buffer_import) &&
      vtable->buffer_import != NULL) {
    tflaccel_status import_status =
        vtable->buffer_import(runtime->device, TFLACCEL_EXTERNAL_HOST_POINTER, compiled->arena,
                              compiled->arena_size ? compiled->arena_size : ARENA_ALIGNMENT,
                              &runtime->imported_arena);
    if (import_status == NULL) {
      runtime->binds_host_arena = 1;
    } else {
      tflaccel_status_free(import_status);
      runtime->imported_arena = NULL;
    }
  }
  if (!runtime->binds_host_arena) {
    runtime->device_buffers = calloc(runtime->binding_count + 1, sizeof *runtime->device_buffers);
    runtime->stays_on_device = calloc(runtime->binding_count + 1, 1);
    if (runtime->device_buffers == NULL || runtime->stays_on_device == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  }
  for (uint32_t b = 0; b < runtime->binding_count; ++b) {
    uint32_t tensor = b < part->input_count ? part->inputs[b] : part->outputs[b - part->input_count];
    tflaccel_binding *binding = &runtime->bindings[b];
    binding->tensor = tensor;
    binding->size = compiled->graph->tensors[tensor].byte_size;
    if (runtime->binds_host_arena) {
      binding->buffer = runtime->imported_arena;
      binding->offset = compiled->tensor_offset[tensor];
    } else if (b < part->input_count && find_device_producer(compiled, index, tensor, &binding->buffer)) {
      /* Produced by an earlier partition on this same device: use its
       * buffer where it is, no trip through host memory. */
      binding->offset = 0;
      runtime->stays_on_device[b] = 1;
    } else {
      status = vtable->buffer_create(runtime->device, binding->size ? binding->size : 1,
                                     &runtime->device_buffers[b]);
      if (status != NULL)
        return tflaccel_status_annotate(status, "%s: buffer for tensor %u",
                                        runtime->plugin->config->name, tensor);
      binding->buffer = runtime->device_buffers[b];
      binding->offset = 0;
    }
  }
  return NULL;
}

static tflaccel_status prepare_partition(tflaccel_compiled_model *compiled, uint32_t index) {
  partition_runtime *runtime = &compiled->runtimes[index];
  runtime->plugin = compiled->candidate_plugins[compiled->plan->partitions[index].candidate];
  tflaccel_status status = registry_device(runtime->plugin, &runtime->device);
  if (status != NULL) return status;
  registry_device_lock(runtime->plugin);
  status = prepare_partition_locked(compiled, index);
  registry_device_unlock(runtime->plugin);
  return status;
}

static int32_t pick_int(int32_t requested, int32_t unset_value, int32_t configured) {
  return requested == unset_value ? configured : requested;
}

tflaccel_status tflaccel_compiled_model_create(tflaccel_environment *environment,
                                               const tflaccel_model *model,
                                               const tflaccel_compilation_options *options,
                                               tflaccel_compiled_model **compiled_out) {
  if (environment == NULL || model == NULL || compiled_out == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "compiled model: NULL argument");
  *compiled_out = NULL;
  tflaccel_compilation_options defaults;
  tflaccel_compilation_options_init(&defaults);
  if (options == NULL) options = &defaults;
  if (options->struct_size < sizeof(uint32_t) * 2)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "compilation options: struct_size unset");

  const tflaccel_config *config = environment->config;
  tflaccel_compiled_model *compiled = calloc(1, sizeof *compiled);
  if (compiled == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  if (pthread_mutex_init(&compiled->stats_lock, NULL) != 0) {
    free(compiled);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "compile: cannot make a mutex");
  }
  compiled->last_stats.struct_size = sizeof compiled->last_stats;
  compiled->environment = environment;
  compiled->model = model;
  compiled->graph = model_prepared_graph(model);
  compiled->graph_inputs = model_graph_inputs(model, &compiled->graph_input_count);
  compiled->graph_outputs = model_graph_outputs(model, &compiled->graph_output_count);
  compiled->compile_options.struct_size = sizeof compiled->compile_options;
  compiled->compile_options.precision = pick_int(options->precision, -1, config->precision);
  compiled->compile_options.thread_count = pick_int(options->thread_count, 0, config->thread_count);
  compiled->compile_options.model_token = NULL;
  compiled->compile_options.model_name = NULL;
  /* The compiled-model cache keys each partition's entry by the model: the
   * application's own token, else the SHA-256 of the model's bytes
   * (computed once per model, and only when a cache is on). */
  if (config->cache_dir != NULL) {
    const char *token =
        TFLACCEL_HAS_FIELD(tflaccel_compilation_options, options, model_token) &&
                options->model_token != NULL && options->model_token[0] != '\0'
            ? options->model_token
            : model_token(model);
    compiled->model_token = strdup(token);
    if (compiled->model_token == NULL) {
      free(compiled);
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
    }
    compiled->compile_options.model_token = compiled->model_token;
    compiled->compile_options.model_name = model_file_name(model);
  }

  tflaccel_status status = NULL;
  if (compiled->compile_options.precision != TFLACCEL_PRECISION_FP32 &&
      compiled->compile_options.precision != TFLACCEL_PRECISION_FP16)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "precision %d is neither fp32 nor fp16",
                                  (int)compiled->compile_options.precision);
  if (status == NULL && compiled->compile_options.thread_count < 1)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "thread count %d must be at least 1",
                                  (int)compiled->compile_options.thread_count);

  /* The accelerators for this model: the option's, or the environment's. */
  accelerator_selection selection = {0};
  int own_selection = 0;
  if (status == NULL && options->accelerators != NULL) {
    status = selection_parse(environment->registry, options->accelerators, "accelerators", &selection);
    own_selection = status == NULL;
  } else if (status == NULL) {
    selection = environment->selection;
  }
  tflaccel_device **devices = NULL;
  if (status == NULL) {
    compiled->candidate_names = calloc(selection.count, sizeof *compiled->candidate_names);
    compiled->candidate_plugins = calloc(selection.count, sizeof *compiled->candidate_plugins);
    devices = calloc(selection.count, sizeof *devices);
    if (!compiled->candidate_names || !compiled->candidate_plugins || !devices)
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  }
  for (uint32_t i = 0; status == NULL && i < selection.count; ++i) {
    plugin_entry *entry = selection.entries[i];
    registry_load(environment->registry, entry);
    if (entry->state != PLUGIN_AVAILABLE) {
      if (own_selection)
        log_write(environment->log_level, TFLACCEL_LOG_WARNING, NULL,
                  "accelerator %s is unavailable: %s", entry->config->name,
                  entry->reason ? entry->reason : "unknown reason");
      if (!strcmp(entry->config->name, "cpu_ref"))
        status = tflaccel_status_make(TFLACCEL_UNAVAILABLE,
                                      "cpu_ref, the fallback accelerator, is unavailable: %s",
                                      entry->reason ? entry->reason : "unknown reason");
      continue;
    }
    tflaccel_device *device = NULL;
    status = registry_device(entry, &device);
    if (status != NULL) break;
    compiled->candidate_names[compiled->candidate_count] = entry->config->name;
    compiled->candidate_plugins[compiled->candidate_count] = entry;
    devices[compiled->candidate_count] = device;
    compiled->candidate_count++;
  }
  if (own_selection) selection_clear(&selection);

  support_table table = {0};
  if (status == NULL) status = query_support(compiled, &table, devices);
  partition_candidate *candidates = NULL;
  uint32_t fallback = compiled->candidate_count ? compiled->candidate_count - 1 : 0;
  if (status == NULL) {
    candidates = calloc(compiled->candidate_count + 1, sizeof *candidates);
    if (candidates == NULL) status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  }
  if (status == NULL) {
    uint32_t op_count = compiled->graph->op_count;
    for (uint32_t c = 0; c < compiled->candidate_count; ++c) {
      candidates[c].name = compiled->candidate_names[c];
      candidates[c].is_fallback = c == fallback;
      candidates[c].supported = table.supported + (size_t)c * op_count;
      candidates[c].relative_cost = table.relative_cost + (size_t)c * op_count;
      candidates[c].reasons = table.reason_pointers + (size_t)c * op_count;
      candidates[c].precision = table.precision + (size_t)c * op_count;
    }
    partition_options partitioning = {
        .max_delegated_partitions =
            pick_int(options->max_delegated_partitions, -1, config->max_delegated_partitions),
        .min_partition_ops = pick_int(options->min_partition_ops, -1, config->min_partition_ops),
        .require_full_delegation =
            pick_int(options->require_full_delegation, -1, config->require_full_delegation),
        .split_fallback_ops =
            TFLACCEL_HAS_FIELD(tflaccel_compilation_options, options, split_fallback_ops)
                ? options->split_fallback_ops == 1
                : 0,
        .cost = config->cost,
        .log_level = environment->log_level,
    };
    if (partitioning.min_partition_ops < 1) partitioning.min_partition_ops = 1;
    status = partition_graph(compiled->graph, compiled->graph_outputs, compiled->graph_output_count,
                             candidates, compiled->candidate_count, &partitioning, &compiled->plan);
  }
  if (status == NULL) report_placement(compiled, &table, fallback);
  free(candidates);
  free(devices);
  support_table_free(&table);

  if (status == NULL) status = plan_arena(compiled);
  if (status == NULL) {
    compiled->runtimes = calloc(compiled->plan->partition_count + 1, sizeof *compiled->runtimes);
    if (compiled->runtimes == NULL)
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "compile: out of memory");
  }
  for (uint32_t p = 0; status == NULL && p < compiled->plan->partition_count; ++p)
    status = prepare_partition(compiled, p);
  if (status == NULL) mark_device_only_outputs(compiled);
  if (status == NULL) status = device_io_plan(compiled);
  if (status != NULL) {
    tflaccel_compiled_model_destroy(compiled);
    return status;
  }
  *compiled_out = compiled;
  return NULL;
}

void tflaccel_compiled_model_destroy(tflaccel_compiled_model *compiled) {
  if (compiled == NULL) return;
  async_run_release(compiled);
  if (compiled->runtimes != NULL && compiled->plan != NULL) {
    for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
      partition_runtime *runtime = &compiled->runtimes[p];
      if (runtime->device == NULL) continue;
      const tflaccel_device_vtable *vtable = runtime->device->vtable;
      registry_device_lock(runtime->plugin);
      if (runtime->executable != NULL) vtable->executable_destroy(runtime->device, runtime->executable);
      if (runtime->device_buffers != NULL)
        for (uint32_t b = 0; b < runtime->binding_count; ++b)
          if (runtime->device_buffers[b] != NULL)
            vtable->buffer_destroy(runtime->device, runtime->device_buffers[b]);
      if (runtime->imported_arena != NULL) vtable->buffer_destroy(runtime->device, runtime->imported_arena);
      registry_device_unlock(runtime->plugin);
      free(runtime->device_buffers);
      free(runtime->stays_on_device);
      free(runtime->bindings);
      free(runtime->kernel_times);
      free(runtime->run_bindings);
    }
  }
  device_io_release(compiled);
  pthread_mutex_destroy(&compiled->stats_lock);
  free(compiled->runtimes);
  free(compiled->partition_run_us);
  partition_plan_destroy(compiled->plan);
  free(compiled->candidate_names);
  free(compiled->candidate_plugins);
  free(compiled->tensor_offset);
  free(compiled->arena);
  free(compiled->model_token);
  free(compiled);
}

uint32_t tflaccel_compiled_model_input_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->graph_input_count : 0;
}

uint32_t tflaccel_compiled_model_output_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->graph_output_count : 0;
}

static tflaccel_status describe_tensor(const tflaccel_compiled_model *compiled, uint32_t tensor,
                                       tflaccel_tensor_info *info) {
  if (info->struct_size < sizeof *info)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tensor info: struct_size too small");
  tflaccel_status status = tflaccel_model_tensor_info(compiled->model, tensor, info);
  if (status != NULL) return status;
  /* The shape the compiled model runs with: shape inference may have given
   * one the file does not store (a custom op's outputs). */
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  info->rank = desc->rank;
  info->shape = desc->dims;
  info->byte_size = desc->byte_size;
  return NULL;
}

tflaccel_status tflaccel_compiled_model_input_info(const tflaccel_compiled_model *compiled,
                                                   uint32_t index, tflaccel_tensor_info *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "input_info: NULL argument");
  if (index >= compiled->graph_input_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "input %u out of range (%u inputs)", index,
                                compiled->graph_input_count);
  return describe_tensor(compiled, compiled->graph_inputs[index], info);
}

tflaccel_status tflaccel_compiled_model_output_info(const tflaccel_compiled_model *compiled,
                                                    uint32_t index, tflaccel_tensor_info *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "output_info: NULL argument");
  if (index >= compiled->graph_output_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "output %u out of range (%u outputs)",
                                index, compiled->graph_output_count);
  return describe_tensor(compiled, compiled->graph_outputs[index], info);
}

int32_t tflaccel_compiled_model_precision(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->compile_options.precision : -1;
}

int32_t tflaccel_compiled_model_thread_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->compile_options.thread_count : 0;
}

uint32_t tflaccel_compiled_model_partition_count(const tflaccel_compiled_model *compiled) {
  return compiled ? compiled->plan->partition_count : 0;
}

tflaccel_status tflaccel_compiled_model_partition_info(const tflaccel_compiled_model *compiled,
                                                       uint32_t index, tflaccel_partition_info *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition_info: NULL argument");
  if (index >= compiled->plan->partition_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition %u out of range (%u partitions)",
                                index, compiled->plan->partition_count);
  /* A caller built before `precision` was appended passes the older size. */
  if (info->struct_size < offsetof(tflaccel_partition_info, precision))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition info: struct_size too small");
  const partition *part = &compiled->plan->partitions[index];
  size_t size = info->struct_size < sizeof *info ? info->struct_size : sizeof *info;
  memset(info, 0, size);
  info->struct_size = (uint32_t)size;
  info->accelerator = compiled->candidate_names[part->candidate];
  info->op_count = part->op_count;
  info->ops = part->ops;
  info->input_count = part->input_count;
  info->inputs = part->inputs;
  info->output_count = part->output_count;
  info->outputs = part->outputs;
  info->boundary_bytes = part->boundary_bytes;
  if (TFLACCEL_HAS_FIELD(tflaccel_partition_info, info, precision))
    info->precision = part->precision != -1 ? part->precision : compiled->compile_options.precision;
  return NULL;
}

static tflaccel_status create_buffer_for(const tflaccel_compiled_model *compiled, uint32_t tensor,
                                         tflaccel_tensor_buffer **buffer) {
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  return tflaccel_tensor_buffer_create(desc->dtype, desc->rank, desc->dims, buffer);
}

tflaccel_status tflaccel_compiled_model_create_input_buffer(const tflaccel_compiled_model *compiled,
                                                            uint32_t index,
                                                            tflaccel_tensor_buffer **buffer) {
  if (compiled == NULL || buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "create_input_buffer: NULL argument");
  if (index >= compiled->graph_input_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "input %u out of range (%u inputs)", index,
                                compiled->graph_input_count);
  return create_buffer_for(compiled, compiled->graph_inputs[index], buffer);
}

tflaccel_status tflaccel_compiled_model_create_output_buffer(const tflaccel_compiled_model *compiled,
                                                             uint32_t index,
                                                             tflaccel_tensor_buffer **buffer) {
  if (compiled == NULL || buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "create_output_buffer: NULL argument");
  if (index >= compiled->graph_output_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "output %u out of range (%u outputs)",
                                index, compiled->graph_output_count);
  return create_buffer_for(compiled, compiled->graph_outputs[index], buffer);
}

static tflaccel_status check_buffer(const tflaccel_compiled_model *compiled, const char *role,
                                    uint32_t index, uint32_t tensor,
                                    const tflaccel_tensor_buffer *buffer) {
  const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
  if (buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u: no buffer given", role, index);
  if (buffer->dtype != desc->dtype)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u (%s): buffer is %s, the model wants %s",
                                role, index, desc->name, dtype_name(buffer->dtype),
                                dtype_name(desc->dtype));
  int same_shape = buffer->rank == desc->rank;
  for (uint32_t d = 0; same_shape && d < desc->rank; ++d)
    same_shape = buffer->shape[d] == desc->dims[d];
  if (!same_shape || buffer->byte_size != desc->byte_size)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "%s %u (%s): buffer shape does not match the model's", role, index,
                                desc->name);
  if (buffer->lock_mode != 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u (%s): the buffer is locked", role,
                                index, desc->name);
  return device_io_check(compiled, role[0] == 'o', index, buffer);
}

static void count_host_copy(tflaccel_compiled_model *compiled, uint64_t bytes) {
  compiled->run_host_copies++;
  compiled->run_host_copy_bytes += bytes;
}

/* The device events partition index waits for (run_events); more than
 * RUN_MAX_DEVICE_WAITS are waited for on the CPU. */
static tflaccel_status gather_waits(const tflaccel_compiled_model *compiled, uint32_t index,
                                    const run_events *events, device_event *const *partition_done,
                                    tflaccel_event **waits, uint32_t *wait_count) {
  const partition_runtime *runtime = &compiled->runtimes[index];
  uint32_t inputs = compiled->graph_input_count, outputs = compiled->graph_output_count;
  *wait_count = 0;
  for (uint32_t b = 0; b < inputs + outputs + index; ++b) {
    const device_event *wait = NULL;
    if (b < inputs + outputs) {
      int32_t owner = b < inputs ? compiled->input_partition[b]
                                 : compiled->output_partition[b - inputs];
      if (owner == (int32_t)index) wait = events->buffer_waits[b];
    } else {
      wait = partition_done[b - inputs - outputs];
    }
    if (wait == NULL || wait->device != runtime->device) continue;
    if (*wait_count < RUN_MAX_DEVICE_WAITS) {
      waits[(*wait_count)++] = wait->event;
      continue;
    }
    tflaccel_status status = device_event_wait(wait);
    if (status != NULL) return status;
  }
  return NULL;
}

/* Executes partition index: with events on a device that has them, after
 * its device waits, and only queued when no output is read back. */
static tflaccel_status execute_partition(tflaccel_compiled_model *compiled, uint32_t index,
                                         const run_events *events, device_event **partition_done) {
  partition_runtime *runtime = &compiled->runtimes[index];
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  if (events == NULL || !device_has_events(runtime->device))
    return vtable->execute(runtime->device, runtime->executable, runtime->run_bindings,
                           runtime->binding_count, NULL);
  tflaccel_event *waits[RUN_MAX_DEVICE_WAITS];
  uint32_t wait_count = 0;
  tflaccel_status status = gather_waits(compiled, index, events, partition_done, waits, &wait_count);
  if (status != NULL) return status;
  int queue_only = 1;
  for (uint32_t b = runtime->input_binding_count; b < runtime->binding_count; ++b)
    if (!runtime->stays_on_device[b] && compiled->override_buffer[runtime->bindings[b].tensor] == NULL)
      queue_only = 0;
  tflaccel_event *done = NULL;
  status = vtable->execute_after(runtime->device, runtime->executable, runtime->run_bindings,
                                 runtime->binding_count, waits, wait_count,
                                 queue_only ? &done : NULL);
  if (status == NULL && done != NULL) {
    partition_done[index] = device_event_new(runtime->plugin, runtime->device, done);
    if (partition_done[index] == NULL)
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory (device event)");
  }
  return status;
}

/* Uploads, executes, reads back: one locked run of calls on the device, so
 * another compiled model's partition cannot interleave with it. A binding
 * whose tensor the application gave a device buffer for (override_buffer)
 * is bound to it in place: nothing is uploaded or read back for it. */
static tflaccel_status run_partition(tflaccel_compiled_model *compiled, uint32_t index,
                                     const run_events *events, device_event **partition_done) {
  partition_runtime *runtime = &compiled->runtimes[index];
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  tflaccel_status status = NULL;
  for (uint32_t b = 0; b < runtime->binding_count; ++b) {
    tflaccel_binding *binding = &runtime->run_bindings[b];
    *binding = runtime->bindings[b];
    if (runtime->binds_host_arena || compiled->override_buffer[binding->tensor] == NULL) continue;
    binding->buffer = compiled->override_buffer[binding->tensor];
    binding->offset = compiled->override_offset[binding->tensor];
  }
  registry_device_lock(runtime->plugin);
  if (!runtime->binds_host_arena) {
    for (uint32_t b = 0; b < runtime->input_binding_count && status == NULL; ++b) {
      const tflaccel_binding *binding = &runtime->bindings[b];
      if (runtime->stays_on_device[b] || compiled->override_buffer[binding->tensor] != NULL) continue;
      status = vtable->buffer_write(runtime->device, binding->buffer, 0,
                                    compiled->arena + compiled->tensor_offset[binding->tensor],
                                    binding->size);
      count_host_copy(compiled, binding->size);
    }
  }
  if (status == NULL) status = execute_partition(compiled, index, events, partition_done);
  if (!runtime->binds_host_arena) {
    for (uint32_t b = runtime->input_binding_count; b < runtime->binding_count && status == NULL; ++b) {
      const tflaccel_binding *binding = &runtime->bindings[b];
      if (runtime->stays_on_device[b] || compiled->override_buffer[binding->tensor] != NULL) continue;
      status = vtable->buffer_read(runtime->device, binding->buffer, 0,
                                   compiled->arena + compiled->tensor_offset[binding->tensor],
                                   binding->size);
      count_host_copy(compiled, binding->size);
    }
  }
  registry_device_unlock(runtime->plugin);
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s: running partition %u", runtime->plugin->config->name,
                                    index);
  return NULL;
}

tflaccel_status compiled_model_check_run(const tflaccel_compiled_model *compiled,
                                         tflaccel_tensor_buffer *const *inputs,
                                         uint32_t input_count,
                                         tflaccel_tensor_buffer *const *outputs,
                                         uint32_t output_count) {
  if (compiled == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "run: NULL compiled model");
  if (input_count != compiled->graph_input_count || output_count != compiled->graph_output_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "run: %u inputs and %u outputs given, the model has %u and %u",
                                input_count, output_count, compiled->graph_input_count,
                                compiled->graph_output_count);
  if ((input_count && inputs == NULL) || (output_count && outputs == NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "run: NULL buffer array");
  for (uint32_t i = 0; i < input_count; ++i) {
    tflaccel_status status = check_buffer(compiled, "input", i, compiled->graph_inputs[i], inputs[i]);
    if (status != NULL) return status;
  }
  for (uint32_t i = 0; i < output_count; ++i) {
    tflaccel_status status =
        check_buffer(compiled, "output", i, compiled->graph_outputs[i], outputs[i]);
    if (status != NULL) return status;
  }
  return NULL;
}

static tflaccel_status run_partitions(tflaccel_compiled_model *compiled,
                                      tflaccel_tensor_buffer *const *inputs,
                                      tflaccel_tensor_buffer *const *outputs,
                                      const run_events *events, device_event **partition_done) {
  uint32_t input_count = compiled->graph_input_count, output_count = compiled->graph_output_count;
  for (uint32_t i = 0; i < input_count; ++i) {
    uint32_t tensor = compiled->graph_inputs[i];
    if (inputs[i]->type != TFLACCEL_BUFFER_HOST) {
      compiled->override_buffer[tensor] = inputs[i]->device_buffer;
      compiled->override_offset[tensor] = inputs[i]->offset;
    } else if (inputs[i]->byte_size) {
      memcpy(compiled->arena + compiled->tensor_offset[tensor], inputs[i]->data, inputs[i]->byte_size);
      count_host_copy(compiled, inputs[i]->byte_size);
    }
  }
  for (uint32_t i = 0; i < output_count; ++i) {
    if (outputs[i]->type == TFLACCEL_BUFFER_HOST) continue;
    compiled->override_buffer[compiled->graph_outputs[i]] = outputs[i]->device_buffer;
    compiled->override_offset[compiled->graph_outputs[i]] = outputs[i]->offset;
  }
  compiled->profiled_run_done = 0;
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    double start_us = compiled->partition_run_us ? run_profile_now_us() : 0.0;
    tflaccel_status status = run_partition(compiled, p, events, partition_done);
    if (status != NULL) return status;
    if (compiled->partition_run_us) compiled->partition_run_us[p] = run_profile_now_us() - start_us;
  }
  compiled->profiled_run_done = compiled->partition_run_us != NULL;
  for (uint32_t i = 0; i < output_count; ++i) {
    uint32_t tensor = compiled->graph_outputs[i];
    const tflaccel_tensor_desc *desc = &compiled->graph->tensors[tensor];
    if (!outputs[i]->byte_size || outputs[i]->type != TFLACCEL_BUFFER_HOST) continue;
    if (compiled->tensor_offset[tensor] != UINT64_MAX)
      memcpy(outputs[i]->data, compiled->arena + compiled->tensor_offset[tensor], outputs[i]->byte_size);
    else if (desc->data != NULL && desc->data_size >= outputs[i]->byte_size)
      memcpy(outputs[i]->data, desc->data, outputs[i]->byte_size);
    else
      return tflaccel_status_make(TFLACCEL_INTERNAL, "output %u (%s) has no storage", i, desc->name);
    count_host_copy(compiled, outputs[i]->byte_size);
  }
  return NULL;
}

tflaccel_status compiled_model_run_checked(tflaccel_compiled_model *compiled,
                                           tflaccel_tensor_buffer *const *inputs,
                                           tflaccel_tensor_buffer *const *outputs) {
  return compiled_model_run_with_events(compiled, inputs, outputs, NULL);
}

tflaccel_status compiled_model_run_with_events(tflaccel_compiled_model *compiled,
                                               tflaccel_tensor_buffer *const *inputs,
                                               tflaccel_tensor_buffer *const *outputs,
                                               run_events *events) {
  compiled->run_host_copies = 0;
  compiled->run_host_copy_bytes = 0;
  uint32_t partition_count = compiled->plan->partition_count;
  device_event **partition_done = NULL;
  if (events != NULL) {
    partition_done = calloc(partition_count + 1, sizeof *partition_done);
    if (partition_done == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "run: out of memory");
  }
  tflaccel_status status = run_partitions(compiled, inputs, outputs, events, partition_done);
  for (uint32_t o = 0; events != NULL && o < compiled->graph_output_count; ++o) {
    int32_t writer = compiled->output_partition[o];
    events->output_done[o] = status == NULL && writer >= 0 &&
                                     outputs[o]->type != TFLACCEL_BUFFER_HOST
                                 ? device_event_retain(partition_done[writer])
                                 : NULL;
  }
  for (uint32_t p = 0; partition_done != NULL && p < partition_count; ++p)
    device_event_release(partition_done[p]);
  free(partition_done);
  for (uint32_t i = 0; i < compiled->graph_input_count; ++i)
    compiled->override_buffer[compiled->graph_inputs[i]] = NULL;
  for (uint32_t i = 0; i < compiled->graph_output_count; ++i)
    compiled->override_buffer[compiled->graph_outputs[i]] = NULL;
  if (status == NULL) {
    pthread_mutex_lock(&compiled->stats_lock);
    compiled->last_stats.host_copies = compiled->run_host_copies;
    compiled->last_stats.host_copy_bytes = compiled->run_host_copy_bytes;
    pthread_mutex_unlock(&compiled->stats_lock);
  }
  return status;
}

/* The synchronous run: after the runs queued before it (run_async), and
 * the events of its buffers (their producers, or runs of other compiled
 * models writing them). */
tflaccel_status tflaccel_compiled_model_run(tflaccel_compiled_model *compiled,
                                            tflaccel_tensor_buffer *const *inputs,
                                            uint32_t input_count,
                                            tflaccel_tensor_buffer *const *outputs,
                                            uint32_t output_count) {
  tflaccel_status status = compiled_model_check_run(compiled, inputs, input_count, outputs, output_count);
  if (status != NULL) return status;
  async_run_drain(compiled);
  for (uint32_t i = 0; i < input_count && status == NULL; ++i)
    status = tensor_buffer_wait_event(inputs[i]);
  if (status != NULL) return tflaccel_status_annotate(status, "run: an input's event");
  /* An output's event only says when an earlier write ends; its outcome
   * does not matter to this run. */
  for (uint32_t i = 0; i < output_count; ++i) tflaccel_status_free(tensor_buffer_wait_event(outputs[i]));
  status = compiled_model_run_checked(compiled, inputs, outputs);
  /* Written now: an earlier run's event (perhaps its failure) no longer
   * describes them. */
  for (uint32_t i = 0; i < output_count && status == NULL; ++i) tensor_buffer_put_event(outputs[i], NULL);
  return status;
}

tflaccel_status tflaccel_compiled_model_reset_state(tflaccel_compiled_model *compiled) {
  if (compiled == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "reset_state: NULL compiled model");
  async_run_drain(compiled);
  for (uint32_t p = 0; p < compiled->plan->partition_count; ++p) {
    partition_runtime *runtime = &compiled->runtimes[p];
    const tflaccel_device_vtable *vtable = runtime->device->vtable;
    if (!TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, reset_state) || vtable->reset_state == NULL)
      continue;
    registry_device_lock(runtime->plugin);
    tflaccel_status status = vtable->reset_state(runtime->device, runtime->executable);
    registry_device_unlock(runtime->plugin);
    if (status != NULL)
      return tflaccel_status_annotate(status, "%s: reset_state", runtime->plugin->config->name);
  }
  return NULL;
}
