/* A model partitioned over accelerators and compiled, ready to run. */
#ifndef TFLACCEL_CORE_RUNTIME_COMPILED_MODEL_H
#define TFLACCEL_CORE_RUNTIME_COMPILED_MODEL_H

#include "core/partition/partitioner.h"
#include "core/registry/registry.h"
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
};

#endif
