/* The accelerator plugin and device vtable shared by every GPU API
 * (gpu_plugin.h). */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "plugins/gpu_common/gpu_executable.h"
#include "plugins/gpu_common/gpu_options.h"
#include "plugins/gpu_common/gpu_plugin.h"
#include "plugins/gpu_common/gpu_support.h"

typedef struct gpu_plugin_state {
  const gpu_api *api;
  const char *name; /* the plugin's */
  const tflaccel_host_services *host;
  int32_t profiling; /* option profile = 1 */
  void *api_state;
} gpu_plugin_state;

typedef struct gpu_plugin_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const gpu_api *api;
  const tflaccel_host_services *host;
  void *api_device;
  gpu_backend backend; /* what the GPU layer compiles and runs with */
  /* The message of the first call that lost the device
   * (TFLACCEL_DEVICE_LOST), host->alloc'ed; NULL while it works. */
  char *lost;
} gpu_plugin_device;

/* Milliseconds since start: the driver's own start-up, timed apart from
 * compiling (bench/RESULTS.md, the cache's figures). */
static double elapsed_ms(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start->tv_sec) * 1e3 + (double)(now.tv_nsec - start->tv_nsec) / 1e6;
}

static gpu_plugin_device *plugin_device(tflaccel_device *device) {
  return (gpu_plugin_device *)device;
}

/* Notes the first loss of the device: its message answers every later
 * call. Out of memory for the copy: a fixed message. */
static void note_loss(gpu_plugin_device *self, tflaccel_status status) {
  const tflaccel_host_services *host = self->host;
  if (self->lost != NULL || status == NULL || host->status_code(status) != TFLACCEL_DEVICE_LOST)
    return;
  const char *message = host->status_message(status);
  size_t size = strlen(message) + 1;
  self->lost = host->alloc(host->context, size, 1);
  if (self->lost != NULL) memcpy(self->lost, message, size);
}

/* Runs job where the API wants its calls made, then adds what the API
 * reported meanwhile. Once the device is lost, only jobs that release
 * (release: 1) still run (the backends made sure at the loss that nothing
 * still runs on the device, so freeing is safe); every other call fails
 * with the loss's message, as it would on a driver that lost the device
 * for good: the state of everything on it is unknown. A new environment
 * opens the device anew. */
static tflaccel_status device_run_as(gpu_plugin_device *self, gpu_device_job job, void *argument,
                                     int release) {
  const gpu_api *api = self->api;
  if (self->lost != NULL && !release)
    return self->host->status_make(TFLACCEL_DEVICE_LOST, "%s", self->lost);
  tflaccel_status status =
      api->device_call != NULL ? api->device_call(self->api_device, job, argument) : job(argument);
  status = api->device_check != NULL ? api->device_check(self->api_device, status) : status;
  note_loss(self, status);
  return status;
}

static tflaccel_status device_run(gpu_plugin_device *self, gpu_device_job job, void *argument) {
  return device_run_as(self, job, argument, 0);
}

static tflaccel_status device_release(gpu_plugin_device *self, gpu_device_job job,
                                      void *argument) {
  return device_run_as(self, job, argument, 1);
}

/* ---- ops ---- */

/* Pure (no API call): answered on the calling thread. */
static tflaccel_status supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                   uint32_t op_index, const tflaccel_compile_options *options,
                                   tflaccel_op_support *support) {
  gpu_plugin_device *self = plugin_device(device);
  if (op_index >= graph->op_count)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: supports_op: op %u of %u",
                                   self->backend.plugin_name, op_index, graph->op_count);
  support->relative_cost = 0.0f;
  support->reason[0] = '\0';
  int32_t precision = options != NULL ? options->precision : TFLACCEL_PRECISION_FP32;
  int supported;
  /* A core of ABI 1.3 or later takes an answer that needs another
   * precision; an older one gets the decline. */
  if (TFLACCEL_HAS_FIELD(tflaccel_op_support, support, precision)) {
    supported = gpu_op_supported_at(graph, op_index, precision, self->backend.plugin_name,
                                    support->reason, sizeof support->reason, &support->precision);
  } else {
    supported = gpu_op_supported(graph, op_index, precision, self->backend.plugin_name,
                                 support->reason, sizeof support->reason);
  }
  support->level = supported ? TFLACCEL_SUPPORT_YES : TFLACCEL_SUPPORT_NO;
  return NULL;
}

/* Every call below is a job (device_run); its arguments travel in one of
 * these. */
