/* gpu_gl: the OpenGL ES 3.1 accelerator. It finds EGL displays that need no
 * window system and run GLES compute shaders, and gives each device a GLES
 * context, owned by a worker thread that makes every GL call of the device
 * (gl_worker.h), so that any thread may call the plugin. The GPU layer
 * (plugins/gpu_common) decides which ops run and lowers partitions into
 * dispatches of the GLSL kernels in kernels/glsl/, which gl_backend
 * compiles for the context and issues.
 *
 * Options (section [plugin.gpu_gl]):
 *   device=N   use display N of those found
 *   profile=1  time every dispatch with GL timer queries
 *              (GL_EXT_disjoint_timer_query, gl_timer.h); each compiled
 *              partition logs where its GPU time went when destroyed */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_executable.h"
#include "plugins/gpu_common/gpu_support.h"
#include "plugins/gpu_gl/egl_context.h"
#include "plugins/gpu_gl/gl_backend.h"
#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_worker.h"
#include "plugins/gpu_common/gpu_options.h"
#include "tflaccel/accelerator.h"

typedef struct gl_plugin_state {
  const tflaccel_host_services *host;
  egl_display_list displays;
  int32_t profiling; /* option profile = 1 */
} gl_plugin_state;

typedef struct gl_plugin_device {
  tflaccel_device base; /* first: the core sees a tflaccel_device */
  const tflaccel_host_services *host;
  egl_device_context egl;
  gl_worker worker;
  gl_backend_device backend_device;
  gpu_backend backend;
  int32_t profiling; /* the plugin's option profile, for gl_backend_init */
} gl_plugin_device;

static gl_plugin_device *plugin_device(tflaccel_device *device) {
  return (gl_plugin_device *)device;
}

/* ---- ops ---- */

/* Pure (no GL): answered on the calling thread. */
static tflaccel_status supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                   uint32_t op_index, const tflaccel_compile_options *options,
                                   tflaccel_op_support *support) {
  (void)options;
  if (op_index >= graph->op_count)
    return plugin_device(device)->host->status_make(
        TFLACCEL_INVALID_ARGUMENT, "gpu_gl: supports_op: op %u of %u", op_index, graph->op_count);
  support->relative_cost = 0.0f;
  support->reason[0] = '\0';
  support->level =
      gpu_op_supported(graph, op_index, "gpu_gl", support->reason, sizeof support->reason)
          ? TFLACCEL_SUPPORT_YES
          : TFLACCEL_SUPPORT_NO;
  return NULL;
}

/* Every other call is a job on the device's worker; its arguments travel
 * in one of these. */
typedef struct compile_job {
  gl_plugin_device *self;
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

static tflaccel_status compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                               const tflaccel_partition_desc *partition,
                               const tflaccel_compile_options *options,
                               tflaccel_executable **executable) {
  gl_plugin_device *self = plugin_device(device);
  compile_job job = {
      .self = self, .graph = graph, .partition = partition, .options = options, .created = NULL};
  tflaccel_status status = gl_worker_run(&self->worker, run_compile, &job);
  *executable = (tflaccel_executable *)job.created;
  return status;
}

static tflaccel_status run_executable_destroy(void *argument) {
  gpu_executable_destroy(argument);
  return NULL;
}

static void executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  if (executable == NULL) return;
  /* The job cannot fail. */
  (void)gl_worker_run(&plugin_device(device)->worker, run_executable_destroy, executable);
}

typedef struct execute_job {
  gl_plugin_device *self;
  gpu_executable *executable;
  const tflaccel_binding *bindings;
  uint32_t binding_count;
} execute_job;

static tflaccel_status run_execute(void *argument) {
  execute_job *job = argument;
  gl_backend_begin_run(&job->self->backend_device);
  return gpu_executable_run(job->executable, job->bindings, job->binding_count);
}

static tflaccel_status execute(tflaccel_device *device, tflaccel_executable *executable,
                               const tflaccel_binding *bindings, uint32_t binding_count,
                               tflaccel_event **completion) {
  gl_plugin_device *self = plugin_device(device);
  if (completion != NULL) *completion = NULL; /* runs are synchronous */
  if (executable == NULL)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_gl: execute without an executable");
  execute_job job = {.self = self,
                     .executable = (gpu_executable *)executable,
                     .bindings = bindings,
                     .binding_count = binding_count};
  return gl_worker_run(&self->worker, run_execute, &job);
}

/* ---- buffers ---- */

typedef struct buffer_job {
  gl_plugin_device *self;
  tflaccel_buffer *buffer;
  uint64_t offset, size;
  const void *source;
  void *destination;
} buffer_job;

static tflaccel_status run_buffer_create(void *argument) {
  buffer_job *job = argument;
  tflaccel_status status = gl_buffer_create(job->self->host, job->size, &job->buffer);
  if (status == NULL) gl_buffer_mark_host_io(job->buffer);
  return status;
}

static tflaccel_status buffer_create(tflaccel_device *device, uint64_t size,
                                     tflaccel_buffer **buffer) {
  gl_plugin_device *self = plugin_device(device);
  buffer_job job = {.self = self, .size = size};
  tflaccel_status status = gl_worker_run(&self->worker, run_buffer_create, &job);
  *buffer = job.buffer;
  return status;
}

static tflaccel_status run_buffer_destroy(void *argument) {
  buffer_job *job = argument;
  gl_buffer_destroy(job->self->host, job->buffer);
  return NULL;
}

