/* The OpenCL backend of the GPU layer (cl_backend.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_cl/cl_backend.h"
#include "plugins/gpu_cl/cl_external_memory.h"
#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_cl/cl_event.h"
#include "plugins/gpu_cl/cl_kernel_sources.h"
#include "plugins/gpu_cl/cl_program_cache.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_profile.h"
#include "plugins/gpu_common/gpu_work_group.h"

struct gpu_kernel_object {
  cl_kernel kernel;
  size_t max_group_size; /* CL_KERNEL_WORK_GROUP_SIZE, within the device's */
};

static cl_backend_device *self_of(void *device) { return device; }

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  cl_backend_device *self = self_of(device);
  return cl_buffer_create(self->host, self->context, size, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  cl_buffer_destroy(self_of(device)->host, buffer);
}

static tflaccel_status buffer_upload(void *device, tflaccel_buffer *buffer, const void *data,
                                     uint64_t size) {
  cl_backend_device *self = self_of(device);
  return cl_buffer_write(self->host, self->context, buffer, 0, data, size);
}

/* The entry point of the program that computes the dispatch: the
 * catalogue's name, or gpu_conv2d_words for a conv2d reading 8-bit words
 * (GPU_IN_WORDS; all kernels share one program per storage mode, so the
 * choice is an entry point of its own, not a branch every conv2d pays). */
static const char *entry_point(int32_t kernel, const int32_t *params) {
  if (kernel == GPU_KERNEL_CONV2D && (params[GPU_P_OUT_DENSE] & GPU_IN_WORDS))
    return "gpu_conv2d_words";
  return gpu_kernel_name(kernel);
}

static tflaccel_status kernel_create(void *device, int32_t storage, int32_t kernel,
                                     const int32_t *params, gpu_kernel_object **object) {
  cl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *object = NULL;
  const char *name = entry_point(kernel, params);
  cl_program program = NULL;
  tflaccel_status status = cl_program_get(host, self->context, &self->programs, storage, &program);
  if (status != NULL) return status;
  gpu_kernel_object *created =
      host->alloc(host->context, sizeof *created, _Alignof(gpu_kernel_object));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory (kernel)");
  cl_int error = cl_fault(self->context->fault, "clCreateKernel", GPU_FAULT_MEMORY);
  created->kernel =
      error != CL_SUCCESS ? NULL : clCreateKernel(program, name, &error);
  if (created->kernel == NULL || error != CL_SUCCESS) {
    host->free(host->context, created);
    char call[96];
    snprintf(call, sizeof call, "clCreateKernel(%s)", name);
    return cl_call_failed(host, call, error != CL_SUCCESS ? error : CL_INVALID_KERNEL_NAME);
  }
  size_t group = 0;
  error = clGetKernelWorkGroupInfo(created->kernel, self->context->device,
                                   CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL);
  if (error != CL_SUCCESS || group == 0) group = 1;
  created->max_group_size = group < self->max_group_size ? group : self->max_group_size;
  *object = created;
  return NULL;
}

static void kernel_destroy(void *device, gpu_kernel_object *object) {
  cl_backend_device *self = self_of(device);
  if (object == NULL) return;
  cl_int error = clReleaseKernel(object->kernel);
  if (error != CL_SUCCESS)
    self->host->log(self->host->context, TFLACCEL_LOG_WARNING, "clReleaseKernel failed: %s (%d)",
                    cl_error_name(error), (int)error);
  self->host->free(self->host->context, object);
}

static tflaccel_status kernel_set_buffer(void *device, gpu_kernel_object *object, uint32_t slot,
                                         tflaccel_buffer *buffer) {
  cl_mem memory = cl_buffer_memory(buffer);
  cl_int error = clSetKernelArg(object->kernel, slot, sizeof memory, &memory);
  return error == CL_SUCCESS ? NULL
                             : cl_call_failed(self_of(device)->host, "clSetKernelArg", error);
}

static tflaccel_status kernel_set_int(void *device, gpu_kernel_object *object, uint32_t slot,
                                      int32_t value) {
  cl_int argument = value;
  cl_int error = clSetKernelArg(object->kernel, slot, sizeof argument, &argument);
  return error == CL_SUCCESS ? NULL
                             : cl_call_failed(self_of(device)->host, "clSetKernelArg", error);
}

