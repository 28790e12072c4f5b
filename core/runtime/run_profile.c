/* Per-partition timing of runs: the compiled model's run loop stores each
 * partition's wall time while profiling is on; these functions switch it
 * and read it back, and read the kernel times an accelerator keeps
 * (tflaccel_device_vtable.executable_profile). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/runtime/compiled_model.h"
#include "core/runtime/run_profile.h"

double run_profile_now_us(void) {
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0.0;
  return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

tflaccel_status tflaccel_compiled_model_set_profiling(tflaccel_compiled_model *compiled,
                                                      int32_t enabled) {
  if (compiled == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "set_profiling: NULL compiled model");
  free(compiled->partition_run_us);
  compiled->partition_run_us = NULL;
  compiled->profiled_run_done = 0;
  if (!enabled) return NULL;
  compiled->partition_run_us =
      calloc(compiled->plan->partition_count + 1, sizeof *compiled->partition_run_us);
  if (compiled->partition_run_us == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "set_profiling: out of memory");
  return NULL;
}

tflaccel_status tflaccel_compiled_model_partition_run_us(const tflaccel_compiled_model *compiled,
                                                         uint32_t index, double *microseconds) {
  if (compiled == NULL || microseconds == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition_run_us: NULL argument");
  if (index >= compiled->plan->partition_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition %u out of range (%u partitions)", index,
                                compiled->plan->partition_count);
  if (compiled->partition_run_us == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "partition_run_us: profiling is off");
  if (!compiled->profiled_run_done)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition_run_us: no profiled run has completed");
  *microseconds = compiled->partition_run_us[index];
  return NULL;
}

/* What executable_profile's callback fills: the launches, grown as they
 * come; out_of_memory stops taking more. */
typedef struct kernel_reading {
  tflaccel_kernel_profile *times;
  uint32_t count, capacity;
  int out_of_memory;
} kernel_reading;

static void take_kernel_time(void *context, const tflaccel_kernel_time *time) {
  kernel_reading *reading = context;
  if (reading->out_of_memory || time == NULL ||
      !TFLACCEL_HAS_FIELD(tflaccel_kernel_time, time, total_ns))
    return;
  if (reading->count == reading->capacity) {
    uint32_t capacity = reading->capacity ? reading->capacity * 2 : 16;
    tflaccel_kernel_profile *grown = realloc(reading->times, capacity * sizeof *grown);
    if (grown == NULL) {
      reading->out_of_memory = 1;
      return;
    }
    reading->times = grown;
    reading->capacity = capacity;
  }
  reading->times[reading->count++] = (tflaccel_kernel_profile){
      .struct_size = sizeof(tflaccel_kernel_profile),
      .kernel = time->kernel != NULL ? time->kernel : "",
      .first_op = time->first_op,
      .op_count = time->op_count,
      .runs = time->runs,
      .total_ns = time->total_ns,
  };
}

tflaccel_status tflaccel_compiled_model_read_kernel_profile(tflaccel_compiled_model *compiled,
                                                            uint32_t index, uint32_t *count) {
  if (compiled == NULL || count == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "read_kernel_profile: NULL argument");
  *count = 0;
  if (index >= compiled->plan->partition_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition %u out of range (%u partitions)", index,
                                compiled->plan->partition_count);
  partition_runtime *runtime = &compiled->runtimes[index];
  free(runtime->kernel_times);
  runtime->kernel_times = NULL;
  runtime->kernel_count = 0;
  const tflaccel_device_vtable *vtable = runtime->device->vtable;
  if (!TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, executable_profile) ||
      vtable->executable_profile == NULL)
    return NULL; /* the plugin keeps no kernel times */
  kernel_reading reading = {0};
  registry_device_lock(runtime->plugin);
  tflaccel_status status =
      vtable->executable_profile(runtime->device, runtime->executable, take_kernel_time, &reading);
  registry_device_unlock(runtime->plugin);
  if (status == NULL && reading.out_of_memory)
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "read_kernel_profile: out of memory");
  if (status != NULL) {
    free(reading.times);
    return tflaccel_status_annotate(status, "%s: kernel profile of partition %u",
                                    runtime->plugin->config->name, index);
  }
  runtime->kernel_times = reading.times;
  runtime->kernel_count = reading.count;
  *count = reading.count;
  return NULL;
}

tflaccel_status tflaccel_compiled_model_kernel_profile(const tflaccel_compiled_model *compiled,
                                                       uint32_t index, uint32_t kernel,
                                                       tflaccel_kernel_profile *info) {
  if (compiled == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "kernel_profile: NULL argument");
  if (info->struct_size < sizeof(uint32_t))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "kernel_profile: struct_size unset");
  if (index >= compiled->plan->partition_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "partition %u out of range (%u partitions)", index,
                                compiled->plan->partition_count);
  const partition_runtime *runtime = &compiled->runtimes[index];
  if (kernel >= runtime->kernel_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "kernel %u of partition %u out of range (%u read)", kernel, index,
                                runtime->kernel_count);
  /* A caller built against an older, smaller struct gets its fields. */
  uint32_t size = info->struct_size < sizeof *info ? info->struct_size : (uint32_t)sizeof *info;
  memcpy((char *)info + sizeof(uint32_t),
         (const char *)&runtime->kernel_times[kernel] + sizeof(uint32_t), size - sizeof(uint32_t));
  return NULL;
}