typedef struct compile_job {
  gpu_plugin_device *self;
  const tflaccel_graph_view *graph;
  const tflaccel_partition_desc *partition;
  const tflaccel_compile_options *options;
  gpu_executable *created;
} compile_job;

static tflaccel_status run_compile(void *argument) {
  compile_job *job = argument;
  return gpu_executable_create(&job->self->backend, job->graph, job->partition, job->options,
                               &job->created);
}

static tflaccel_status run_executable_destroy(void *argument) {
  gpu_executable_destroy(argument);
  return NULL;
}

static tflaccel_status compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                               const tflaccel_partition_desc *partition,
                               const tflaccel_compile_options *options,
                               tflaccel_executable **executable) {
  gpu_plugin_device *self = plugin_device(device);
  compile_job job = {
      .self = self, .graph = graph, .partition = partition, .options = options, .created = NULL};
  tflaccel_status status = device_run(self, run_compile, &job);
  /* A compile the API reported an error in (gpu_vk validation) fails
   * whole. */
  if (status != NULL && job.created != NULL) {
    tflaccel_status destroyed = device_release(self, run_executable_destroy, job.created);
    if (destroyed != NULL) self->host->status_free(destroyed);
    job.created = NULL;
  }
  *executable = (tflaccel_executable *)job.created;
  return status;
}

static void executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  gpu_plugin_device *self = plugin_device(device);
  if (executable == NULL) return;
  tflaccel_status status = device_release(self, run_executable_destroy, executable);
  if (status != NULL) {
    self->host->log(self->host->context, TFLACCEL_LOG_ERROR, "%s",
                    self->host->status_message(status));
    self->host->status_free(status);
  }
}

typedef struct execute_job {
  gpu_executable *executable;
  const tflaccel_binding *bindings;
  uint32_t binding_count;
} execute_job;

static tflaccel_status run_execute(void *argument) {
  execute_job *job = argument;
  return gpu_executable_run(job->executable, job->bindings, job->binding_count);
}

/* ---- asynchronous runs and events (accelerator.h, ABI 1.2) ---- */

static int backend_has_events(const gpu_backend *backend) {
  const gpu_backend_ops *ops = backend->ops;
  return ops->sequence_submit != NULL && ops->event_wait != NULL && ops->event_query != NULL &&
         ops->event_destroy != NULL && ops->event_native != NULL && ops->event_wrap != NULL;
}

static tflaccel_status no_events(const gpu_plugin_device *self) {
  return self->host->status_make(TFLACCEL_UNSUPPORTED, "%s: %s runs have no events",
                                 self->backend.plugin_name, self->api->api_name);
}

typedef struct event_job {
  gpu_plugin_device *self;
  gpu_executable *executable;
  const tflaccel_binding *bindings;
  uint32_t binding_count;
  tflaccel_event *const *waits;
  uint32_t wait_count;
  tflaccel_event *event; /* in: the event; out: the run's or the wrapped one */
  int32_t type, signalled;
  tflaccel_native_event *native;
  const tflaccel_native_event *wrapped;
} event_job;

/* Event calls come from any thread, also while a run is being queued: not
 * through device_run, whose loss bookkeeping belongs to the core's
 * serialized calls; where the API wants its calls made all the same. */
static tflaccel_status event_call(gpu_plugin_device *self, gpu_device_job job, event_job *argument) {
  const gpu_api *api = self->api;
  return api->device_call != NULL ? api->device_call(self->api_device, job, argument) : job(argument);
}

static tflaccel_status run_submit(void *argument) {
  event_job *job = argument;
  return gpu_executable_submit(job->executable, job->bindings, job->binding_count, job->waits,
                               job->wait_count, &job->event);
}

static tflaccel_status run_event_wait(void *argument) {
  event_job *job = argument;
  return job->self->backend.ops->event_wait(job->self->backend.device, job->event);
}

static tflaccel_status run_event_query(void *argument) {
  event_job *job = argument;
  return job->self->backend.ops->event_query(job->self->backend.device, job->event,
                                             &job->signalled);
}

static tflaccel_status run_event_destroy(void *argument) {
  event_job *job = argument;
  job->self->backend.ops->event_destroy(job->self->backend.device, job->event);
  return NULL;
}

static tflaccel_status run_event_native(void *argument) {
  event_job *job = argument;
  return job->self->backend.ops->event_native(job->self->backend.device, job->event, job->type,
                                              job->native);
}

static tflaccel_status run_event_wrap(void *argument) {
  event_job *job = argument;
  return job->self->backend.ops->event_wrap(job->self->backend.device, job->wrapped, &job->event);
}

