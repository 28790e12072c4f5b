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
#include "plugins/gpu_gl/gl_worker.h"

/* Kernel argument slots (gpu_backend.h): 0 the parameters, 1 their offset,
 * 2.. the tensors; storage buffer binding 0 is the parameters, 1.. the
 * tensors. */
#define SLOT_BASE 1
/* The location of the kernels' parameter offset uniform (prelude_gles.glsl). */
#define BASE_UNIFORM_LOCATION 0
/* glClientWaitSync waits this long at a time (nanoseconds). */
#define FENCE_WAIT_NS 1000000000ull

/* Binding 1 holds the output (kernels/glsl/common.glsl's t0). */
#define BINDING_OUTPUT 1

struct gpu_kernel_object {
  int32_t kernel, storage;
  GLuint buffers[GL_BACKEND_BINDINGS];
  /* What each binding holds, and the bytes the kernel touches there
   * (kernel_set_range; all of it by default), for placing barriers. */
  const tflaccel_buffer *handles[GL_BACKEND_BINDINGS];
  /* What the bindings the kernel writes hold (BINDING_OUTPUT, and the
   * last for the kernels with a second output), else NULL. */
  tflaccel_buffer *written[GL_BACKEND_BINDINGS];
  uint64_t range_begin[GL_BACKEND_BINDINGS], range_end[GL_BACKEND_BINDINGS];
  int32_t base;
  uint32_t local[3]; /* work group of the cached program */
  GLuint program;
};

static gl_backend_device *self_of(void *device) { return device; }

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  return gl_buffer_create(self_of(device)->host, size, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  gl_buffer_destroy(self_of(device)->host, buffer);
}

static tflaccel_status buffer_upload(void *device, tflaccel_buffer *buffer, const void *data,
                                     uint64_t size) {
  return gl_buffer_write(self_of(device)->host, buffer, 0, data, size);
}

static tflaccel_status kernel_create(void *device, int32_t storage, int32_t kernel,
                                     gpu_kernel_object **object) {
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
  object->handles[binding] = buffer;
  object->range_begin[binding] = 0;
  object->range_end[binding] = UINT64_MAX;
  object->written[binding] = NULL;
  if (gpu_kernel_writes_glsl_binding(object->kernel, binding)) {
    gl_buffer_mark_output(buffer);
    object->written[binding] = buffer;
  }
  return NULL;
}

/* Records the tensor's bytes for the barrier planning; the binding stays
 * the whole buffer (the kernel finds the tensor by its offset parameter),
 * so *narrowed stays 0. */