static void buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  gl_plugin_device *self = plugin_device(device);
  buffer_job job = {.self = self, .buffer = buffer};
  (void)gl_worker_run(&self->worker, run_buffer_destroy, &job); /* cannot fail */
}

static tflaccel_status run_buffer_write(void *argument) {
  buffer_job *job = argument;
  return gl_buffer_write(job->self->host, job->buffer, job->offset, job->source, job->size);
}

static tflaccel_status buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                    uint64_t offset, const void *source, uint64_t size) {
  gl_plugin_device *self = plugin_device(device);
  buffer_job job = {
      .self = self, .buffer = buffer, .offset = offset, .size = size, .source = source};
  return gl_worker_run(&self->worker, run_buffer_write, &job);
}

static tflaccel_status run_buffer_read(void *argument) {
  buffer_job *job = argument;
  return gl_buffer_read(job->self->host, job->buffer, job->offset, job->destination, job->size);
}

static tflaccel_status buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                   uint64_t offset, void *destination, uint64_t size) {
  gl_plugin_device *self = plugin_device(device);
  buffer_job job = {
      .self = self, .buffer = buffer, .offset = offset, .size = size, .destination = destination};
  return gl_worker_run(&self->worker, run_buffer_read, &job);
}

/* ---- devices ---- */

static tflaccel_status run_backend_init(void *argument) {
  gl_plugin_device *self = argument;
  return gl_backend_init(self->host, self->profiling, &self->backend_device, &self->backend);
}

static tflaccel_status run_backend_release(void *argument) {
  gl_plugin_device *self = argument;
  gl_backend_release(&self->backend_device);
  return NULL;
}

static void device_destroy(tflaccel_device *device) {
  gl_plugin_device *self = plugin_device(device);
  (void)gl_worker_run(&self->worker, run_backend_release, self); /* cannot fail */
  gl_worker_stop(&self->worker);
  egl_device_context_release(self->host, &self->egl);
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
                                           egl_display_list *displays) {
  int32_t index = -1;
  tflaccel_status status = gpu_option_device(host, "gpu_gl", "EGL", displays->count, &index);
  if (status != NULL || index < 0) return status;
  /* The displays left out are terminated now: nothing will use them. */
  for (uint32_t i = 0; i < displays->count; ++i)
    if (i != (uint32_t)index && !eglTerminate(displays->entries[i].display))
      host->log(host->context, TFLACCEL_LOG_WARNING, "eglTerminate(%s) failed: 0x%04x",
                displays->entries[i].origin, (unsigned)eglGetError());
  displays->entries[0] = displays->entries[index];
  displays->count = 1;
  return NULL;
}

static void plugin_shutdown(void *state) {
  gl_plugin_state *self = state;
  if (self == NULL) return;
  const tflaccel_host_services *host = self->host;
  egl_display_list_release(host, &self->displays);
  host->free(host->context, self);
}

static tflaccel_status plugin_init(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  gl_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(gl_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  /* Read first: a bad value names the option, whatever the drivers do. */
  tflaccel_status status = gpu_option_profile(host, "gpu_gl", &self->profiling);
  if (status == NULL) status = egl_display_list_scan(host, &self->displays);
  if (status == NULL) status = apply_device_option(host, &self->displays);
  if (status != NULL) {
    plugin_shutdown(self);
    return status;
  }
  for (uint32_t i = 0; i < self->displays.count; ++i) {
    const egl_display_entry *entry = &self->displays.entries[i];
    host->log(host->context, TFLACCEL_LOG_INFO, "device %u: %s (%s, driver %s, %s) on %s",
              (unsigned)i, entry->info.name, entry->info.vendor, entry->info.driver_version,
              entry->info.api_version, entry->origin);
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(void *state) { return ((gl_plugin_state *)state)->displays.count; }

static tflaccel_status device_info(void *state, uint32_t index, tflaccel_device_info *info) {
  const gl_plugin_state *self = state;
  if (index >= self->displays.count)
    return self->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                   "gpu_gl device %u does not exist (%u found)", (unsigned)index,
                                   (unsigned)self->displays.count);
  *info = self->displays.entries[index].info;
  return NULL;
}

static tflaccel_status device_create(void *state, uint32_t index, tflaccel_device **device) {
  const gl_plugin_state *self = state;
  const tflaccel_host_services *host = self->host;
  *device = NULL;
  if (index >= self->displays.count)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT,
                             "gpu_gl device %u does not exist (%u found)", (unsigned)index,
                             (unsigned)self->displays.count);
  gl_plugin_device *created =
      host->alloc(host->context, sizeof *created, _Alignof(gl_plugin_device));
  if (created == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory");
  memset(created, 0, sizeof *created);
  created->base.vtable = &device_vtable;
  created->host = host;
  created->profiling = self->profiling;
  tflaccel_status status =
      egl_device_context_create(host, &self->displays.entries[index], &created->egl);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  status = gl_worker_start(host, &created->egl, &created->worker);
  if (status == NULL) {
    status = gl_worker_run(&created->worker, run_backend_init, created);
    if (status != NULL) {
      (void)gl_worker_run(&created->worker, run_backend_release, created);
      gl_worker_stop(&created->worker);
    }
  }
  if (status != NULL) {
    egl_device_context_release(host, &created->egl);
    host->free(host->context, created);
    return status;
  }
  *device = &created->base;
  return NULL;
}

static const tflaccel_accelerator_plugin plugin_descriptor = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
    .abi_version = TFLACCEL_ABI_VERSION,
    .name = "gpu_gl",
    .version = PACKAGE_VERSION,
    .description = "OpenGL ES 3.1 compute through EGL, without a window system",
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
