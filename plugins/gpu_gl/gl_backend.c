/* The GLES backend of the GPU layer (gl_backend.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_program.h"
#include "plugins/gpu_common/gpu_work_group.h"
#include "plugins/gpu_gl/gl_backend.h"
#include "plugins/gpu_gl/gl_buffer.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_event.h"
#include "plugins/gpu_gl/gl_worker.h"

/* Kernel argument slots (gpu_backend.h): 0 the parameters, 1 their offset,
 * 2.. the tensors; storage buffer binding 0 is the parameters, 1.. the
 * tensors. */
#define SLOT_BASE 1
/* The location of the kernels' parameter offset uniform (prelude_gles.glsl). */
#define BASE_UNIFORM_LOCATION 0
/* prelude_gles.glsl: the grid values (GPU_GRID_VALUE_*), locations 1..6. */
#define GRID_UNIFORM_LOCATION 1
/* glClientWaitSync waits this long at a time (nanoseconds). */
#define FENCE_WAIT_NS 1000000000ull

/* Binding 1 holds the output (kernels/glsl/common.glsl's t0). */
#define BINDING_OUTPUT 1

struct gpu_kernel_object {
  int32_t kernel, storage;
  GLuint buffers[GL_BACKEND_BINDINGS];
  /* What the bindings the kernel writes hold (BINDING_OUTPUT, and the
   * last for the kernels with a second output), else NULL: staged for
   * reading after a run when the core created them. */
  tflaccel_buffer *written[GL_BACKEND_BINDINGS];
  int32_t base;
  uint32_t local[3]; /* work group of the cached program */
  uint32_t post_list; /* and its post-op list */
  GLuint program;
};

static gl_backend_device *self_of(void *device) { return device; }

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  return gl_buffer_create(self_of(device)->host, self_of(device)->fault, size, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  gl_buffer_destroy(self_of(device)->host, buffer);
}

static tflaccel_status buffer_upload(void *device, tflaccel_buffer *buffer, const void *data,
                                     uint64_t size) {
  return gl_buffer_write(self_of(device)->host, buffer, 0, data, size);
}