static tflaccel_status event_wait(tflaccel_device *device, tflaccel_event *event) {
  gpu_plugin_device *self = plugin_device(device);
  if (!backend_has_events(&self->backend)) return no_events(self);
  if (event == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_wait: NULL event",
                                   self->backend.plugin_name);
  event_job job = {.self = self, .event = event};
  return event_call(self, run_event_wait, &job);
}

static tflaccel_status event_query(tflaccel_device *device, tflaccel_event *event,
                                   int32_t *signalled) {
  gpu_plugin_device *self = plugin_device(device);
  if (!backend_has_events(&self->backend)) return no_events(self);
  if (event == NULL || signalled == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_query: NULL argument",
                                   self->backend.plugin_name);
  event_job job = {.self = self, .event = event};
  tflaccel_status status = event_call(self, run_event_query, &job);
  *signalled = status == NULL ? job.signalled : 0;
  return status;
}

static void event_destroy(tflaccel_device *device, tflaccel_event *event) {
  gpu_plugin_device *self = plugin_device(device);
  if (event == NULL || !backend_has_events(&self->backend)) return;
  event_job job = {.self = self, .event = event};
  tflaccel_status status = event_call(self, run_event_destroy, &job);
  if (status != NULL) self->host->status_free(status);
}

static tflaccel_status event_native(tflaccel_device *device, tflaccel_event *event, int32_t type,
                                    tflaccel_native_event *native) {
  gpu_plugin_device *self = plugin_device(device);
  if (!backend_has_events(&self->backend)) return no_events(self);
  if (event == NULL || native == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_native: NULL argument",
                                   self->backend.plugin_name);
  event_job job = {.self = self, .event = event, .type = type, .native = native};
  return event_call(self, run_event_native, &job);
}

static tflaccel_status event_wrap(tflaccel_device *device, const tflaccel_native_event *native,
                                  tflaccel_event **event) {
  gpu_plugin_device *self = plugin_device(device);
  if (event != NULL) *event = NULL;
  if (!backend_has_events(&self->backend)) return no_events(self);
  if (native == NULL || event == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: event_wrap: NULL argument",
                                   self->backend.plugin_name);
  event_job job = {.self = self, .wrapped = native};
  tflaccel_status status = device_run(self, run_event_wrap, &job);
  if (status != NULL && job.event != NULL) {
    event_destroy(device, job.event);
    job.event = NULL;
  }
  *event = job.event;
  return status;
}

/* Runs the partition after waits. Without completion (or while
 * profiling, whose times need the run finished) the run is synchronous:
 * the waits are waited on first, then the dispatches run and finish. */
static tflaccel_status execute_after(tflaccel_device *device, tflaccel_executable *executable,
                                     const tflaccel_binding *bindings, uint32_t binding_count,
                                     tflaccel_event *const *waits, uint32_t wait_count,
                                     tflaccel_event **completion) {
  gpu_plugin_device *self = plugin_device(device);
  if (completion != NULL) *completion = NULL;
  if (executable == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: execute without an executable",
                                   self->backend.plugin_name);
  if (wait_count > 0 && waits == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: execute: %u waits, no array",
                                   self->backend.plugin_name, wait_count);
  int has_events = backend_has_events(&self->backend);
  if (wait_count > 0 && !has_events) return no_events(self);
  if (completion == NULL || !has_events || self->backend.caps.profiling) {
    for (uint32_t w = 0; w < wait_count; ++w) {
      tflaccel_status status = event_wait(device, waits[w]);
      if (status != NULL) return status;
    }
    execute_job job = {.executable = (gpu_executable *)executable,
                       .bindings = bindings,
                       .binding_count = binding_count};
    return device_run(self, run_execute, &job);
  }
  event_job job = {.self = self,
                   .executable = (gpu_executable *)executable,
                   .bindings = bindings,
                   .binding_count = binding_count,
                   .waits = waits,
                   .wait_count = wait_count};
  tflaccel_status status = device_run(self, run_submit, &job);
  if (status != NULL && job.event != NULL) {
    event_destroy(device, job.event);
    job.event = NULL;
  }
  *completion = job.event;
  return status;
}

static tflaccel_status execute(tflaccel_device *device, tflaccel_executable *executable,
                               const tflaccel_binding *bindings, uint32_t binding_count,
                               tflaccel_event **completion) {
  return execute_after(device, executable, bindings, binding_count, NULL, 0, completion);
}

