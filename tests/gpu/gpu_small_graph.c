/* The small graph of the GPU plugin tests (gpu_small_graph.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tests/gpu/gpu_small_graph.h"

static const int32_t small_dims[4] = {1, 2, 3, 5};
static const int32_t channel_dims[1] = {5};
static const uint32_t add_inputs[2] = {0, 1}, add_outputs[1] = {2};
static const uint32_t mul_inputs[2] = {2, 3}, mul_outputs[1] = {4};
static const uint32_t partition_ops[2] = {0, 1};
static const uint32_t partition_inputs[2] = {0, 1}, partition_outputs[1] = {4};

#define VALUE_BYTES (GPU_SMALL_GRAPH_VALUES * sizeof(float))

static void assert_ok(tflaccel_status status, const char *what) {
  ck_assert_msg(status == NULL, "%s: %s", what, tflaccel_status_message(status));
}

void gpu_small_graph_init(gpu_small_graph *graph) {
  memset(graph, 0, sizeof *graph);
  for (int i = 0; i < 5; ++i) {
    tflaccel_tensor_desc *t = &graph->tensors[i];
    t->struct_size = sizeof *t;
    t->dtype = TFLACCEL_DTYPE_FLOAT32;
    t->rank = i == 3 ? 1 : 4;
    t->dims = i == 3 ? channel_dims : small_dims;
    t->name = "";
    t->byte_size = i == 3 ? sizeof graph->constant : VALUE_BYTES;
  }
  graph->tensors[0].flags = graph->tensors[1].flags = TFLACCEL_TENSOR_GRAPH_INPUT;
  graph->tensors[4].flags = TFLACCEL_TENSOR_GRAPH_OUTPUT;
  for (int c = 0; c < 5; ++c) graph->constant[c] = 0.5f + 0.25f * (float)c;
  graph->tensors[3].flags = TFLACCEL_TENSOR_CONSTANT;
  graph->tensors[3].data = graph->constant;
  graph->tensors[3].data_size = sizeof graph->constant;
  for (int o = 0; o < 2; ++o) {
    tflaccel_op_desc *op = &graph->ops[o];
    op->struct_size = sizeof *op;
    op->code = o == 0 ? TFLACCEL_OP_ADD : TFLACCEL_OP_MUL;
    op->version = 1;
    op->params = &graph->params[o];
    op->input_count = 2;
    op->output_count = 1;
    op->inputs = o == 0 ? add_inputs : mul_inputs;
    op->outputs = o == 0 ? add_outputs : mul_outputs;
  }
  graph->params[0].arithmetic.fused_activation = TFLACCEL_ACT_RELU;
  graph->view.struct_size = sizeof graph->view;
  graph->view.tensor_count = 5;
  graph->view.tensors = graph->tensors;
  graph->view.op_count = 2;
  graph->view.ops = graph->ops;
  graph->partition = (tflaccel_partition_desc){.struct_size = sizeof graph->partition,
                                               .op_count = 2,
                                               .ops = partition_ops,
                                               .input_count = 2,
                                               .inputs = partition_inputs,
                                               .output_count = 1,
                                               .outputs = partition_outputs};
}

void gpu_small_graph_compile(gpu_small_graph *graph, tflaccel_device *device, int32_t precision) {
  /* A model token, as the core gives when its cache is on: with a
   * cache_dir, the plugin keeps the partition's entry. */
  tflaccel_compile_options options = {.struct_size = sizeof options,
                                      .precision = precision,
                                      .thread_count = 1,
                                      .model_token = "gpu_small_graph",
                                      .model_name = "small graph"};
  assert_ok(device->vtable->compile(device, &graph->view, &graph->partition, &options,
                                    &graph->executable),
            "compile");
  ck_assert_ptr_nonnull(graph->executable);
  for (int i = 0; i < 2; ++i)
    assert_ok(device->vtable->buffer_create(device, VALUE_BYTES, &graph->inputs[i]),
              "buffer_create");
}

/* Values in [-3, 3] and [-0.25, 1.75] that change with the seed. */
static void make_inputs(uint32_t seed, float *a, float *b) {
  for (int i = 0; i < GPU_SMALL_GRAPH_VALUES; ++i) {
    a[i] = (float)((i + (int)seed) % 7) - 3.0f;
    b[i] = 0.5f * (float)((i * 3 + (int)seed) % 5) - 0.25f;
  }
}