/* Releases the events of dispatches not read yet (a run that failed). */
static void release_events(cl_backend_device *self) {
  for (uint32_t i = 0; i < self->event_count; ++i) {
    cl_int error = clReleaseEvent(self->events[i]);
    if (error != CL_SUCCESS)
      self->host->log(self->host->context, TFLACCEL_LOG_WARNING, "clReleaseEvent failed: %s (%d)",
                      cl_error_name(error), (int)error);
  }
  self->event_count = 0;
}

/* Room for one more event (and its time). */
static tflaccel_status reserve_event(cl_backend_device *self) {
  const tflaccel_host_services *host = self->host;
  if (self->event_count < self->capacity) return NULL;
  uint32_t capacity = self->capacity ? self->capacity * 2 : 64;
  cl_event *events = host->alloc(host->context, capacity * sizeof *events, _Alignof(cl_event));
  double *times = host->alloc(host->context, capacity * sizeof *times, _Alignof(double));
  if (events == NULL || times == NULL) {
    if (events != NULL) host->free(host->context, events);
    if (times != NULL) host->free(host->context, times);
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory (profile events)");
  }
  if (self->events != NULL) {
    memcpy(events, self->events, self->event_count * sizeof *events);
    host->free(host->context, self->events);
  }
  if (self->times_us != NULL) {
    memcpy(times, self->times_us, self->time_count * sizeof *times);
    host->free(host->context, self->times_us);
  }
  self->events = events;
  self->times_us = times;
  self->capacity = capacity;
  return NULL;
}

/* One dispatch, its sizes fitted once when the sequence is made. */
typedef struct cl_step {
  cl_kernel kernel;
  size_t total[3], group[3];
} cl_step;

struct gpu_sequence {
  /* The partition's cache entry, to write after the first run (1 active). */
  struct {
    int32_t active, storage;
    gpu_disk_cache disk;
    gpu_disk_cache_key key;
  } pending_entry;
  uint32_t count;
  cl_step steps[]; /* count of them */
};

/* Fits the preferred work-group size to the kernel and device limits
 * (gpu_work_group.h), then rounds the global size up. The in-order queue
 * orders the dispatches: the barrier plan is not needed. */
static tflaccel_status sequence_create(void *device, const gpu_step *steps, uint32_t count,
                                       gpu_sequence **sequence) {
  cl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *sequence = NULL;
  gpu_sequence *created =
      host->alloc(host->context, sizeof *created + (size_t)count * sizeof *created->steps,
                  _Alignof(gpu_sequence));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory (sequence)");
  const uint64_t max_size[3] = {self->max_item_sizes[0], self->max_item_sizes[1],
                                self->max_item_sizes[2]};
  for (uint32_t i = 0; i < count; ++i) {
    const gpu_step *step = &steps[i];
    uint32_t group[3];
    gpu_fit_work_group(step->local, max_size, step->kernel->max_group_size, group);
    cl_step *fitted = &created->steps[i];
    fitted->kernel = step->kernel->kernel;
    for (int d = 0; d < 3; ++d) {
      fitted->group[d] = group[d];
      fitted->total[d] = ((size_t)step->global[d] + group[d] - 1) / group[d] * group[d];
    }
  }
  memset(&created->pending_entry, 0, sizeof created->pending_entry);
  created->count = count;
  if (self->entry.active) self->entry.sequence = created;
  *sequence = created;
  return NULL;
}

static void sequence_destroy(void *device, gpu_sequence *sequence) {
  const tflaccel_host_services *host = self_of(device)->host;
  if (sequence != NULL) host->free(host->context, sequence);
}

