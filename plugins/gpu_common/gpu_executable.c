/* Creating a program's buffers and kernels through a backend, and running
 * it (gpu_executable.h). */
#include "config.h"

#include <string.h>
#include <time.h>

#include "plugins/gpu_common/gpu_executable.h"
#include "plugins/gpu_common/gpu_hazard.h"
#include "plugins/gpu_common/gpu_lowering.h"
#include "plugins/gpu_common/gpu_partition_cache.h"
#include "plugins/gpu_common/gpu_profile.h"
#include "plugins/gpu_common/gpu_program_cache.h"

/* Kernel argument slots (gpu_backend.h). */
#define SLOT_PARAMS 0
#define SLOT_BASE 1
#define SLOT_TENSORS 2

struct gpu_executable {
  const gpu_backend *backend;
  gpu_program program;
  tflaccel_buffer *arena, *constants, *params;
  tflaccel_buffer *state; /* variable tensors (gpu_state.h); NULL without any */
  gpu_kernel_object **kernels;    /* one per dispatch */
  gpu_sequence *sequence;         /* the dispatches, handed to the backend once */
  int32_t rebound;                /* a kernel got another buffer since the last run */
  tflaccel_buffer **bound_buffer; /* per binding: what the kernels hold now */
  uint64_t *bound_offset;
  gpu_profile *profile; /* NULL unless the backend times dispatches */
  uint32_t op_count;    /* of the partition, for the profile's heading */
};

/* Milliseconds since start. */
static double gpu_elapsed_ms(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start->tv_sec) * 1e3 + (double)(now.tv_nsec - start->tv_nsec) / 1e6;
}

uint32_t gpu_executable_dispatch_count(const gpu_executable *executable) {
  return executable->program.dispatch_count;
}

void gpu_executable_profile(gpu_executable *executable, tflaccel_kernel_time_fn report,
                            void *context) {
  if (executable->profile != NULL)
    gpu_profile_report(executable->profile, &executable->program, report, context);
}

void gpu_executable_destroy(gpu_executable *executable) {
  if (executable == NULL) return;
  const gpu_backend *backend = executable->backend;
  const tflaccel_host_services *host = backend->host;
  if (executable->profile != NULL) {
    gpu_profile_log(executable->profile, backend, &executable->program, executable->op_count);
    gpu_profile_destroy(backend, executable->profile);
  }
  if (executable->sequence != NULL)
    backend->ops->sequence_destroy(backend->device, executable->sequence);
  if (executable->kernels != NULL) {
    for (uint32_t i = 0; i < executable->program.dispatch_count; ++i)
      if (executable->kernels[i] != NULL)
        backend->ops->kernel_destroy(backend->device, executable->kernels[i]);
    host->free(host->context, executable->kernels);
  }
  if (executable->arena != NULL) backend->ops->buffer_destroy(backend->device, executable->arena);
  if (executable->constants != NULL)
    backend->ops->buffer_destroy(backend->device, executable->constants);
  if (executable->params != NULL) backend->ops->buffer_destroy(backend->device, executable->params);
  if (executable->state != NULL) backend->ops->buffer_destroy(backend->device, executable->state);
  if (executable->bound_buffer != NULL) host->free(host->context, executable->bound_buffer);
  if (executable->bound_offset != NULL) host->free(host->context, executable->bound_offset);
  gpu_program_release(host, &executable->program);
  host->free(host->context, executable);
}

static tflaccel_status create_buffer(const gpu_backend *backend, uint64_t size, const void *data,
                                     tflaccel_buffer **buffer) {
  tflaccel_status status = backend->ops->buffer_create(backend->device, size ? size : 16, buffer);
  if (status == NULL && data != NULL && size > 0)
    status = backend->ops->buffer_upload(backend->device, *buffer, data, size);
  return status;
}