static tflaccel_status kernel_set_range(void *device, gpu_kernel_object *object, uint32_t slot,
                                        uint64_t offset, uint64_t size, int32_t *narrowed) {
  *narrowed = 0;
  if (slot == SLOT_BASE || slot > GPU_MAX_ARGS + 1 || size == 0 || offset + size < offset)
    return self_of(device)->host->status_make(TFLACCEL_INTERNAL,
                                              "gpu_gl: range for argument slot %u",
                                              (unsigned)slot);
  uint32_t binding = slot == 0 ? 0 : slot - 1;
  object->range_begin[binding] = offset;
  object->range_end[binding] = offset + size;
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

/* Fits the preferred work group to the context's limits and makes sure of
 * the program for that work-group size (programs are built per size).
 * Queues no GL work. */
static tflaccel_status get_program(gl_backend_device *self, gpu_kernel_object *object,
                                   const uint32_t local[3], uint32_t group[3]) {
  const uint64_t max_size[3] = {(uint64_t)self->max_group_size[0],
                                (uint64_t)self->max_group_size[1],
                                (uint64_t)self->max_group_size[2]};
  gpu_fit_work_group(local, max_size, (uint64_t)self->max_invocations, group);
  if (object->program == 0 || memcmp(object->local, group, 3 * sizeof *group) != 0) {
    tflaccel_status status =
        gl_program_get(&self->programs, object->kernel, object->storage, group, &object->program);
    if (status != NULL) return status;
    memcpy(object->local, group, 3 * sizeof *group);
  }
  return NULL;
}

/* Builds the program at compile time, so that the first run does not
 * (compiling and linking a kernel takes the NVIDIA driver up to ~0.3 s). */
static tflaccel_status kernel_prepare(void *device, gpu_kernel_object *object,
                                      const uint32_t local[3]) {
  uint32_t group[3];
  return get_program(self_of(device), object, local, group);
}

/* The program for the fitted work group (get_program) and the work-group
 * counts; checks the bindings. */
static tflaccel_status prepare_dispatch(gl_backend_device *self, gpu_kernel_object *object,
                                        const uint32_t global[3], const uint32_t local[3],
                                        uint32_t groups[3]) {
  const tflaccel_host_services *host = self->host;
  uint32_t group[3];
  tflaccel_status status = get_program(self, object, local, group);
  if (status != NULL) return status;
  for (int i = 0; i < 3; ++i) {
    groups[i] = (global[i] + group[i] - 1) / group[i];
    if (groups[i] == 0) groups[i] = 1;
    if (groups[i] > (uint32_t)self->max_group_count[i])
      return host->status_make(TFLACCEL_UNSUPPORTED,
                               "gpu_gl: %s needs %u work groups along dimension %d, the context "
                               "allows %d",
                               gpu_kernel_name(object->kernel), groups[i], i,
                               (int)self->max_group_count[i]);
  }
  for (int i = 0; i < GL_BACKEND_BINDINGS; ++i)
    if (object->buffers[i] == 0)
      return host->status_make(TFLACCEL_INTERNAL, "gpu_gl: %s dispatched with binding %d unset",
                               gpu_kernel_name(object->kernel), i);
  return NULL;
}

static tflaccel_status dispatch(void *device, gpu_kernel_object *object, const uint32_t global[3],
                                const uint32_t local[3]) {
  gl_backend_device *self = self_of(device);
  uint32_t groups[3];
  tflaccel_status status = prepare_dispatch(self, object, global, local, groups);
  /* Last, so that nothing fails once a query is begun. The barrier below
   * comes after it: a dispatch's time includes the barrier before it. */
  if (status == NULL && self->profiling) status = gl_dispatch_timer_before(&self->timer);
  if (status != NULL) {
    /* The GPU layer abandons the run here: its earlier dispatches' times
     * must not count with the next run's. */
    if (self->profiling) gl_dispatch_timer_drop_run(&self->timer);
    return status;
  }
  /* Earlier dispatches' writes become visible to this one's reads, and its
   * writes wait for their reads: a barrier where it depends on a dispatch
   * since the last one, or where the tracker is full. */
  gpu_hazard_access accesses[GL_BACKEND_BINDINGS];
  for (int b = 0; b < GL_BACKEND_BINDINGS; ++b) {
    const tflaccel_buffer *buffer = object->handles[b];
    int writes = object->written[b] != NULL;
    accesses[b] = (gpu_hazard_access){
        .buffer = writes || gl_buffer_is_output(buffer) ? buffer : NULL,
        .begin = object->range_begin[b],
        .end = object->range_end[b],
        .writes = writes,
    };
  }
  if (!self->dispatched) gpu_hazard_reset(&self->hazards);
  if (gpu_hazard_conflicts(&self->hazards, accesses, GL_BACKEND_BINDINGS) ||
      !gpu_hazard_add(&self->hazards, accesses, GL_BACKEND_BINDINGS)) {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    gpu_hazard_reset(&self->hazards);
    gpu_hazard_add(&self->hazards, accesses, GL_BACKEND_BINDINGS);
    self->run_barriers++;
  }
  self->run_dispatches++;
  for (int b = BINDING_OUTPUT; b < GL_BACKEND_BINDINGS; ++b) {
    if (object->written[b] == NULL) continue;
    gl_buffer_note_kernel_write(object->written[b]);
    self->staged = gl_buffer_list_staged(object->written[b], self->run_serial, self->staged);
  }
  if (self->bound_program != object->program) glUseProgram(object->program);
  self->bound_program = object->program;
  glUniform1i(BASE_UNIFORM_LOCATION, object->base);
  for (GLuint i = 0; i < GL_BACKEND_BINDINGS; ++i) {
    if (self->bound_buffers[i] != object->buffers[i])
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, object->buffers[i]);
    self->bound_buffers[i] = object->buffers[i];
  }
  glDispatchCompute(groups[0], groups[1], groups[2]);
  if (self->profiling) gl_dispatch_timer_after(&self->timer);
  self->dispatched = 1;
  return NULL;
}