static tflaccel_status kernel_create(void *device, int32_t storage, int32_t kernel,
                                     const int32_t *params, gpu_kernel_object **object) {
  (void)params; /* built per post-op list instead (gpu_step.post_list) */
  gl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *object = NULL;
  if (kernel < 0 || kernel >= GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl: kernel %d", (int)kernel);
  if (storage != GPU_STORAGE_FLOAT32 && storage != GPU_STORAGE_HALF)
    return host->status_make(TFLACCEL_INTERNAL,
                             "gpu_gl: storage mode %d (GLES has no half arithmetic switch)",
                             (int)storage);
  gpu_kernel_object *created =
      host->alloc(host->context, sizeof *created, _Alignof(gpu_kernel_object));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (kernel)");
  memset(created, 0, sizeof *created);
  created->kernel = kernel;
  created->storage = storage;
  *object = created;
  return NULL;
}

static void kernel_destroy(void *device, gpu_kernel_object *object) {
  if (object != NULL) self_of(device)->host->free(self_of(device)->host->context, object);
}

static tflaccel_status kernel_set_buffer(void *device, gpu_kernel_object *object, uint32_t slot,
                                         tflaccel_buffer *buffer) {
  gl_backend_device *self = self_of(device);
  if (slot == SLOT_BASE || slot > GPU_MAX_ARGS + 1)
    return self->host->status_make(TFLACCEL_INTERNAL, "gpu_gl: buffer for argument slot %u",
                                   (unsigned)slot);
  uint64_t size = gl_buffer_size(buffer);
  if (size > (uint64_t)self->max_block_size)
    return self->host->status_make(TFLACCEL_UNSUPPORTED,
                                   "gpu_gl: a %llu-byte buffer exceeds the context's shader "
                                   "storage block size (%lld)",
                                   (unsigned long long)size, (long long)self->max_block_size);
  uint32_t binding = slot == 0 ? 0 : slot - 1;
  object->buffers[binding] = gl_buffer_name(buffer);
  object->written[binding] =
      gpu_kernel_writes_glsl_binding(object->kernel, binding) ? buffer : NULL;
  return NULL;
}

static tflaccel_status kernel_set_int(void *device, gpu_kernel_object *object, uint32_t slot,
                                      int32_t value) {
  if (slot != SLOT_BASE)
    return self_of(device)->host->status_make(TFLACCEL_INTERNAL, "gpu_gl: int for argument slot %u",
                                              (unsigned)slot);
  object->base = value;
  return NULL;
}

/* Fits the preferred work group to the context's limits (programs are
 * built per size). Queues no GL work. */
static void fit_group(const gl_backend_device *self, const uint32_t local[3], uint32_t group[3]) {
  const uint64_t max_size[3] = {(uint64_t)self->max_group_size[0],
                                (uint64_t)self->max_group_size[1],
                                (uint64_t)self->max_group_size[2]};
  gpu_fit_work_group(local, max_size, (uint64_t)self->max_invocations, group);
}

/* The key of step's program for the work group its local fits to. */
static gl_program_key step_program_key(const gl_backend_device *self, const gpu_step *step) {
  gl_program_key key = {
      .kernel = step->kernel->kernel,
      .storage = step->kernel->storage,
      .post_list = step->post_list,
  };
  fit_group(self, step->local, key.local);
  return key;
}

static tflaccel_status get_program(gl_backend_device *self, gpu_kernel_object *object,
                                   const gl_program_key *key) {
  if (object->program == 0 || memcmp(object->local, key->local, sizeof object->local) != 0 ||
      object->post_list != key->post_list) {
    tflaccel_status status = gl_program_get(&self->programs, key, &object->program);
    if (status != NULL) return status;
    memcpy(object->local, key->local, sizeof object->local);
    object->post_list = key->post_list;
  }
  return NULL;
}

/* One dispatch: its kernel, the program for the fitted work group
 * (get_program) and the work-group counts, found once. */
typedef struct gl_step {
  gpu_kernel_object *object;
  uint32_t groups[3];
  int32_t barrier_before; /* the GPU layer's barrier plan */
  /* Set as the uniforms at GRID_UNIFORM_LOCATION where the program reads
   * them (its post-op list has a grid): a uniform the program lacks may
   * not be set. */
  int32_t has_grid;
  int32_t grid_values[GPU_GRID_VALUE_COUNT];
} gl_step;

struct gpu_sequence {
  uint32_t count;
  gl_step steps[]; /* count of them */
};

static tflaccel_status fit_step(gl_backend_device *self, const gpu_step *step, gl_step *fitted) {
  gl_program_key key = step_program_key(self, step);
  tflaccel_status status = get_program(self, step->kernel, &key);
  if (status != NULL) return status;
  const uint32_t *group = key.local;
  fitted->object = step->kernel;
  fitted->barrier_before = step->barrier_before;
  fitted->has_grid = gpu_post_list_pushed_grid(step->post_list) >= 0;
  memcpy(fitted->grid_values, step->grid_values, sizeof step->grid_values);
  for (int i = 0; i < 3; ++i) {
    fitted->groups[i] = (step->global[i] + group[i] - 1) / group[i];
    if (fitted->groups[i] == 0) fitted->groups[i] = 1;
    if (fitted->groups[i] > (uint32_t)self->max_group_count[i])
      return self->host->status_make(TFLACCEL_UNSUPPORTED,
                                     "gpu_gl: %s needs %u work groups along dimension %d, the "
                                     "context allows %d",
                                     gpu_kernel_name(step->kernel->kernel), fitted->groups[i], i,
                                     (int)self->max_group_count[i]);
  }
  return NULL;
}

static tflaccel_status sequence_create(void *device, const gpu_step *steps, uint32_t count,
                                       gpu_sequence **sequence) {
  gl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *sequence = NULL;
  gpu_sequence *created =
      host->alloc(host->context, sizeof *created + (size_t)count * sizeof *created->steps,
                  _Alignof(gpu_sequence));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (sequence)");
  /* Every program the sequence needs is started first, then each is
   * waited for as its step is fitted (gl_program_prepare). */
  for (uint32_t i = 0; i < count; ++i) {
    gl_program_key key = step_program_key(self, &steps[i]);
    gl_program_prepare(&self->programs, &key);
  }
  tflaccel_status status = NULL;
  for (uint32_t i = 0; status == NULL && i < count; ++i)
    status = fit_step(self, &steps[i], &created->steps[i]);
  if (status != NULL) {
    host->free(host->context, created);
    return status;
  }
  created->count = count;
  *sequence = created;
  return NULL;
}

static void sequence_destroy(void *device, gpu_sequence *sequence) {
  const tflaccel_host_services *host = self_of(device)->host;
  if (sequence != NULL) host->free(host->context, sequence);
}

/* Partition bindings are set after the sequence is made: checked when
 * they change. */
static tflaccel_status check_bindings(gl_backend_device *self, const gpu_sequence *sequence) {
  for (uint32_t s = 0; s < sequence->count; ++s) {
    const gpu_kernel_object *object = sequence->steps[s].object;
    for (int i = 0; i < GL_BACKEND_BINDINGS; ++i)
      if (object->buffers[i] == 0)
        return self->host->status_make(TFLACCEL_INTERNAL,
                                       "gpu_gl: %s dispatched with binding %d unset",
                                       gpu_kernel_name(object->kernel), i);
  }
  return NULL;
}

/* Forgets what a run that ended early left: its timer queries, and the
 * bindings it made (buffers and programs may go between runs). */
static void begin_run(gl_backend_device *self) {
  if (self->profiling) gl_dispatch_timer_drop_run(&self->timer);
  self->bound_program = 0;
  memset(self->bound_buffers, 0, sizeof self->bound_buffers);
  /* A run that failed before its fence leaves a list: its buffers stay
   * marked for that run's number only. */
  self->staged = NULL;
  if (++self->run_serial == 0) self->run_serial = 1;
}

static tflaccel_status dispatch(gl_backend_device *self, const gl_step *step) {
  gpu_kernel_object *object = step->object;
  /* Nothing fails once a query is begun. The barrier below comes after
   * it: a dispatch's time includes the barrier before it. */
  if (self->profiling) {
    tflaccel_status status = gl_dispatch_timer_before(&self->timer);
    if (status != NULL) return status;
  }
  /* Earlier dispatches' writes become visible to this one's reads, and
   * its writes wait for their reads. */
  if (step->barrier_before) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  for (int b = BINDING_OUTPUT; b < GL_BACKEND_BINDINGS; ++b) {
    if (object->written[b] == NULL) continue;
    gl_buffer_note_kernel_write(object->written[b]);
    self->staged = gl_buffer_list_staged(object->written[b], self->run_serial, self->staged);
  }
  if (self->bound_program != object->program) glUseProgram(object->program);
  self->bound_program = object->program;
  glUniform1i(BASE_UNIFORM_LOCATION, object->base);
  if (step->has_grid) glUniform1iv(GRID_UNIFORM_LOCATION, GPU_GRID_VALUE_COUNT, step->grid_values);
  for (GLuint i = 0; i < GL_BACKEND_BINDINGS; ++i) {
    if (self->bound_buffers[i] != object->buffers[i])
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, object->buffers[i]);
    self->bound_buffers[i] = object->buffers[i];
  }
  glDispatchCompute(step->groups[0], step->groups[1], step->groups[2]);
  if (self->profiling) gl_dispatch_timer_after(&self->timer);
  return NULL;
}