static tflaccel_status create_kernels(gpu_executable *executable) {
  const gpu_backend *backend = executable->backend;
  gpu_program *program = &executable->program;
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    gpu_kernel_object *kernel = NULL;
    const int32_t *params = gpu_program_params(program, i);
    tflaccel_status status = backend->ops->kernel_create(backend->device, program->storage,
                                                         dispatch->kernel, params, &kernel);
    if (status != NULL) return status;
    executable->kernels[i] = kernel;
    status =
        backend->ops->kernel_set_buffer(backend->device, kernel, SLOT_PARAMS, executable->params);
    if (status == NULL)
      status = backend->ops->kernel_set_int(backend->device, kernel, SLOT_BASE,
                                            (int32_t)dispatch->params);
    for (uint32_t a = 0; status == NULL && a < GPU_MAX_ARGS; ++a) {
      tflaccel_buffer *buffer;
      switch (dispatch->args[a].kind) {
        case GPU_BUFFER_ARENA:
          buffer = executable->arena;
          break;
        case GPU_BUFFER_CONSTANTS:
          buffer = executable->constants;
          break;
        case GPU_BUFFER_STATE:
          buffer = executable->state;
          break;
        case GPU_BUFFER_BINDING:
          continue; /* set at run time */
        default:
          buffer = executable->params;
          break; /* unused: any valid buffer */
      }
      status = backend->ops->kernel_set_buffer(backend->device, kernel, SLOT_TENSORS + a, buffer);
      const gpu_argument *argument = &dispatch->args[a];
      /* Arena and state tensors bind their own bytes (the backend's tools
       * then see which bytes each dispatch touches). */
      int ranged = argument->kind == GPU_BUFFER_ARENA || argument->kind == GPU_BUFFER_STATE;
      if (status == NULL && ranged && argument->arena_size > 0 &&
          backend->ops->kernel_set_range != NULL) {
        int32_t narrowed = 0;
        status =
            backend->ops->kernel_set_range(backend->device, kernel, SLOT_TENSORS + a,
                                           argument->arena_offset, argument->arena_size, &narrowed);
        if (status == NULL && narrowed)
          gpu_program_params(program, i)[a] = (int32_t)argument->element_offset;
      }
    }
    if (status != NULL) return status;
  }
  return NULL;
}

/* Hands the whole dispatch list, with its barrier plan, to the backend. */
static tflaccel_status create_sequence(gpu_executable *executable) {
  const gpu_backend *backend = executable->backend;
  const tflaccel_host_services *host = backend->host;
  const gpu_program *program = &executable->program;
  uint32_t count = program->dispatch_count;
  gpu_step *steps =
      host->alloc(host->context, (count ? count : 1) * sizeof *steps, _Alignof(gpu_step));
  int32_t *barriers =
      host->alloc(host->context, (count ? count : 1) * sizeof *barriers, _Alignof(int32_t));
  tflaccel_status status = NULL;
  if (steps == NULL || barriers == NULL) {
    status = host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (dispatch sequence)",
                               backend->plugin_name);
  } else {
    uint32_t barrier_count = gpu_hazard_plan(program, barriers);
    for (uint32_t i = 0; i < count; ++i) {
      const gpu_dispatch *dispatch = &program->dispatches[i];
      steps[i].kernel = executable->kernels[i];
      memcpy(steps[i].global, dispatch->global, sizeof steps[i].global);
      memcpy(steps[i].local, dispatch->local, sizeof steps[i].local);
      steps[i].barrier_before = barriers[i];
      steps[i].post_list = gpu_kernel_specializes_posts(dispatch->kernel)
                               ? gpu_post_list(program->params + dispatch->params)
                               : 0;
      gpu_pushed_grid_values(program->params + dispatch->params, steps[i].post_list,
                             steps[i].grid_values);
    }
    host->log(host->context, TFLACCEL_LOG_DEBUG, "%u dispatches with %u barriers between them",
              count, barrier_count);
    status = backend->ops->sequence_create(backend->device, steps, count, &executable->sequence);
  }
  if (steps != NULL) host->free(host->context, steps);
  if (barriers != NULL) host->free(host->context, barriers);
  return status;
}

