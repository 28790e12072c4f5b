/* Where a compiled model's ops run: ops and partitions per accelerator,
 * gathered from the public partition info. */
#ifndef TFLACCEL_TOOLS_BENCH_PLACEMENT_H
#define TFLACCEL_TOOLS_BENCH_PLACEMENT_H

#include <stdio.h>

#include "tflaccel/tflaccel.h"

typedef struct accelerator_share {
  char *accelerator;
  uint32_t op_count, partition_count;
} accelerator_share;

typedef struct op_placement {
  accelerator_share *shares; /* in order of first partition */
  uint32_t share_count;
  uint32_t op_count, partition_count; /* totals */
  char **partition_accelerators;      /* per partition, in execution order */
  uint32_t *partition_op_counts;
} op_placement;

tflaccel_status op_placement_collect(const tflaccel_compiled_model *compiled,
                                     op_placement *placement);
void op_placement_free(op_placement *placement);
/* Ops that run somewhere other than the cpu_ref fallback: what a delegate
 * took, in benchmark_model's terms. */
uint32_t op_placement_delegated_ops(const op_placement *placement);
/* "Ops per accelerator (N ops, P partitions): gpu_cl=120 in 2 partitions, ..."
 * with a newline. */
void op_placement_print(FILE *stream, const op_placement *placement);

#endif