#define FENCE_SPIN_NS 5000000

/* Makes the dispatches' writes visible to buffer reads and later
 * dispatches, and stages the core's written buffers for reading. GL
 * errors of the run show here. */
static tflaccel_status end_dispatches(gl_backend_device *self) {
  const tflaccel_host_services *host = self->host;
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  tflaccel_status status =
      gl_check_call(host, self->fault, "glDispatchCompute (the run's dispatches)", GPU_FAULT_LOST);
  /* The core's buffers that the run wrote go to their read-back buffers
   * before the fence, so that reading them waits on nothing more. */
  for (tflaccel_buffer *buffer = self->staged; buffer != NULL && status == NULL;
       buffer = gl_buffer_next_staged(buffer))
    status = gl_buffer_stage_read(host, buffer);
  self->staged = NULL;
  return status;
}

/* end_dispatches, then waits on a fence. */
static tflaccel_status wait_for_dispatches(gl_backend_device *self) {
  const tflaccel_host_services *host = self->host;
  tflaccel_status status = end_dispatches(self);
  if (status != NULL) return status;
  GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (fence == 0) {
    status = gl_check_error(host, "glFenceSync");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glFenceSync gave no fence");
  }
  /* Polls for up to FENCE_SPIN_NS before blocking: a run is typically a
   * millisecond, and a blocking wait wakes the thread up late (what OpenCL
   * drivers' clFinish avoids by spinning too). The first call flushes. */
  /* An injected failure leaves the dispatches running, as a real one may;
   * GL defers deleting what they use until they are done. */
  gpu_fault_kind injected = gpu_fault_next(self->fault, "glClientWaitSync", GPU_FAULT_LOST);
  if (injected != GPU_FAULT_NONE) {
    glDeleteSync(fence);
    return gl_fault_failed(host, "glClientWaitSync", injected);
  }
  GLenum waited = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
  uint64_t spin_start = gl_monotonic_ns();
  while (waited == GL_TIMEOUT_EXPIRED) {
    uint64_t now = gl_monotonic_ns();
    if (now == 0 || spin_start == 0 || now - spin_start > FENCE_SPIN_NS) break;
    waited = glClientWaitSync(fence, 0, 0);
  }
  while (waited == GL_TIMEOUT_EXPIRED) waited = glClientWaitSync(fence, 0, FENCE_WAIT_NS);
  glDeleteSync(fence);
  if (waited == GL_WAIT_FAILED) {
    status = gl_check_error(host, "glClientWaitSync");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glClientWaitSync failed");
  }
  return NULL;
}