static tflaccel_status run_reset_state(void *argument) {
  return gpu_executable_reset_state(argument);
}

/* The variables' initial values go up again (on the device's thread). */
static tflaccel_status reset_state(tflaccel_device *device, tflaccel_executable *executable) {
  gpu_plugin_device *self = plugin_device(device);
  if (executable == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "%s: reset_state without an executable",
                                   self->backend.plugin_name);
  return device_run(self, run_reset_state, executable);
}

/* Host bookkeeping only (no API call): answered on the calling thread. */
static tflaccel_status executable_profile(tflaccel_device *device, tflaccel_executable *executable,
                                          tflaccel_kernel_time_fn report, void *context) {
  gpu_plugin_device *self = plugin_device(device);
  if (executable == NULL || report == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "%s: executable_profile without an executable or a callback",
                                   self->backend.plugin_name);
  gpu_executable_profile((gpu_executable *)executable, report, context);
  return NULL;
}

/* ---- buffers ---- */

typedef struct buffer_job {
  gpu_plugin_device *self;
  tflaccel_buffer *buffer;
  uint64_t offset, size;
  const void *source;
  void *destination;
} buffer_job;

static tflaccel_status run_buffer_create(void *argument) {
  buffer_job *job = argument;
  return job->self->api->buffer_create(job->self->api_device, job->size, &job->buffer);
}

static tflaccel_status run_buffer_destroy(void *argument) {
  buffer_job *job = argument;
  job->self->api->buffer_destroy(job->self->api_device, job->buffer);
  return NULL;
}

static tflaccel_status run_buffer_write(void *argument) {
  buffer_job *job = argument;
  return job->self->api->buffer_write(job->self->api_device, job->buffer, job->offset, job->source,
                                      job->size);
}

static tflaccel_status run_buffer_read(void *argument) {
  buffer_job *job = argument;
  return job->self->api->buffer_read(job->self->api_device, job->buffer, job->offset,
                                     job->destination, job->size);
}

static tflaccel_status buffer_create(tflaccel_device *device, uint64_t size,
                                     tflaccel_buffer **buffer) {
  gpu_plugin_device *self = plugin_device(device);
  buffer_job job = {.self = self, .size = size};
  tflaccel_status status = device_run(self, run_buffer_create, &job);
  /* A buffer made while the API reported an error is not handed out. */
  if (status != NULL && job.buffer != NULL) {
    tflaccel_status destroyed = device_release(self, run_buffer_destroy, &job);
    if (destroyed != NULL) self->host->status_free(destroyed);
    job.buffer = NULL;
  }
  *buffer = job.buffer;
  return status;
}

static void buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  gpu_plugin_device *self = plugin_device(device);
  buffer_job job = {.self = self, .buffer = buffer};
  tflaccel_status status = device_release(self, run_buffer_destroy, &job);
  if (status != NULL) {
    self->host->log(self->host->context, TFLACCEL_LOG_ERROR, "%s",
                    self->host->status_message(status));
    self->host->status_free(status);
  }
}

static tflaccel_status buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                    uint64_t offset, const void *source, uint64_t size) {
  gpu_plugin_device *self = plugin_device(device);
  buffer_job job = {
      .self = self, .buffer = buffer, .offset = offset, .size = size, .source = source};
  return device_run(self, run_buffer_write, &job);
}

static tflaccel_status buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                   uint64_t offset, void *destination, uint64_t size) {
  gpu_plugin_device *self = plugin_device(device);
  buffer_job job = {
      .self = self, .buffer = buffer, .offset = offset, .size = size, .destination = destination};
  return device_run(self, run_buffer_read, &job);
}

/* ---- buffers handed to the application ---- */

static int api_has_native(const gpu_api *api) {
  return api->buffer_native != NULL && api->device_native != NULL && api->buffer_wrap != NULL;
}

static tflaccel_status no_native(const gpu_plugin_device *self) {
  return self->host->status_make(TFLACCEL_UNSUPPORTED, "%s: %s buffers cannot be handed out",
                                 self->backend.plugin_name, self->api->api_name);
}

typedef struct native_job {
  gpu_plugin_device *self;
  tflaccel_buffer *buffer;
  tflaccel_native_buffer *native;
  const tflaccel_native_buffer *wrapped;
  tflaccel_native_device *device;
} native_job;

static tflaccel_status run_buffer_native(void *argument) {
  native_job *job = argument;
  return job->self->api->buffer_native(job->self->api_device, job->buffer, job->native);
}

