/* A model partitioned over accelerators and compiled, ready to run. */
#ifndef TFLACCEL_CORE_RUNTIME_COMPILED_MODEL_H
#define TFLACCEL_CORE_RUNTIME_COMPILED_MODEL_H

#include "core/partition/partitioner.h"
#include "core/registry/registry.h"
#include <pthread.h>

#include "tflaccel/tflaccel.h"

/* One partition as it runs: the plugin's executable and how its boundary
 * tensors reach it. */
typedef struct partition_runtime {
  plugin_entry *plugin;
  tflaccel_device *device;
  tflaccel_executable *executable;
  /* Host-memory devices (cpu_ref) bind the core's arena in place; other
   * devices get one device buffer per boundary tensor, filled before and
   * read after each run. */
  int32_t binds_host_arena;
  tflaccel_buffer *imported_arena;
  tflaccel_buffer **device_buffers; /* per binding, when !binds_host_arena */
  tflaccel_binding *bindings;       /* inputs first, then outputs */
  uint32_t binding_count;
  uint32_t input_binding_count;
  /* Per binding, for devices that do not bind the arena: an input already
   * on this device (bound to the producing partition's buffer, so nothing
   * is uploaded), or an output nobody reads from the host (not read back). */
  uint8_t *stays_on_device;
  /* The latest read of its kernel times (run_profile.c), malloc'ed. */
  tflaccel_kernel_profile *kernel_times;
  uint32_t kernel_count;
  /* The bindings of the current run: `bindings` with the application's
   * device buffers in place of the core's (device_io.c). */
  tflaccel_binding *run_bindings;
} partition_runtime;

struct tflaccel_compiled_model {
  tflaccel_environment *environment;
  const tflaccel_model *model;
  const tflaccel_graph_view *graph;
  const uint32_t *graph_inputs, *graph_outputs;
  uint32_t graph_input_count, graph_output_count;
  partition_plan *plan;
  const char **candidate_names; /* per plan candidate */
  plugin_entry **candidate_plugins;
  uint32_t candidate_count;
  partition_runtime *runtimes;  /* per partition */
  uint8_t *arena;               /* host memory of every boundary tensor */
  uint64_t arena_size;
  uint64_t *tensor_offset;      /* per tensor: offset in the arena, UINT64_MAX if none */
  tflaccel_compile_options compile_options;
  char *model_token; /* compile_options.model_token's bytes (NULL: cache off) */
  /* Per partition, the latest profiled run's wall time (run_profile.c);
   * NULL while profiling is off. */
  double *partition_run_us;
  int32_t profiled_run_done;

  /* Device buffers (device_io.c): per graph input and output, the partition
   * whose device alone reads (writes) it, where the application's buffers
   * of that device are bound in place; -1: host buffers only. */
  int32_t *input_partition, *output_partition;
  /* Per tensor, during a run: the application's device buffer bound in
   * place of the core's (NULL: none). */
  tflaccel_buffer **override_buffer;
  uint64_t *override_offset;
  /* Host copies of the run going on, and of the latest completed one
   * (the latter under stats_lock: the application reads it while a queued
   * run may complete). */
  uint32_t run_host_copies;
  uint64_t run_host_copy_bytes;
  pthread_mutex_t stats_lock;
  tflaccel_run_stats last_stats;
  struct async_queue *async; /* run_async's queue and thread, NULL until first used */
};

/* device_io.c */
tflaccel_status device_io_plan(tflaccel_compiled_model *compiled);
void device_io_release(tflaccel_compiled_model *compiled);
/* Checks a device buffer given for input/output `index` (role "input" or
 * "output") of the run. */
tflaccel_status device_io_check(const tflaccel_compiled_model *compiled, int is_output,
                                uint32_t index, const tflaccel_tensor_buffer *buffer);

/* compiled_model.c: the run itself, on checked arguments (the
 * synchronous run and the queued runs' thread). */
tflaccel_status compiled_model_run_checked(tflaccel_compiled_model *compiled,
                                           tflaccel_tensor_buffer *const *inputs,
                                           tflaccel_tensor_buffer *const *outputs);

/* The most device events one partition waits for on its device; the core
 * waits for more on the CPU. */
#define RUN_MAX_DEVICE_WAITS 16

/* A queued run's events (async_run.c). A partition on a device with
 * events (device_has_events) waits for its buffers' device events and
 * for the earlier partitions of the run on the same device there, and,
 * when none of its outputs is read back to host memory, is only queued. */
typedef struct run_events {
  /* Per graph input, then output: a device event of the device of the
   * partition that alone reads (writes) that device buffer
   * (input_partition, output_partition), to wait for there; or NULL. */
  struct device_event **buffer_waits;
  /* Out, per graph output: a new reference to the device event that ends
   * its write when its partition was only queued; NULL: written already. */
  struct device_event **output_done;
} run_events;

tflaccel_status compiled_model_run_with_events(tflaccel_compiled_model *compiled,
                                               tflaccel_tensor_buffer *const *inputs,
                                               tflaccel_tensor_buffer *const *outputs,
                                               run_events *events);
tflaccel_status compiled_model_check_run(const tflaccel_compiled_model *compiled,
                                         tflaccel_tensor_buffer *const *inputs,
                                         uint32_t input_count,
                                         tflaccel_tensor_buffer *const *outputs,
                                         uint32_t output_count);

/* async_run.c */
/* Waits until every queued run has completed. */
void async_run_drain(tflaccel_compiled_model *compiled);
/* Stops the queue's thread after the queued runs. */
void async_run_release(tflaccel_compiled_model *compiled);

#endif