static tflaccel_status sequence_run(void *device, gpu_sequence *sequence, int32_t rebound) {
  gl_backend_device *self = self_of(device);
  begin_run(self);
  tflaccel_status status = rebound ? check_bindings(self, sequence) : NULL;
  for (uint32_t i = 0; status == NULL && i < sequence->count; ++i)
    status = dispatch(self, &sequence->steps[i]);
  if (status == NULL) status = wait_for_dispatches(self);
  if (!self->profiling) return status;
  /* A failed run leaves no times (profile_read gives none). */
  if (status != NULL) {
    gl_dispatch_timer_drop_run(&self->timer);
    return status;
  }
  return gl_dispatch_timer_collect(&self->timer);
}

/* ---- asynchronous runs (gl_event.h) ---- */

/* The dispatches after the waits (on the GPU: glWaitSync, eglWaitSyncKHR
 * or glWaitSemaphoreEXT), ended by a flushed fence, the run's event. GL
 * orders later commands of the context (buffer copies, reads, the next
 * run) after them by itself. */
static tflaccel_status sequence_submit(void *device, gpu_sequence *sequence, int32_t rebound,
                                       tflaccel_event *const *waits, uint32_t wait_count,
                                       tflaccel_event **done) {
  gl_backend_device *self = self_of(device);
  *done = NULL;
  begin_run(self);
  tflaccel_status status = rebound ? check_bindings(self, sequence) : NULL;
  for (uint32_t w = 0; status == NULL && w < wait_count; ++w)
    status = gl_event_wait_on_device(self->host, gl_event_of(waits[w]));
  for (uint32_t i = 0; status == NULL && i < sequence->count; ++i)
    status = dispatch(self, &sequence->steps[i]);
  if (status == NULL) status = end_dispatches(self);
  gl_event *event = NULL;
  if (status == NULL) status = gl_event_create(self->host, self->display, &event);
  *done = gl_event_handle(event);
  return status;
}

static tflaccel_status event_wait(void *device, tflaccel_event *event) {
  return gl_event_wait(self_of(device)->host, gl_event_of(event));
}

static tflaccel_status event_query(void *device, tflaccel_event *event, int32_t *signalled) {
  return gl_event_query(self_of(device)->host, gl_event_of(event), signalled);
}

static void event_destroy(void *device, tflaccel_event *event) {
  gl_event_destroy(self_of(device)->host, gl_event_of(event));
}

static tflaccel_status event_native(void *device, tflaccel_event *event, int32_t type,
                                    tflaccel_native_event *native) {
  return gl_event_native(self_of(device)->host, gl_event_of(event), type, native);
}

static tflaccel_status event_wrap(void *device, const tflaccel_native_event *native,
                                  tflaccel_event **event) {
  gl_backend_device *self = self_of(device);
  gl_event *wrapped = NULL;
  tflaccel_status status = gl_event_import(self->host, self->display, native, &wrapped);
  *event = gl_event_handle(wrapped);
  return status;
}

/* No times for a run with a disjoint event (gl_timer.h): gpu_profile
 * takes a count short of the run's dispatches as an error, so that run
 * fails rather than report meaningless times. */
