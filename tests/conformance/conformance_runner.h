/* Running one conformance graph through a plugin's ABI: every op as one
 * partition, inputs and outputs in device buffers framed by sentinel
 * bytes that must survive the run; or, where the plugin answers that some
 * ops must compile at another precision (ABI 1.3), partitions split by
 * that precision as the core splits them. */
#ifndef TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_RUNNER_H
#define TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_RUNNER_H

#include "core/registry/host_services.h"
#include "tests/conformance/conformance_graph.h"
#include "tflaccel/accelerator.h"

/* A loaded, initialised plugin with its first device. */
typedef struct cf_plugin {
  void *library;
  const tflaccel_accelerator_plugin *plugin;
  host_plugin_context context;
  tflaccel_host_services host;
  void *state;
  tflaccel_device *device;
} cf_plugin;

/* Loads path and creates device 0; fails the test on any error. */
void cf_plugin_open(cf_plugin *plugin, const char *path, const char *name);
void cf_plugin_close(cf_plugin *plugin);

/* What running a graph gave. */
typedef struct cf_result {
  int declined; /* some op was declined: reason says which */
  char reason[TFLACCEL_REASON_SIZE + 32];
  void *outputs[CF_MAX_BOUNDARY]; /* malloc'ed, graph->output_count of them */
  uint32_t partition_count;       /* 1, or more when precisions split the graph */
  uint32_t other_precision_ops;   /* ops compiled at fp32 in an fp16 run (and the like) */
  uint32_t first_other_precision_op;
} cf_result;

/* Random inputs for graph (the same for every plugin with the same seed). */
void cf_make_inputs(cf_graph *graph, uint32_t seed, void *inputs[CF_MAX_BOUNDARY]);

/* Asks the plugin about every op (also with a support struct of ABI 1.2's
 * size, which it must not write past and whose answer must not need
 * another precision), then compiles and runs the whole graph with the
 * given inputs at precision (split where ops need another precision);
 * checks the sentinels around every buffer. A refusal by supports_op is
 * not a failure: result->declined. */
void cf_run(cf_plugin *plugin, cf_graph *graph, int32_t precision,
            void *const inputs[CF_MAX_BOUNDARY], cf_result *result);
void cf_result_release(cf_result *result, uint32_t output_count);

#endif