tflaccel_status gpu_executable_create(const gpu_backend *backend, const tflaccel_graph_view *graph,
                                      const tflaccel_partition_desc *partition,
                                      const tflaccel_compile_options *options,
                                      gpu_executable **executable) {
  const tflaccel_host_services *host = backend->host;
  *executable = NULL;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  gpu_executable *created = host->alloc(host->context, sizeof *created, _Alignof(gpu_executable));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (executable)",
                             backend->plugin_name);
  memset(created, 0, sizeof *created);
  created->backend = backend;
  created->op_count = partition->op_count;
  /* The compiled-model cache's entries of this partition, when it has
   * them: the lowered program (gpu_program_cache.h) replaces lowering and
   * packing; the backend's own entry gives the kernels and pipelines. */
  int32_t storage = gpu_lowering_storage(backend, options);
  gpu_disk_cache_key_builder key;
  int cached = backend->ops->cache_begin != NULL &&
               gpu_partition_cache_key_begin(backend, partition, options, storage, &key);
  gpu_disk_cache_key program_key;
  void *program_entry = NULL; /* holds the constants of a program read from it */
  const uint8_t *constants = NULL;
  int program_cached = 0;
  if (cached) {
    gpu_program_cache_key(&key, &program_key);
    program_cached = gpu_program_cache_read(backend, &program_key, graph, partition, storage,
                                            &created->program, &program_entry, &constants);
  }
  tflaccel_status status = NULL;
  if (!program_cached) {
    status = gpu_lower_partition(backend, graph, partition, options, &created->program);
    /* Written now, before making the kernels changes any parameter. */
    if (status == NULL && cached)
      gpu_program_cache_write(backend, options, &program_key, &created->program);
    constants = created->program.constants;
  }
  gpu_program *program = &created->program;
  if (status == NULL) {
    size_t dispatches = program->dispatch_count ? program->dispatch_count : 1;
    size_t bindings = program->binding_count ? program->binding_count : 1;
    created->kernels = host->alloc(host->context, dispatches * sizeof *created->kernels,
                                   _Alignof(gpu_kernel_object *));
    created->bound_buffer = host->alloc(host->context, bindings * sizeof *created->bound_buffer,
                                        _Alignof(tflaccel_buffer *));
    created->bound_offset = host->alloc(host->context, bindings * sizeof *created->bound_offset, 8);
    if (created->kernels == NULL || created->bound_buffer == NULL ||
        created->bound_offset == NULL) {
      status = host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (executable)",
                                 backend->plugin_name);
    } else {
      memset(created->kernels, 0, dispatches * sizeof *created->kernels);
      memset(created->bound_buffer, 0, bindings * sizeof *created->bound_buffer);
      memset(created->bound_offset, 0, bindings * sizeof *created->bound_offset);
    }
  }
  double lowered_ms = gpu_elapsed_ms(&start);
  if (status == NULL) status = create_buffer(backend, program->arena_size, NULL, &created->arena);
  if (status == NULL)
    status = create_buffer(backend, program->constants_size, constants, &created->constants);
  if (program_entry != NULL) host->free(host->context, program_entry);
  /* The parameters go up once the kernels are made: binding a tensor's
   * own bytes (kernel_set_range) changes its offset parameter. */
  uint64_t params_size = (uint64_t)program->dispatch_count * GPU_PARAMS_PER_DISPATCH * 4;
  if (status == NULL) status = create_buffer(backend, params_size, NULL, &created->params);
  /* The variables start from their initial values (uploaded again by
   * every reset_state). */
  if (status == NULL && program->state_size > 0)
    status = create_buffer(backend, program->state_size, program->state_initial, &created->state);
  double uploaded_ms = gpu_elapsed_ms(&start);
  int kernels_cached = cached && status == NULL;
  if (kernels_cached) backend->ops->cache_begin(backend->device, &key, program->storage, options);
  if (status == NULL) status = create_kernels(created);
  if (status == NULL) status = create_sequence(created);
  if (kernels_cached) backend->ops->cache_end(backend->device, status == NULL);
  double kernels_ms = gpu_elapsed_ms(&start);
  if (status == NULL && params_size > 0)
    status =
        backend->ops->buffer_upload(backend->device, created->params, program->params, params_size);
  if (status == NULL && backend->caps.profiling && backend->ops->profile_read != NULL)
    status = gpu_profile_create(backend, program->dispatch_count, &created->profile);
  if (status != NULL) {
    gpu_executable_destroy(created);
    return status;
  }
  host->log(host->context, TFLACCEL_LOG_INFO,
            "%u ops -> %u dispatches (%s), arena %llu bytes, constants %llu bytes",
            partition->op_count, program->dispatch_count,
            program->storage == GPU_STORAGE_FLOAT32 ? "fp32"
            : program->storage == GPU_STORAGE_HALF  ? "fp16 storage"
                                                    : "fp16",
            (unsigned long long)program->arena_size, (unsigned long long)program->constants_size);
  /* Where a compile's time goes (bench/RESULTS.md, the cache's figures). */
  host->log(host->context, TFLACCEL_LOG_DEBUG,
            "compile time: lowering and constant packing %.1f ms, buffers and constant upload "
            "%.1f ms, kernels and pipelines %.1f ms%s",
            lowered_ms, uploaded_ms - lowered_ms, kernels_ms - uploaded_ms,
            program_cached   ? " (the lowered program read from the cache; kernels with the "
                               "cache's entry)"
            : kernels_cached ? " (with the cache's entry)"
                             : "");
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    const int32_t *params = gpu_program_params(program, i);
    host->log(host->context, TFLACCEL_LOG_DEBUG,
              "dispatch %u: %s, global %u x %u x %u, output %d x %d x %d x %d%s, %d post-ops", i,
              gpu_kernel_name(dispatch->kernel), dispatch->global[0], dispatch->global[1],
              dispatch->global[2], params[GPU_P_OUT], params[GPU_P_OUT + 1], params[GPU_P_OUT + 2],
              params[GPU_P_OUT + 3],
              params[GPU_P_OUT_DENSE] & GPU_OUT_DENSE_KIND_MASK ? " dense" : "",
              params[GPU_P_POST_COUNT]);
  }
  /* The weights live on the device now: the host copy is not needed. */
  if (program->constants != NULL) host->free(host->context, program->constants);
  program->constants = NULL;
  program->constants_capacity = 0;
  *executable = created;
  return NULL;
}