static tflaccel_status profile_read(void *device, double *microseconds, uint32_t capacity,
                                    uint32_t *count) {
  gl_dispatch_timer_read(&self_of(device)->timer, microseconds, capacity, count);
  return NULL;
}

/* The partition's entry in the compiled-model cache (gl_program.h). */
static void cache_begin(void *device, gpu_disk_cache_key_builder *key, int32_t storage,
                        const tflaccel_compile_options *options) {
  (void)storage; /* in each program's record */
  gl_program_partition_begin(&self_of(device)->programs, key, options);
}

static void cache_end(void *device, int32_t compiled) {
  gl_program_partition_end(&self_of(device)->programs, compiled);
}

static const gpu_backend_ops gl_backend_ops = {
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_upload = buffer_upload,
    .kernel_create = kernel_create,
    .kernel_destroy = kernel_destroy,
    .kernel_set_buffer = kernel_set_buffer,
    .kernel_set_int = kernel_set_int,
    .sequence_create = sequence_create,
    .sequence_destroy = sequence_destroy,
    .sequence_run = sequence_run,
    .profile_read = profile_read,
    .cache_begin = cache_begin,
    .cache_end = cache_end,
    .sequence_submit = sequence_submit,
    .event_wait = event_wait,
    .event_query = event_query,
    .event_destroy = event_destroy,
    .event_native = event_native,
    .event_wrap = event_wrap,
};

tflaccel_status gl_backend_init(const tflaccel_host_services *host, int32_t profiling,
                                gl_backend_device *device, gpu_backend *backend) {
  memset(device, 0, sizeof *device);
  memset(backend, 0, sizeof *backend);
  device->host = host;
  gl_clear_errors();
  GLint blocks = 0, bindings = 0;
  glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &device->max_invocations);
  for (GLuint i = 0; i < 3; ++i) {
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &device->max_group_size[i]);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &device->max_group_count[i]);
  }
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &device->max_block_size);
  tflaccel_status status = gl_check_error(host, "querying the compute limits");
  if (status != NULL) return status;
  if (blocks < GL_BACKEND_BINDINGS || bindings < GL_BACKEND_BINDINGS)
    return host->status_make(TFLACCEL_UNSUPPORTED,
                             "gpu_gl: the context binds %d storage buffers to a compute shader "
                             "(%d binding points), the kernels need %d",
                             (int)blocks, (int)bindings, GL_BACKEND_BINDINGS);
  if (device->max_invocations < 1) device->max_invocations = 1;
  for (int i = 0; i < 3; ++i) {
    if (device->max_group_size[i] < 1) device->max_group_size[i] = 1;
    if (device->max_group_count[i] < 1) device->max_group_count[i] = 1;
  }
  status = gl_program_set_init(host, &device->programs);
  if (status == NULL && profiling) status = gl_dispatch_timer_init(host, &device->timer);
  if (status != NULL) return status;
  device->profiling = profiling != 0;
  device->run_serial = 1;
  backend->host = host;
  backend->plugin_name = "gpu_gl";
  backend->device = device;
  backend->ops = &gl_backend_ops;
  /* GLES has no portable switch for half arithmetic: half storage only. */
  backend->caps.has_half_math = 0;
  backend->caps.features = GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_DEPTHWISE_POINTWISE |
                           GPU_FEATURE_LSTM_GATES | GPU_FEATURE_ORDERED_EXPAND |
                           GPU_FEATURE_MEDIAPIPE_TRANSFORMS | GPU_FEATURE_SVDF |
                           GPU_FEATURE_GATHER_ND | GPU_FEATURE_INPUT_WORDS;
  /* glMemoryBarrier costs ~7.5 us on NVIDIA's GLES driver (bench/RESULTS.md). */
  backend->caps.prefers_fewer_dispatches = 1;
  backend->caps.max_group_items =
      (uint32_t)(device->max_invocations < device->max_group_size[0] ? device->max_invocations
                                                                     : device->max_group_size[0]);
  backend->caps.binding_alignment = 16; /* whole vectors (kernels/glsl/common.glsl) */
  /* Tensors start on 16 bytes: a slice, and an even number of halves. */
  backend->caps.buffer_alignment = 16;
  backend->caps.profiling = device->profiling;
  return NULL;
}

void gl_backend_release(gl_backend_device *device) {
  glUseProgram(0);
  gl_dispatch_timer_release(&device->timer);
  gl_program_set_release(&device->programs);
}
