/* benchmark_model's --enable_op_profiling for tflaccel: every profiled run
 * adds each partition's wall time (tflaccel_compiled_model_partition_run_us);
 * the report is TFLite's operator-wise profiling tables (run order, top by
 * time, summary by node type, the short summary), on the terminal or as CSV.
 * A partition is one node, as a delegate's kernel is one node in TFLite;
 * its ops are listed beneath it in the run-order table. bench compiles with
 * split_fallback_ops, so every cpu_ref op is a node of its own, named and
 * typed like TFLite's ("CONV_2D", "[conv2d]:0"). */
#ifndef TFLACCEL_TOOLS_OP_PROFILE_H
#define TFLACCEL_TOOLS_OP_PROFILE_H

#include <stdio.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/stats.h"

typedef struct profile_node {
  char *type;        /* the op's name for a one-op partition, else the accelerator */
  char *name;        /* "[cpu_ref partition 0: 63 ops]" or "[output tensor name]" */
  uint32_t first_op, op_count;
  run_stats us;      /* per run */
} profile_node;

typedef struct op_profile {
  profile_node *nodes; /* per partition, in run order */
  uint32_t node_count;
  char **op_lines;     /* per prepared-graph op: "CONV_2D [name]" */
  uint32_t op_count;
  uint32_t *partition_ops_start; /* per partition: index into partition_ops */
  uint32_t *partition_ops;       /* op indices, partition after partition */
  run_stats total_us;  /* per run: the sum over nodes */
} op_profile;

/* Turns profiling on in compiled and gathers the nodes. On failure nothing
 * is left to free. */
tflaccel_status op_profile_create(tflaccel_compiled_model *compiled, op_profile *profile);
void op_profile_free(op_profile *profile);
/* After each profiled run. */
tflaccel_status op_profile_add_run(op_profile *profile, const tflaccel_compiled_model *compiled);
/* The tables; csv: TFLite's CSV form (format_as_csv). */
void op_profile_print(FILE *out, op_profile *profile, int csv);

#endif