/* Points every argument that reads binding b at its buffer and offset;
 * nothing to do when they are those of the last run. */
static tflaccel_status bind(gpu_executable *executable, uint32_t b, const tflaccel_binding *binding,
                            int *params_changed) {
  const gpu_backend *backend = executable->backend;
  gpu_program *program = &executable->program;
  if (binding->size < program->binding_bytes[b])
    return backend->host->status_make(
        TFLACCEL_INVALID_ARGUMENT, "%s: binding of tensor %u holds %llu bytes, it needs %llu",
        backend->plugin_name, binding->tensor, (unsigned long long)binding->size,
        (unsigned long long)program->binding_bytes[b]);
  if (backend->caps.binding_alignment != 0 &&
      binding->offset % backend->caps.binding_alignment != 0)
    return backend->host->status_make(
        TFLACCEL_INVALID_ARGUMENT,
        "%s: binding offset %llu of tensor %u is not a multiple of %u bytes", backend->plugin_name,
        (unsigned long long)binding->offset, binding->tensor,
        (unsigned)backend->caps.binding_alignment);
  int new_buffer = executable->bound_buffer[b] != binding->buffer;
  int new_offset = executable->bound_offset[b] != binding->offset;
  if (!new_buffer && !new_offset) return NULL;
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    for (uint32_t a = 0; a < GPU_MAX_ARGS; ++a) {
      const gpu_argument *argument = &dispatch->args[a];
      if (argument->kind != GPU_BUFFER_BINDING || argument->binding != b) continue;
      if (binding->offset % argument->offset_unit != 0 ||
          binding->offset / argument->offset_unit > INT32_MAX)
        return backend->host->status_make(
            TFLACCEL_INVALID_ARGUMENT, "%s: binding offset %llu of tensor %u is not usable",
            backend->plugin_name, (unsigned long long)binding->offset, binding->tensor);
      if (new_buffer) {
        executable->rebound = 1;
        tflaccel_status status = backend->ops->kernel_set_buffer(
            backend->device, executable->kernels[i], SLOT_TENSORS + a, binding->buffer);
        if (status != NULL) return status;
      }
      gpu_program_params(program, i)[a] =
          (int32_t)(binding->offset / argument->offset_unit) + (int32_t)argument->element_offset;
      *params_changed = 1;
    }
  }
  executable->bound_buffer[b] = binding->buffer;
  executable->bound_offset[b] = binding->offset;
  return NULL;
}

