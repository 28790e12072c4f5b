/* gpu_gl: the OpenGL ES 3.1 accelerator. It finds EGL displays that need no
 * window system and run GLES compute shaders, and gives each device a GLES
 * context, owned by a worker thread that makes every GL call of the device
 * (gl_worker.h), so that any thread may call the plugin. The shared GPU
 * plugin (plugins/gpu_common/gpu_plugin.h) does the rest: the GPU layer
 * decides which ops run and lowers partitions into dispatches of the GLSL
 * kernels in kernels/glsl/, which gl_backend compiles for the context and
 * issues.
 *
 * Options (section [plugin.gpu_gl]):
 *   device=N   use display N of those found
 *   profile=1  time every dispatch with GL timer queries
 *              (GL_EXT_disjoint_timer_query, gl_timer.h); each compiled
 *              partition logs where its GPU time went when destroyed */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "plugins/gpu_common/gpu_plugin.h"
#include "plugins/gpu_gl/egl_context.h"
#include "plugins/gpu_gl/egl_display_registry.h"
#include "plugins/gpu_gl/gl_backend.h"
#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_memory_object.h"
#include "plugins/gpu_gl/gl_worker.h"
#include "tflaccel/accelerator.h"

typedef struct gl_plugin_state {
  const tflaccel_host_services *host;
  egl_display_list displays;
} gl_plugin_state;

typedef struct gl_plugin_device {
  const tflaccel_host_services *host;
  egl_device_context egl;
  gl_worker worker;
  gl_backend_device backend_device;
  /* device_open's arguments for backend_init on the worker. */
  gpu_backend *backend;
  int32_t profiling;
  gpu_fault fault; /* the fault hook (gpu_fault.h) of this device's calls */
  gl_memory_objects memory_objects; /* external memory (gl_memory_object.h) */
} gl_plugin_device;

/* ---- the plugin ---- */

static void close_plugin(void *state) {
  gl_plugin_state *self = state;
  egl_display_list_release(self->host, &self->displays);
  self->host->free(self->host->context, self);
}

static tflaccel_status open_plugin(const tflaccel_host_services *host, void **state) {
  *state = NULL;
  gl_plugin_state *self = host->alloc(host->context, sizeof *self, _Alignof(gl_plugin_state));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  tflaccel_status status = egl_display_list_scan(host, &self->displays);
  if (status != NULL) {
    close_plugin(self);
    return status;
  }
  *state = self;
  return NULL;
}

static uint32_t device_count(const void *state) {
  return ((const gl_plugin_state *)state)->displays.count;
}

static const tflaccel_device_info *device_info(const void *state, uint32_t index) {
  return &((const gl_plugin_state *)state)->displays.entries[index].info;
}

static const char *device_origin(const void *state, uint32_t index) {
  return ((const gl_plugin_state *)state)->displays.entries[index].origin;
}

/* The displays left out are released now: this environment will not use them. */
static void keep_only(void *state, uint32_t index) {
  gl_plugin_state *self = state;
  egl_display_list *displays = &self->displays;
  for (uint32_t i = 0; i < displays->count; ++i)
    if (i != index && !egl_display_release(displays->entries[i].display))
      self->host->log(self->host->context, TFLACCEL_LOG_WARNING, "eglTerminate(%s) failed: 0x%04x",
                      displays->entries[i].origin, (unsigned)eglGetError());
  displays->entries[0] = displays->entries[index];
  displays->count = 1;
}

/* ---- a device ---- */

static tflaccel_status run_backend_init(void *argument) {
  gl_plugin_device *self = argument;
  tflaccel_status status =
      gl_backend_init(self->host, self->profiling, &self->backend_device, self->backend);
  if (status == NULL) status = gpu_fault_init(&self->fault, self->host, "gpu_gl");
  self->backend_device.fault = &self->fault;
  self->backend_device.programs.fault = &self->fault;
  self->backend_device.display = self->egl.display;
  gl_memory_objects_init(&self->memory_objects);
  return status;
}

static tflaccel_status run_backend_release(void *argument) {
  gl_plugin_device *self = argument;
  gl_backend_release(&self->backend_device);
  return NULL;
}

static void device_close(void *device) {
  gl_plugin_device *self = device;
  (void)gl_worker_run(&self->worker, run_backend_release, self); /* cannot fail */
  gl_worker_stop(&self->worker);
  egl_device_context_release(self->host, &self->egl);
  self->host->free(self->host->context, self);
}