static tflaccel_status run_device_native(void *argument) {
  native_job *job = argument;
  job->self->api->device_native(job->self->api_device, job->device);
  return NULL;
}

static tflaccel_status run_buffer_wrap(void *argument) {
  native_job *job = argument;
  return job->self->api->buffer_wrap(job->self->api_device, job->wrapped, &job->buffer);
}

static tflaccel_status buffer_native(tflaccel_device *device, tflaccel_buffer *buffer,
                                     tflaccel_native_buffer *native) {
  gpu_plugin_device *self = plugin_device(device);
  if (!api_has_native(self->api)) return no_native(self);
  native_job job = {.self = self, .buffer = buffer, .native = native};
  return device_run(self, run_buffer_native, &job);
}

static tflaccel_status device_native(tflaccel_device *device, tflaccel_native_device *native) {
  gpu_plugin_device *self = plugin_device(device);
  if (!api_has_native(self->api)) return no_native(self);
  native_job job = {.self = self, .device = native};
  tflaccel_status status = device_run(self, run_device_native, &job);
  /* The GPU layer's kernels address tensors in 16-byte vectors (and
   * gpu_vk's descriptors, binding_alignment): offsets of 16 suit all. */
  native->offset_alignment = self->backend.caps.binding_alignment > 16
                                 ? self->backend.caps.binding_alignment
                                 : 16;
  return status;
}

static tflaccel_status buffer_wrap(tflaccel_device *device, const tflaccel_native_buffer *native,
                                   tflaccel_buffer **buffer) {
  gpu_plugin_device *self = plugin_device(device);
  *buffer = NULL;
  if (!api_has_native(self->api)) return no_native(self);
  native_job job = {.self = self, .wrapped = native};
  tflaccel_status status = device_run(self, run_buffer_wrap, &job);
  if (status != NULL && job.buffer != NULL) {
    buffer_job destroy = {.self = self, .buffer = job.buffer};
    tflaccel_status destroyed = device_run(self, run_buffer_destroy, &destroy);
    if (destroyed != NULL) self->host->status_free(destroyed);
    job.buffer = NULL;
  }
  *buffer = job.buffer;
  return status;
}

/* External memory (ABI 1.3): what buffer_wrap takes beyond the API's
 * own buffers, and exporting a buffer's memory. */
static uint32_t buffer_wrap_types(tflaccel_device *device) {
  gpu_plugin_device *self = plugin_device(device);
  return self->api->buffer_wrap_types != NULL ? self->api->buffer_wrap_types(self->api_device) : 0;
}

typedef struct export_job {
  gpu_plugin_device *self;
  tflaccel_buffer *buffer;
  int32_t type;
  tflaccel_native_buffer *native;
} export_job;

static tflaccel_status run_buffer_export(void *argument) {
  export_job *job = argument;
  return job->self->api->buffer_export(job->self->api_device, job->buffer, job->type, job->native);
}

static tflaccel_status buffer_export(tflaccel_device *device, tflaccel_buffer *buffer, int32_t type,
                                     tflaccel_native_buffer *native) {
  gpu_plugin_device *self = plugin_device(device);
  if (self->api->buffer_export == NULL)
    return self->host->status_make(TFLACCEL_UNSUPPORTED, "%s: %s buffers cannot be exported",
                                   self->backend.plugin_name, self->api->api_name);
  export_job job = {.self = self, .buffer = buffer, .type = type, .native = native};
  return device_run(self, run_buffer_export, &job);
}

/* The ABI's older import: a whole object, by type and handle. */
static tflaccel_status buffer_import(tflaccel_device *device, int32_t type, void *handle,
                                     uint64_t size, tflaccel_buffer **buffer) {
  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = type,
                                   .handle = (uint64_t)(uintptr_t)handle,
                                   .size = size};
  if (type == TFLACCEL_EXTERNAL_HOST_POINTER) {
    *buffer = NULL;
    return plugin_device(device)->host->status_make(
        TFLACCEL_UNSUPPORTED, "%s: host memory is not a device buffer",
        plugin_device(device)->backend.plugin_name);
  }
  return buffer_wrap(device, &native, buffer);
}

/* ---- devices ---- */

static void device_destroy(tflaccel_device *device) {
  gpu_plugin_device *self = plugin_device(device);
  self->api->device_close(self->api_device);
  if (self->lost != NULL) self->host->free(self->host->context, self->lost);
  self->host->free(self->host->context, self);
}