static tflaccel_status enqueue(cl_backend_device *self, const cl_step *step) {
  cl_event *event = NULL;
  if (self->profiling) {
    tflaccel_status status = reserve_event(self);
    if (status != NULL) return status;
    event = &self->events[self->event_count];
  }
  cl_int error = cl_fault(self->context->fault, "clEnqueueNDRangeKernel", GPU_FAULT_LOST);
  if (error == CL_SUCCESS)
    error = clEnqueueNDRangeKernel(self->context->queue, step->kernel, 3, NULL, step->total,
                                   step->group, 0, NULL, event);
  if (error != CL_SUCCESS) return cl_call_failed(self->host, "clEnqueueNDRangeKernel", error);
  if (event != NULL) self->event_count++;
  return NULL;
}

/* A finished dispatch's time from its event, in microseconds. */
static tflaccel_status event_time(cl_backend_device *self, cl_event event, double *microseconds) {
  cl_ulong start = 0, end = 0;
  cl_int error =
      clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(self->host, "clGetEventProfilingInfo(CL_PROFILING_COMMAND_START)", error);
  error = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(self->host, "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)", error);
  *microseconds = end > start ? (double)(end - start) / 1000.0 : 0.0;
  return NULL;
}

/* Waits for the queue, then reads the dispatches' times. */
static tflaccel_status finish(cl_backend_device *self) {
  cl_int error = cl_fault(self->context->fault, "clFinish", GPU_FAULT_LOST);
  if (error == CL_SUCCESS) error = clFinish(self->context->queue);
  tflaccel_status status =
      error == CL_SUCCESS ? NULL : cl_call_failed(self->host, "clFinish", error);
  self->time_count = 0;
  for (uint32_t i = 0; status == NULL && i < self->event_count; ++i)
    status = event_time(self, self->events[i], &self->times_us[i]);
  if (status == NULL) self->time_count = self->event_count;
  release_events(self);
  return status;
}

/* The kernels' buffers live in their arguments, set before this run:
 * nothing to record again when rebound. */
static tflaccel_status sequence_run(void *device, gpu_sequence *sequence, int32_t rebound) {
  cl_backend_device *self = self_of(device);
  (void)rebound;
  self->time_count = 0;
  cl_int acquired = cl_external_memory_acquire(self->external, self->context->queue);
  if (acquired != CL_SUCCESS)
    return cl_call_failed(self->host, "clEnqueueAcquireExternalMemObjectsKHR", acquired);
  tflaccel_status status = NULL;
  for (uint32_t i = 0; i < sequence->count && status == NULL; ++i)
    status = enqueue(self, &sequence->steps[i]);
  cl_int released = cl_external_memory_release(self->external, self->context->queue, NULL);
  if (status == NULL && released != CL_SUCCESS)
    status = cl_call_failed(self->host, "clEnqueueReleaseExternalMemObjectsKHR", released);
  if (status != NULL) {
    /* The run ends here; what it queued finishes before the next. */
    release_events(self);
    cl_int error = clFinish(self->context->queue);
    if (error != CL_SUCCESS)
      self->host->log(self->host->context, TFLACCEL_LOG_WARNING, "clFinish failed: %s (%d)",
                      cl_error_name(error), (int)error);
    return status;
  }
  status = finish(self);
  if (status == NULL && sequence->pending_entry.active) {
    cl_program program = self->programs.programs[sequence->pending_entry.storage];
    if (program != NULL)
      cl_program_cache_store(&sequence->pending_entry.disk, &sequence->pending_entry.key, program);
    sequence->pending_entry.active = 0;
  }
  return status;
}

/* ---- asynchronous runs (cl_event.h) ---- */

/* Queues the dispatches, the first after waits, and flushes; done is the
 * last dispatch's event (the in-order queue ends everything before it
 * first, and orders every later command after it). A sequence of no
 * dispatch gets a marker. The first run writes the partition's cache
 * entry after it finished, as sequence_run does. */
