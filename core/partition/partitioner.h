/* The partitioner: decides which accelerator runs each op and groups ops
 * into convex partitions. It sees only the graph view and the plugins'
 * per-op answers, so it can be tested without any plugin. */
#ifndef TFLACCEL_CORE_PARTITION_PARTITIONER_H
#define TFLACCEL_CORE_PARTITION_PARTITIONER_H

#include <stdint.h>

#include "core/config/ini_config.h"
#include "tflaccel/accelerator.h"

/* One selected, available accelerator and its answer for every op. */
typedef struct partition_candidate {
  const char *name;
  int32_t is_fallback;        /* cpu_ref: takes what nobody else runs */
  const uint8_t *supported;   /* op_count entries, 1 = can run the op */
  const float *relative_cost; /* op_count entries, 0 = unknown */
  const char *const *reasons; /* op_count entries, why not (when unsupported) */
  /* op_count entries, or NULL (all -1): the precision the op must be
   * compiled at when it is not the requested one, else -1
   * (tflaccel_op_support.precision). */
  const int32_t *precision;
} partition_candidate;

typedef struct partition_options {
  int32_t max_delegated_partitions; /* 0 = no limit */
  int32_t min_partition_ops;        /* >= 1 */
  int32_t require_full_delegation;
  int32_t split_fallback_ops;       /* 1: one partition per fallback op */
  config_cost_model cost;
  int32_t log_level;
} partition_options;

typedef struct partition {
  uint32_t candidate;      /* index into the candidates */
  uint32_t op_count;
  uint32_t *ops;           /* in execution order */
  uint32_t input_count;
  uint32_t *inputs;        /* non-constant tensors it reads but does not produce */
  uint32_t output_count;
  uint32_t *outputs;       /* tensors it produces that others (or the graph) read */
  uint64_t boundary_bytes; /* bytes of inputs and outputs */
  /* The precision its ops need other than the requested one (they share
   * it: ops of different required precisions never share a partition),
   * else -1: compiled at the requested precision. */
  int32_t precision;
} partition;

typedef struct partition_plan {
  uint32_t op_count;
  uint32_t *op_candidate;  /* per op */
  uint32_t partition_count;
  partition *partitions;   /* in a valid execution order */
} partition_plan;

tflaccel_status partition_graph(const tflaccel_graph_view *graph, const uint32_t *graph_outputs,
                                uint32_t graph_output_count, const partition_candidate *candidates,
                                uint32_t candidate_count, const partition_options *options,
                                partition_plan **plan);
void partition_plan_destroy(partition_plan *plan);

/* Checks that no dependency path leaves a partition and comes back into it
 * (exposed for tests). Returns NULL when every partition is convex. */
tflaccel_status partition_check_convex(const tflaccel_graph_view *graph, const partition_plan *plan);

/* Estimated work of an op (multiply-accumulates for convolutions and fully
 * connected layers, output elements otherwise), used by the cost model. */
double partition_op_work(const tflaccel_graph_view *graph, uint32_t op);

#endif