#define FENCE_SPIN_NS 5000000

/* Makes the dispatches' writes visible to buffer reads and later
 * dispatches, then waits on a fence. GL errors of the run show here. */
static tflaccel_status wait_for_dispatches(gl_backend_device *self) {
  const tflaccel_host_services *host = self->host;
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  self->dispatched = 0;
  /* Once per model, not per run: the count changes only with the model. */
  if (self->run_barriers + 1 != self->logged_barriers) {
    host->log(host->context, TFLACCEL_LOG_DEBUG, "%u dispatches with %u barriers between them",
              self->run_dispatches, self->run_barriers);
    self->logged_barriers = self->run_barriers + 1;
  }
  self->run_dispatches = self->run_barriers = 0;
  tflaccel_status status = gl_check_error(host, "dispatching the kernels");
  /* The core's buffers that the run wrote go to their read-back buffers
   * before the fence, so that reading them waits on nothing more. */
  for (tflaccel_buffer *buffer = self->staged; buffer != NULL && status == NULL;
       buffer = gl_buffer_next_staged(buffer))
    status = gl_buffer_stage_read(host, buffer);
  self->staged = NULL;
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

static tflaccel_status finish(void *device) {
  gl_backend_device *self = self_of(device);
  tflaccel_status status = wait_for_dispatches(self);
  if (!self->profiling) return status;
  /* A failed run leaves no times (profile_read gives none). */
  if (status != NULL) {
    gl_dispatch_timer_drop_run(&self->timer);
    return status;
  }
  return gl_dispatch_timer_collect(&self->timer);
}

/* No times for a run with a disjoint event (gl_timer.h): gpu_profile
 * takes a count short of the run's dispatches as an error, so that run
 * fails rather than report meaningless times. */
static tflaccel_status profile_read(void *device, double *microseconds, uint32_t capacity,
                                    uint32_t *count) {
  gl_dispatch_timer_read(&self_of(device)->timer, microseconds, capacity, count);
  return NULL;
}

static const gpu_backend_ops gl_backend_ops = {
    .buffer_create = buffer_create,
    .buffer_destroy = buffer_destroy,
    .buffer_upload = buffer_upload,
    .kernel_create = kernel_create,
    .kernel_destroy = kernel_destroy,
    .kernel_set_buffer = kernel_set_buffer,
    .kernel_set_int = kernel_set_int,
    .kernel_set_range = kernel_set_range,
    .kernel_prepare = kernel_prepare,
    .dispatch = dispatch,
    .finish = finish,
    .profile_read = profile_read,
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
  backend->caps.features =
      GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_DEPTHWISE_POINTWISE | GPU_FEATURE_LSTM_GATES |
      GPU_FEATURE_ORDERED_EXPAND;
  /* glMemoryBarrier costs ~7.5 us on NVIDIA's GLES driver (bench/RESULTS.md). */
  backend->caps.prefers_fewer_dispatches = 1;
  backend->caps.max_group_items = (uint32_t)(device->max_invocations < device->max_group_size[0]
                                            ? device->max_invocations
                                            : device->max_group_size[0]);
  backend->caps.binding_alignment = 16; /* whole vectors (kernels/glsl/common.glsl) */
  /* Tensors start on 16 bytes: a slice, and an even number of halves. */
  backend->caps.buffer_alignment = 16;
  backend->caps.profiling = device->profiling;
  return NULL;
}

void gl_backend_begin_run(gl_backend_device *device) {
  if (device->profiling) gl_dispatch_timer_drop_run(&device->timer);
  device->bound_program = 0;
  memset(device->bound_buffers, 0, sizeof device->bound_buffers);
  device->run_dispatches = device->run_barriers = 0;
  /* A run that failed before its fence leaves a list: its buffers stay
   * marked for that run's number only. */
  device->staged = NULL;
  if (++device->run_serial == 0) device->run_serial = 1;
}

void gl_backend_release(gl_backend_device *device) {
  glUseProgram(0);
  gl_dispatch_timer_release(&device->timer);
  gl_program_set_release(&device->programs);
}