void gpu_small_graph_run(gpu_small_graph *graph, tflaccel_device *device, tflaccel_buffer *output,
                         uint64_t offset, uint32_t seed, float tolerance) {
  const tflaccel_device_vtable *vtable = device->vtable;
  float a[GPU_SMALL_GRAPH_VALUES], b[GPU_SMALL_GRAPH_VALUES], out[GPU_SMALL_GRAPH_VALUES];
  make_inputs(seed, a, b);
  tflaccel_binding bindings[3];
  const float *sources[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    bindings[i] = (tflaccel_binding){
        .tensor = (uint32_t)i, .buffer = graph->inputs[i], .offset = 0, .size = VALUE_BYTES};
    assert_ok(vtable->buffer_write(device, graph->inputs[i], 0, sources[i], VALUE_BYTES),
              "buffer_write");
  }
  bindings[2] =
      (tflaccel_binding){.tensor = 4, .buffer = output, .offset = offset, .size = VALUE_BYTES};
  assert_ok(vtable->execute(device, graph->executable, bindings, 3, NULL), "execute");
  assert_ok(vtable->buffer_read(device, output, offset, out, VALUE_BYTES), "buffer_read");
  for (int i = 0; i < GPU_SMALL_GRAPH_VALUES; ++i) {
    float sum = a[i] + b[i];
    float expected = (sum > 0.0f ? sum : 0.0f) * graph->constant[i % 5];
    ck_assert_msg(out[i] >= expected - tolerance && out[i] <= expected + tolerance,
                  "seed %u, output offset %llu, element %d: %g, expected %g", (unsigned)seed,
                  (unsigned long long)offset, i, (double)out[i], (double)expected);
  }
}

void gpu_small_graph_release(gpu_small_graph *graph, tflaccel_device *device) {
  if (graph->executable != NULL) device->vtable->executable_destroy(device, graph->executable);
  graph->executable = NULL;
  for (int i = 0; i < 2; ++i)
    if (graph->inputs[i] != NULL) device->vtable->buffer_destroy(device, graph->inputs[i]);
}

void gpu_small_graph_check(tflaccel_device *device, int32_t precision, float tolerance) {
  const tflaccel_device_vtable *vtable = device->vtable;
  gpu_small_graph graph;
  gpu_small_graph_init(&graph);
  gpu_small_graph_compile(&graph, device, precision);
  tflaccel_buffer *first = NULL, *second = NULL;
  assert_ok(vtable->buffer_create(device, VALUE_BYTES, &first), "buffer_create");
  assert_ok(vtable->buffer_create(device, VALUE_BYTES + 64, &second), "buffer_create");
  /* Same buffers (a replay), the output elsewhere (rebinding), back. */
  gpu_small_graph_run(&graph, device, first, 0, 1, tolerance);
  gpu_small_graph_run(&graph, device, first, 0, 2, tolerance);
  gpu_small_graph_run(&graph, device, second, 16, 3, tolerance);
  gpu_small_graph_run(&graph, device, second, 64, 4, tolerance);
  gpu_small_graph_run(&graph, device, first, 0, 5, tolerance);
  vtable->buffer_destroy(device, first);
  vtable->buffer_destroy(device, second);
  gpu_small_graph_release(&graph, device);
}

void gpu_small_graph_check_misaligned(tflaccel_device *device, uint32_t alignment) {
  const tflaccel_device_vtable *vtable = device->vtable;
  gpu_small_graph graph;
  gpu_small_graph_init(&graph);
  gpu_small_graph_compile(&graph, device, TFLACCEL_PRECISION_FP32);
  tflaccel_buffer *output = NULL;
  assert_ok(vtable->buffer_create(device, VALUE_BYTES + 64, &output), "buffer_create");
  gpu_small_graph_run(&graph, device, output, alignment, 1, 0.0f);
  /* A float's offset, but not a whole number of alignment units. */
  uint64_t offset = sizeof(float);
  tflaccel_binding bindings[3] = {
      {.tensor = 0, .buffer = graph.inputs[0], .offset = 0, .size = VALUE_BYTES},
      {.tensor = 1, .buffer = graph.inputs[1], .offset = 0, .size = VALUE_BYTES},
      {.tensor = 4, .buffer = output, .offset = offset, .size = VALUE_BYTES},
  };
  tflaccel_status status = vtable->execute(device, graph.executable, bindings, 3, NULL);
  ck_assert_msg(status != NULL, "a binding at offset %llu was accepted",
                (unsigned long long)offset);
  char expected[64];
  snprintf(expected, sizeof expected, "not a multiple of %u bytes", (unsigned)alignment);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_msg(strstr(tflaccel_status_message(status), expected) != NULL, "message: %s",
                tflaccel_status_message(status));
  tflaccel_status_free(status);
  /* The executable still works with aligned bindings afterwards. */
  gpu_small_graph_run(&graph, device, output, 0, 2, 0.0f);
  vtable->buffer_destroy(device, output);
  gpu_small_graph_release(&graph, device);
}