static tflaccel_status sequence_submit(void *device, gpu_sequence *sequence, int32_t rebound,
                                       tflaccel_event *const *waits, uint32_t wait_count,
                                       tflaccel_event **done) {
  cl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  (void)rebound;
  *done = NULL;
  cl_event wait_list[16];
  if (wait_count > sizeof wait_list / sizeof *wait_list)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "gpu_cl: a run waits on %u events (at most %u)",
                             wait_count, (unsigned)(sizeof wait_list / sizeof *wait_list));
  for (uint32_t w = 0; w < wait_count; ++w) wait_list[w] = cl_event_of(waits[w]);
  cl_event last = NULL;
  const char *call = "clEnqueueAcquireExternalMemObjectsKHR";
  cl_int error = cl_external_memory_acquire(self->external, self->context->queue);
  /* With imported memory, the run ends with its release (its event). */
  int releases = cl_external_memory_in_use(self->external);
  if (error == CL_SUCCESS) call = "clEnqueueNDRangeKernel";
  for (uint32_t i = 0; i < sequence->count && error == CL_SUCCESS; ++i) {
    const cl_step *step = &sequence->steps[i];
    error = cl_fault(self->context->fault, call, GPU_FAULT_LOST);
    if (error == CL_SUCCESS)
      error = clEnqueueNDRangeKernel(self->context->queue, step->kernel, 3, NULL, step->total,
                                     step->group, i == 0 ? wait_count : 0,
                                     i == 0 && wait_count ? wait_list : NULL,
                                     i + 1 == sequence->count && !releases ? &last : NULL);
  }
  if (error == CL_SUCCESS && releases) {
    call = "clEnqueueReleaseExternalMemObjectsKHR";
    error = cl_external_memory_release(self->external, self->context->queue, &last);
  }
  if (error == CL_SUCCESS && sequence->count == 0 && last == NULL) {
    call = "clEnqueueMarkerWithWaitList";
    error = clEnqueueMarkerWithWaitList(self->context->queue, wait_count,
                                        wait_count ? wait_list : NULL, &last);
  }
  if (error == CL_SUCCESS) {
    call = "clFlush";
    error = cl_fault(self->context->fault, call, GPU_FAULT_LOST);
    if (error == CL_SUCCESS) error = clFlush(self->context->queue);
  }
  if (error != CL_SUCCESS) {
    tflaccel_status status = cl_call_failed(host, call, error);
    /* What it queued finishes before the next run. */
    if (last != NULL) cl_event_release(host, cl_event_wrap_handle(last));
    cl_int finished = clFinish(self->context->queue);
    if (finished != CL_SUCCESS)
      host->log(host->context, TFLACCEL_LOG_WARNING, "clFinish failed: %s (%d)",
                cl_error_name(finished), (int)finished);
    return status;
  }
  *done = cl_event_wrap_handle(last);
  if (sequence->pending_entry.active) {
    tflaccel_status status = cl_event_wait(host, *done);
    if (status != NULL) return status;
    cl_program program = self->programs.programs[sequence->pending_entry.storage];
    if (program != NULL)
      cl_program_cache_store(&sequence->pending_entry.disk, &sequence->pending_entry.key, program);
    sequence->pending_entry.active = 0;
  }
  return NULL;
}

static tflaccel_status event_wait(void *device, tflaccel_event *event) {
  return cl_event_wait(self_of(device)->host, event);
}

static tflaccel_status event_query(void *device, tflaccel_event *event, int32_t *signalled) {
  return cl_event_query(self_of(device)->host, event, signalled);
}

static void event_destroy(void *device, tflaccel_event *event) {
  cl_event_release(self_of(device)->host, event);
}

static tflaccel_status event_native(void *device, tflaccel_event *event, int32_t type,
                                    tflaccel_native_event *native) {
  return cl_event_native(self_of(device)->host, event, type, native);
}

static tflaccel_status event_wrap(void *device, const tflaccel_native_event *native,
                                  tflaccel_event **event) {
  cl_backend_device *self = self_of(device);
  return cl_event_import(self->host, self->context, native, event);
}

static tflaccel_status profile_read(void *device, double *microseconds, uint32_t capacity,
                                    uint32_t *count) {
  const cl_backend_device *self = self_of(device);
  gpu_profile_copy_times(self->times_us, self->time_count, microseconds, capacity, count);
  return NULL;
}

/* The partition's entry: its program binary, when the device has not built
 * that storage mode's program yet (a device builds each once). */
