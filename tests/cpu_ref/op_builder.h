/* Test support for cpu_ref: builds small graph views by hand, runs them
 * through the plugin's ABI (entry point, device, buffers, compile, execute)
 * with the core's real host services, and keeps the results. */
#ifndef TFLACCEL_TESTS_CPU_REF_OP_BUILDER_H
#define TFLACCEL_TESTS_CPU_REF_OP_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/accelerator.h"

#define TG_MAX_TENSORS 48
#define TG_MAX_OPS 12
#define TG_MAX_RANK 8
#define TG_MAX_OP_INPUTS 12
#define TG_MAX_OP_OUTPUTS 8

typedef struct test_graph {
  uint32_t tensor_count, op_count;
  tflaccel_tensor_desc tensors[TG_MAX_TENSORS];
  int32_t dims[TG_MAX_TENSORS][TG_MAX_RANK];
  float scales[TG_MAX_TENSORS];
  int32_t zero_points[TG_MAX_TENSORS];
  void *owned[TG_MAX_TENSORS];      /* constant data copies */
  const void *feed[TG_MAX_TENSORS]; /* input values (borrowed) */
  int is_output[TG_MAX_TENSORS];    /* forced partition outputs */
  void *result[TG_MAX_TENSORS];     /* outputs after tg_run */
  tflaccel_op_desc ops[TG_MAX_OPS];
  tflaccel_op_params params[TG_MAX_OPS];
  uint32_t op_inputs[TG_MAX_OPS][TG_MAX_OP_INPUTS];
  uint32_t op_outputs[TG_MAX_OPS][TG_MAX_OP_OUTPUTS];
} test_graph;

void tg_init(test_graph *graph);
void tg_free(test_graph *graph);

/* A tensor produced inside the graph. */
uint32_t tg_tensor(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims);
/* A partition input; values (not copied) are written before each run. */
uint32_t tg_input(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                  const void *values);
/* A constant; values are copied. */
uint32_t tg_const(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                  const void *values);
/* Per-tensor quantization. */
void tg_quantize(test_graph *graph, uint32_t tensor, float scale, int32_t zero_point);
/* Makes a tensor a partition output even if a later op reads it. */
void tg_mark_output(test_graph *graph, uint32_t tensor);

/* Appends an op; returns its zeroed params to fill. TFLACCEL_NO_TENSOR in
 * inputs marks an absent optional input. */
tflaccel_op_params *tg_op(test_graph *graph, int32_t code, uint32_t input_count,
                          const uint32_t *inputs, uint32_t output_count, const uint32_t *outputs);
/* The same for a custom op. */
tflaccel_op_params *tg_custom_op(test_graph *graph, const char *custom_code, uint32_t input_count,
                                 const uint32_t *inputs, uint32_t output_count,
                                 const uint32_t *outputs);

tflaccel_graph_view tg_view(const test_graph *graph);

/* The loaded plugin with one device. */
typedef struct test_plugin {
  tflaccel_host_services host;
  void *host_context; /* host_plugin_context */
  const tflaccel_accelerator_plugin *plugin;
  void *state;
  tflaccel_device *device;
} test_plugin;

void tp_open(test_plugin *plugin);
/* tp_open with [plugin.cpu_ref] options as NULL-terminated key, value
 * pairs; returns init's status (the device exists only on success). */
tflaccel_status tp_open_with_options(test_plugin *plugin, const char *const *options);
void tp_close(test_plugin *plugin);

/* Compiles all ops as one partition (inputs: tensors with values; outputs:
 * produced tensors no op reads, and marked ones), runs it with `threads`
 * threads and stores the outputs (tg_result). Output buffers carry sentinel
 * bytes after the tensor, checked unchanged. Returns the first error. */
tflaccel_status tg_run(test_graph *graph, int32_t threads);
/* tg_run that must succeed (fails the test otherwise). */
void tg_run_ok(test_graph *graph, int32_t threads);
const void *tg_result(const test_graph *graph, uint32_t tensor);

/* supports_op for op index op: 1 when supported, else 0 with the reason. */
int tg_supported(test_graph *graph, uint32_t op, char *reason);

/* Deterministic values in [low, high). */
void tg_random_floats(float *values, size_t count, uint32_t seed, float low, float high);

/* Element-wise |actual - expected| <= tolerance (absolute + relative). */
void tg_assert_floats(const float *actual, const float *expected, size_t count, float tolerance);

#endif