static tflaccel_status device_open(void *state, uint32_t index, int32_t profiling, void **device,
                                   gpu_backend *backend) {
  const gl_plugin_state *plugin = state;
  const tflaccel_host_services *host = plugin->host;
  *device = NULL;
  gl_plugin_device *self = host->alloc(host->context, sizeof *self, _Alignof(gl_plugin_device));
  if (self == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory");
  memset(self, 0, sizeof *self);
  self->host = host;
  self->backend = backend;
  self->profiling = profiling;
  tflaccel_status status =
      egl_device_context_create(host, &plugin->displays.entries[index], &self->egl);
  if (status != NULL) {
    host->free(host->context, self);
    return status;
  }
  status = gl_worker_start(host, &self->egl, &self->worker);
  if (status == NULL) {
    status = gl_worker_run(&self->worker, run_backend_init, self);
    if (status != NULL) {
      (void)gl_worker_run(&self->worker, run_backend_release, self);
      gl_worker_stop(&self->worker);
    }
  }
  if (status != NULL) {
    egl_device_context_release(host, &self->egl);
    host->free(host->context, self);
    return status;
  }
  self->backend = NULL; /* the caller's, valid only during this call */
  *device = self;
  return NULL;
}

/* Every device call runs on the worker that owns the context. */
static tflaccel_status device_call(void *device, gpu_device_job job, void *argument) {
  return gl_worker_run(&((gl_plugin_device *)device)->worker, job, argument);
}

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  gl_plugin_device *self = device;
  tflaccel_status status = gl_buffer_create(self->host, &self->fault, size, buffer);
  if (status == NULL) gl_buffer_mark_host_io(*buffer);
  return status;
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  gl_buffer_destroy(((gl_plugin_device *)device)->host, buffer);
}

static tflaccel_status buffer_write(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                    const void *source, uint64_t size) {
  return gl_buffer_write(((gl_plugin_device *)device)->host, buffer, offset, source, size);
}

static tflaccel_status buffer_read(void *device, tflaccel_buffer *buffer, uint64_t offset,
                                   void *destination, uint64_t size) {
  return gl_buffer_read(((gl_plugin_device *)device)->host, buffer, offset, destination, size);
}

/* Device buffers handed to the application: a buffer's GL name, in the
 * share group of the device's EGL context. */
static tflaccel_status buffer_native(void *device, tflaccel_buffer *buffer,
                                     tflaccel_native_buffer *native) {
  (void)device;
  native->type = TFLACCEL_BUFFER_GL;
  native->handle = gl_buffer_name(buffer);
  native->memory = 0;
  native->offset = 0;
  native->size = gl_buffer_size(buffer);
  return NULL;
}

static void device_native(void *device, tflaccel_native_device *native) {
  gl_plugin_device *self = device;
  native->type = TFLACCEL_BUFFER_GL;
  native->egl_display = self->egl.display;
  native->egl_context = self->egl.context;
  memcpy(native->device_uuid, self->memory_objects.device_uuid, sizeof native->device_uuid);
  memcpy(native->driver_uuid, self->memory_objects.driver_uuid, sizeof native->driver_uuid);
}

/* The application's GL buffer, made on a context sharing with the
 * device's, or an fd of external memory (gl_memory_object.h). */
static tflaccel_status buffer_wrap(void *device, const tflaccel_native_buffer *native,
                                   tflaccel_buffer **buffer) {
  gl_plugin_device *self = device;
  *buffer = NULL;
  if (native->type == TFLACCEL_BUFFER_GL) {
    if (native->handle > UINT32_MAX)
      return self->host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_gl: %llu is not a GL buffer name",
                                     (unsigned long long)native->handle);
    return gl_buffer_wrap(self->host, (GLuint)native->handle, native->offset + native->size, buffer);
  }
  if (native->type == TFLACCEL_BUFFER_OPAQUE_FD || native->type == TFLACCEL_BUFFER_DMABUF)
    return gl_memory_object_import(self->host, &self->memory_objects,
                                   (const char *)glGetString(GL_RENDERER), native, buffer);
  return self->host->status_make(TFLACCEL_UNSUPPORTED, "gpu_gl: takes GL buffers, not type %d",
                                 (int)native->type);
}

static uint32_t buffer_wrap_types(void *device) {
  return ((gl_plugin_device *)device)->memory_objects.offered ? 1u << TFLACCEL_BUFFER_OPAQUE_FD : 0;
}

static const gpu_api gl_api = {
    .api_name = "EGL",
    .open = open_plugin,
    .close = close_plugin,
    .device_count = device_count,
    .device_info = device_info,
    .device_origin = device_origin,
    .keep_only = keep_only,
    .device_open = device_open,
    .device_close = device_close,
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_write = buffer_write,
    .buffer_read = buffer_read,
    .device_call = device_call,
    .buffer_native = buffer_native,
    .device_native = device_native,
    .buffer_wrap = buffer_wrap,
    .has_events = 1,
    .buffer_wrap_types = buffer_wrap_types,
};

GPU_PLUGIN_EXPORT(gl_api, "gpu_gl", "OpenGL ES 3.1 compute through EGL, without a window system")
