/* A small graph every GPU plugin that runs ops can be checked with:
 * out = relu(a + b) * c over [1, 2, 3, 5] (5 channels: not a multiple of
 * the 4-channel slices), c a constant broadcast over channels. The check
 * compiles it and runs it several times on one executable: new input
 * values in the same buffers (a replay), the output bound to another
 * buffer at an offset (rebinding), then the first buffers again, comparing
 * every value with the host's result each time. */
#ifndef TFLACCEL_TESTS_GPU_GPU_SMALL_GRAPH_H
#define TFLACCEL_TESTS_GPU_GPU_SMALL_GRAPH_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

#define GPU_SMALL_GRAPH_VALUES 30

typedef struct gpu_small_graph {
  tflaccel_tensor_desc tensors[5];
  tflaccel_op_desc ops[2];
  tflaccel_op_params params[2];
  float constant[5];
  tflaccel_graph_view view;
  tflaccel_partition_desc partition;
  tflaccel_executable *executable;
  tflaccel_buffer *inputs[2]; /* the same for every run */
} gpu_small_graph;

void gpu_small_graph_init(gpu_small_graph *graph);

/* Compiles the graph on device at precision and makes its input buffers
 * (failing the test when that does not work). */
void gpu_small_graph_compile(gpu_small_graph *graph, tflaccel_device *device, int32_t precision);

/* One run with inputs drawn from seed (written into the graph's input
 * buffers), its output bound to output at offset (bytes); every value must
 * be within tolerance of the host's. */
void gpu_small_graph_run(gpu_small_graph *graph, tflaccel_device *device, tflaccel_buffer *output,
                         uint64_t offset, uint32_t seed, float tolerance);

/* Compiles, runs in the ways the header comment lists, releases. */
void gpu_small_graph_check(tflaccel_device *device, int32_t precision, float tolerance);

void gpu_small_graph_release(gpu_small_graph *graph, tflaccel_device *device);

/* For plugins whose bindings must start on alignment bytes: an output
 * bound at an offset of one float is refused with TFLACCEL_INVALID_ARGUMENT
 * naming the alignment, and runs at aligned offsets work before and after. */
void gpu_small_graph_check_misaligned(tflaccel_device *device, uint32_t alignment);

#endif