/* One table for every API: the calls of device buffers answer
 * TFLACCEL_UNSUPPORTED for an API without the hooks (api_has_native). */
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
    .buffer_import = buffer_import,
    .reset_state = reset_state,
    .executable_profile = executable_profile,
    .buffer_native = buffer_native,
    .device_native = device_native,
    .buffer_wrap = buffer_wrap,
    .event_wait = event_wait,
    .event_destroy = event_destroy,
    .execute_after = execute_after,
    .event_query = event_query,
    .event_native = event_native,
    .event_wrap = event_wrap,
    .buffer_wrap_types = buffer_wrap_types,
    .buffer_export = buffer_export,
};


/* ---- the plugin ---- */

void gpu_plugin_shutdown(void *state) {
  gpu_plugin_state *self = state;
  if (self == NULL) return;
  if (self->api_state != NULL) self->api->close(self->api_state);
  self->host->free(self->host->context, self);
}

tflaccel_status gpu_plugin_init(const gpu_api *api, const tflaccel_accelerator_plugin *plugin,
                                const tflaccel_host_services *host, void **state) {
  *state = NULL;
  gpu_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(gpu_plugin_state));
  if (self == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", plugin->name);
  memset(self, 0, sizeof *self);
  self->api = api;
  self->name = plugin->name;
  self->host = host;
  /* Read first: a bad value names the option, whatever the drivers do. */
  tflaccel_status status = gpu_option_profile(host, self->name, &self->profiling);
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  if (status == NULL) status = api->open(host, &self->api_state);
  if (status == NULL)
    host->log(host->context, TFLACCEL_LOG_DEBUG, "driver start-up: %s opened in %.1f ms",
              api->api_name, elapsed_ms(&start));
  int32_t index = -1;
  if (status == NULL)
    status = gpu_option_device(host, self->name, api->api_name, api->device_count(self->api_state),
                               &index);
  if (status != NULL) {
    gpu_plugin_shutdown(self);
    return status;
  }
  if (index >= 0) api->keep_only(self->api_state, (uint32_t)index);
  for (uint32_t i = 0; i < api->device_count(self->api_state); ++i) {
    const tflaccel_device_info *info = api->device_info(self->api_state, i);
    const char *origin = api->device_origin != NULL ? api->device_origin(self->api_state, i) : NULL;
    host->log(host->context, TFLACCEL_LOG_INFO, "device %u: %s (%s, driver %s, %s)%s%s",
              (unsigned)i, info->name, info->vendor, info->driver_version, info->api_version,
              origin != NULL ? " on " : "", origin != NULL ? origin : "");
  }
  *state = self;
  return NULL;
}

uint32_t gpu_plugin_device_count(void *state) {
  gpu_plugin_state *self = state;
  return self->api->device_count(self->api_state);
}

static tflaccel_status no_such_device(const gpu_plugin_state *self, uint32_t index) {
  return self->host->status_make(
      TFLACCEL_INVALID_ARGUMENT, "%s device %u does not exist (%u found)", self->name,
      (unsigned)index, (unsigned)self->api->device_count(self->api_state));
}

tflaccel_status gpu_plugin_device_info(void *state, uint32_t index, tflaccel_device_info *info) {
  gpu_plugin_state *self = state;
  if (index >= self->api->device_count(self->api_state)) return no_such_device(self, index);
  *info = *self->api->device_info(self->api_state, index);
  if (api_has_native(self->api)) info->caps |= TFLACCEL_DEVICE_CAP_IMPORT;
  if (self->api->has_events) info->caps |= TFLACCEL_DEVICE_CAP_ASYNC;
  return NULL;
}

tflaccel_status gpu_plugin_device_create(void *state, uint32_t index, tflaccel_device **device) {
  gpu_plugin_state *self = state;
  const tflaccel_host_services *host = self->host;
  *device = NULL;
  if (index >= self->api->device_count(self->api_state)) return no_such_device(self, index);
  gpu_plugin_device *created =
      host->alloc(host->context, sizeof *created, _Alignof(gpu_plugin_device));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", self->name);
  memset(created, 0, sizeof *created);
  created->base.vtable = &device_vtable;
  created->api = self->api;
  created->host = host;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  tflaccel_status status = self->api->device_open(self->api_state, index, self->profiling,
                                                  &created->api_device, &created->backend);
  if (status == NULL)
    host->log(host->context, TFLACCEL_LOG_DEBUG,
              "driver start-up: device %u (context, queue) opened in %.1f ms", (unsigned)index,
              elapsed_ms(&start));
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  created->backend.plugin_name = self->name;
  *device = &created->base;
  return NULL;
}