static void cache_begin(void *device, gpu_disk_cache_key_builder *builder, int32_t storage,
                        const tflaccel_compile_options *options) {
  cl_backend_device *self = self_of(device);
  if (storage < 0 || storage >= GPU_STORAGE_MODE_COUNT) return;
  const char *build_options = cl_program_build_options(storage);
  cl_program_cache_add_device(self->context, build_options, gpu_cl_kernel_sources,
                              gpu_cl_kernel_sources_count, builder);
  memset(&self->entry, 0, sizeof self->entry);
  self->entry.disk = (gpu_disk_cache){.host = self->host, .prefix = "gpu_cl"};
  gpu_disk_cache_name_model(&self->entry.disk, options);
  gpu_disk_cache_key_end(builder, &self->entry.key);
  self->entry.active = 1;
  self->entry.storage = storage;
  if (self->programs.programs[storage] != NULL) {
    /* Built already in this process: the entry is written if missing. */
    self->entry.loaded = gpu_disk_cache_has(&self->entry.disk, &self->entry.key);
    return;
  }
  cl_program cached =
      cl_program_cache_load(&self->entry.disk, self->context, build_options, &self->entry.key);
  if (cached != NULL) {
    self->programs.programs[storage] = cached;
    self->entry.loaded = 1;
  }
}

/* The entry is written after the partition's first run, not now: PoCL
 * compiles each kernel's work-group function when it is first enqueued,
 * and a program binary taken after that holds them (its binary format
 * carries the program's kernel cache), so the next process skips that
 * compile too. */
static void cache_end(void *device, int32_t compiled) {
  cl_backend_device *self = self_of(device);
  if (!self->entry.active) return;
  cl_program program = self->programs.programs[self->entry.storage];
  if (compiled && !self->entry.loaded && program != NULL) {
    gpu_sequence *sequence = self->entry.sequence;
    if (sequence != NULL) {
      sequence->pending_entry.active = 1;
      sequence->pending_entry.storage = self->entry.storage;
      sequence->pending_entry.disk = self->entry.disk;
      sequence->pending_entry.key = self->entry.key;
    } else {
      cl_program_cache_store(&self->entry.disk, &self->entry.key, program);
    }
  }
  memset(&self->entry, 0, sizeof self->entry);
}

static const gpu_backend_ops cl_backend_ops = {
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

tflaccel_status cl_backend_init(const tflaccel_host_services *host, cl_device_context *context,
                                const tflaccel_device_info *info, int32_t profiling,
                                cl_backend_device *device, gpu_backend *backend) {
  memset(device, 0, sizeof *device);
  memset(backend, 0, sizeof *backend);
  device->host = host;
  device->context = context;
  device->profiling = profiling != 0;
  cl_int error = clGetDeviceInfo(context->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                 sizeof device->max_group_size, &device->max_group_size, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)", error);
  error = clGetDeviceInfo(context->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                          sizeof device->max_item_sizes, device->max_item_sizes, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)", error);
  cl_uint alignment_bits = 0;
  error = clGetDeviceInfo(context->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignment_bits,
                          &alignment_bits, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", error);
  if (device->max_group_size == 0) device->max_group_size = 1;
  for (int i = 0; i < 3; ++i)
    if (device->max_item_sizes[i] == 0) device->max_item_sizes[i] = 1;
  backend->host = host;
  backend->plugin_name = "gpu_cl";
  backend->device = device;
  backend->ops = &cl_backend_ops;
  backend->caps.has_half_math = (info->caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) != 0;
  backend->caps.buffer_alignment = alignment_bits / 8;
  backend->caps.features =
      GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_DEPTHWISE_POINTWISE | GPU_FEATURE_LSTM_GATES |
      GPU_FEATURE_MEDIAPIPE_TRANSFORMS | GPU_FEATURE_SVDF | GPU_FEATURE_GATHER_ND |
      GPU_FEATURE_INPUT_WORDS;
  backend->caps.profiling = device->profiling;
  return NULL;
}

void cl_backend_release(cl_backend_device *device) {
  const tflaccel_host_services *host = device->host;
  release_events(device);
  if (device->events != NULL) host->free(host->context, device->events);
  if (device->times_us != NULL) host->free(host->context, device->times_us);
  device->events = NULL;
  device->times_us = NULL;
  device->capacity = device->time_count = 0;
  cl_program_set_release(host, &device->programs);
}