/* Binds the run's buffers to the kernels, uploading the parameters that
 * moved. */
static tflaccel_status bind_run(gpu_executable *executable, const tflaccel_binding *bindings,
                                uint32_t binding_count) {
  const gpu_backend *backend = executable->backend;
  gpu_program *program = &executable->program;
  int params_changed = 0;
  for (uint32_t b = 0; b < program->binding_count; ++b) {
    const tflaccel_binding *found = NULL;
    for (uint32_t i = 0; i < binding_count && found == NULL; ++i)
      if (bindings[i].tensor == program->binding_tensors[b]) found = &bindings[i];
    if (found == NULL || found->buffer == NULL)
      return backend->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                        "%s: no buffer bound to partition tensor %u",
                                        backend->plugin_name, program->binding_tensors[b]);
    tflaccel_status status = bind(executable, b, found, &params_changed);
    if (status != NULL) return status;
  }
  if (params_changed) {
    tflaccel_status status = backend->ops->buffer_upload(
        backend->device, executable->params, program->params,
        (uint64_t)program->dispatch_count * GPU_PARAMS_PER_DISPATCH * 4);
    if (status != NULL) return status;
  }
  return NULL;
}

tflaccel_status gpu_executable_submit(gpu_executable *executable, const tflaccel_binding *bindings,
                                      uint32_t binding_count, tflaccel_event *const *waits,
                                      uint32_t wait_count, tflaccel_event **done) {
  const gpu_backend *backend = executable->backend;
  *done = NULL;
  tflaccel_status status = bind_run(executable, bindings, binding_count);
  if (status != NULL) return status;
  status = backend->ops->sequence_submit(backend->device, executable->sequence,
                                         executable->rebound, waits, wait_count, done);
  if (status == NULL) executable->rebound = 0;
  return status;
}

tflaccel_status gpu_executable_run(gpu_executable *executable, const tflaccel_binding *bindings,
                                   uint32_t binding_count) {
  const gpu_backend *backend = executable->backend;
  tflaccel_status status = bind_run(executable, bindings, binding_count);
  if (status != NULL) return status;
  struct timespec start = {0, 0};
  if (executable->profile != NULL && clock_gettime(CLOCK_MONOTONIC, &start) != 0)
    return backend->host->status_make(TFLACCEL_INTERNAL, "%s: clock_gettime failed",
                                      backend->plugin_name);
  status = backend->ops->sequence_run(backend->device, executable->sequence, executable->rebound);
  if (status == NULL) executable->rebound = 0;
  if (status != NULL || executable->profile == NULL) return status;
  struct timespec end;
  if (clock_gettime(CLOCK_MONOTONIC, &end) != 0)
    return backend->host->status_make(TFLACCEL_INTERNAL, "%s: clock_gettime failed",
                                      backend->plugin_name);
  double wall_us =
      (double)(end.tv_sec - start.tv_sec) * 1e6 + (double)(end.tv_nsec - start.tv_nsec) / 1e3;
  return gpu_profile_add_run(executable->profile, backend, wall_us);
}

tflaccel_status gpu_executable_reset_state(gpu_executable *executable) {
  const gpu_backend *backend = executable->backend;
  const gpu_program *program = &executable->program;
  if (executable->state == NULL) return NULL;
  return backend->ops->buffer_upload(backend->device, executable->state, program->state_initial,
                                     program->state_size);
}
