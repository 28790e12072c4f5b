#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry/host_services.h"
#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

/* Bytes around each output binding that the plugin must leave alone. */
#define SENTINEL_BYTES 64
#define SENTINEL_VALUE 0xA5

void tg_init(test_graph *graph) { memset(graph, 0, sizeof *graph); }

void tg_free(test_graph *graph) {
  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    free(graph->owned[t]);
    free(graph->result[t]);
  }
  memset(graph, 0, sizeof *graph);
}

static uint32_t add_tensor(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims) {
  ck_assert_uint_lt(graph->tensor_count, TG_MAX_TENSORS);
  ck_assert_uint_le(rank, TG_MAX_RANK);
  uint32_t index = graph->tensor_count++;
  tflaccel_tensor_desc *tensor = &graph->tensors[index];
  memset(tensor, 0, sizeof *tensor);
  tensor->struct_size = sizeof *tensor;
  tensor->dtype = dtype;
  tensor->rank = rank;
  uint64_t count = 1;
  for (uint32_t i = 0; i < rank; i++) {
    graph->dims[index][i] = dims[i];
    count *= (uint64_t)dims[i];
  }
  tensor->dims = graph->dims[index];
  tensor->name = "";
  tensor->byte_size = count * tflaccel_dtype_size(dtype);
  return index;
}

uint32_t tg_tensor(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims) {
  return add_tensor(graph, dtype, rank, dims);
}

uint32_t tg_input(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                  const void *values) {
  uint32_t index = add_tensor(graph, dtype, rank, dims);
  graph->tensors[index].flags = TFLACCEL_TENSOR_GRAPH_INPUT;
  graph->feed[index] = values;
  return index;
}

uint32_t tg_const(test_graph *graph, int32_t dtype, uint32_t rank, const int32_t *dims,
                  const void *values) {
  uint32_t index = add_tensor(graph, dtype, rank, dims);
  tflaccel_tensor_desc *tensor = &graph->tensors[index];
  size_t size = (size_t)tensor->byte_size;
  graph->owned[index] = malloc(size > 0 ? size : 1);
  ck_assert_ptr_nonnull(graph->owned[index]);
  if (size > 0) memcpy(graph->owned[index], values, size);
  tensor->flags = TFLACCEL_TENSOR_CONSTANT;
  tensor->data = graph->owned[index];
  tensor->data_size = tensor->byte_size;
  return index;
}

void tg_quantize(test_graph *graph, uint32_t tensor, float scale, int32_t zero_point) {
  graph->scales[tensor] = scale;
  graph->zero_points[tensor] = zero_point;
  tflaccel_quantization *q = &graph->tensors[tensor].quantization;
  q->count = 1;
  q->scales = &graph->scales[tensor];
  q->zero_points = &graph->zero_points[tensor];
  q->quantized_dimension = 0;
}

void tg_mark_output(test_graph *graph, uint32_t tensor) { graph->is_output[tensor] = 1; }

tflaccel_op_params *tg_op(test_graph *graph, int32_t code, uint32_t input_count,
                          const uint32_t *inputs, uint32_t output_count, const uint32_t *outputs) {
  ck_assert_uint_lt(graph->op_count, TG_MAX_OPS);
  ck_assert_uint_le(input_count, TG_MAX_OP_INPUTS);
  ck_assert_uint_le(output_count, TG_MAX_OP_OUTPUTS);
  uint32_t index = graph->op_count++;
  tflaccel_op_desc *op = &graph->ops[index];
  memset(op, 0, sizeof *op);
  memset(&graph->params[index], 0, sizeof graph->params[index]);
  op->struct_size = sizeof *op;
  op->code = code;
  op->version = 1;
  op->params = &graph->params[index];
  memcpy(graph->op_inputs[index], inputs, sizeof(uint32_t) * input_count);
  memcpy(graph->op_outputs[index], outputs, sizeof(uint32_t) * output_count);
  op->input_count = input_count;
  op->output_count = output_count;
  op->inputs = graph->op_inputs[index];
  op->outputs = graph->op_outputs[index];
  return &graph->params[index];
}

tflaccel_op_params *tg_custom_op(test_graph *graph, const char *custom_code, uint32_t input_count,
                                 const uint32_t *inputs, uint32_t output_count,
                                 const uint32_t *outputs) {
  tflaccel_op_params *params =
      tg_op(graph, TFLACCEL_OP_CUSTOM, input_count, inputs, output_count, outputs);
  graph->ops[graph->op_count - 1].custom_code = custom_code;
  return params;
}

tflaccel_graph_view tg_view(const test_graph *graph) {
  tflaccel_graph_view view;
  memset(&view, 0, sizeof view);
  view.struct_size = sizeof view;
  view.tensor_count = graph->tensor_count;
  view.tensors = graph->tensors;
  view.op_count = graph->op_count;
  view.ops = graph->ops;
  return view;
}

static const char *lookup_option(const void *options, const char *key) {
  const char *const *pairs = options;
  for (size_t i = 0; pairs != NULL && pairs[i] != NULL; i += 2)
    if (strcmp(pairs[i], key) == 0) return pairs[i + 1];
  return NULL;
}

tflaccel_status tp_open_with_options(test_plugin *plugin, const char *const *options) {
  memset(plugin, 0, sizeof *plugin);
  host_plugin_context *context = calloc(1, sizeof *context);
  ck_assert_ptr_nonnull(context);
  strcpy(context->plugin_name, "cpu_ref");
  context->log_level = TFLACCEL_LOG_WARNING;
  context->option_lookup = lookup_option;
  context->options = options;
  plugin->host_context = context;
  host_services_fill(&plugin->host, context, NULL);
  plugin->plugin = TFLACCEL_ACCELERATOR_ENTRY(TFLACCEL_ABI_VERSION);
  ck_assert_ptr_nonnull(plugin->plugin);
  tflaccel_status status = plugin->plugin->init(&plugin->host, &plugin->state);
  if (status != NULL) {
    plugin->plugin = NULL;
    return status;
  }
  ck_assert_uint_eq(plugin->plugin->device_count(plugin->state), 1);
  status = plugin->plugin->device_create(plugin->state, 0, &plugin->device);
  ck_assert_msg(status == NULL, "device_create: %s", tflaccel_status_message(status));
  return NULL;
}

void tp_open(test_plugin *plugin) {
  tflaccel_status status = tp_open_with_options(plugin, NULL);
  ck_assert_msg(status == NULL, "init: %s", tflaccel_status_message(status));
}

void tp_close(test_plugin *plugin) {
  if (plugin->device != NULL) plugin->device->vtable->destroy(plugin->device);
  if (plugin->plugin != NULL) plugin->plugin->shutdown(plugin->state);
  free(plugin->host_context);
  memset(plugin, 0, sizeof *plugin);
}

static int is_produced(const test_graph *graph, uint32_t tensor) {
  for (uint32_t o = 0; o < graph->op_count; o++)
    for (uint32_t i = 0; i < graph->ops[o].output_count; i++)
      if (graph->ops[o].outputs[i] == tensor) return 1;
  return 0;
}

static int is_consumed(const test_graph *graph, uint32_t tensor) {
  for (uint32_t o = 0; o < graph->op_count; o++)
    for (uint32_t i = 0; i < graph->ops[o].input_count; i++)
      if (graph->ops[o].inputs[i] == tensor) return 1;
  return 0;
}

typedef struct run_buffers {
  uint32_t tensors[TG_MAX_TENSORS];
  tflaccel_buffer *buffers[TG_MAX_TENSORS];
  uint32_t count;
} run_buffers;

/* One execute with fresh buffers: fills graph->result (first run) or
 * compares with it (later runs). */
static tflaccel_status run_once(test_graph *graph, test_plugin *plugin,
                                tflaccel_executable *executable, const uint32_t *inputs,
                                uint32_t input_count, const uint32_t *outputs,
                                uint32_t output_count, int compare) {
  const tflaccel_device_vtable *vt = plugin->device->vtable;
  tflaccel_binding bindings[TG_MAX_TENSORS];
  run_buffers buffers;
  buffers.count = 0;
  tflaccel_status status = NULL;
  for (uint32_t i = 0; i < input_count + output_count && status == NULL; i++) {
    int is_input = i < input_count;
    uint32_t t = is_input ? inputs[i] : outputs[i - input_count];
    uint64_t size = graph->tensors[t].byte_size;
    uint64_t padding = is_input ? 0 : SENTINEL_BYTES;
    tflaccel_buffer *buffer = NULL;
    status = vt->buffer_create(plugin->device, size + 2 * padding, &buffer);
    if (status != NULL) break;
    buffers.buffers[buffers.count] = buffer;
    buffers.tensors[buffers.count++] = t;
    unsigned char *mapped = vt->buffer_map(plugin->device, buffer);
    ck_assert_ptr_nonnull(mapped);
    if (is_input) {
      if (size > 0) status = vt->buffer_write(plugin->device, buffer, 0, graph->feed[t], size);
    } else {
      memset(mapped, SENTINEL_VALUE, (size_t)(size + 2 * padding));
    }
    bindings[i].tensor = t;
    bindings[i].buffer = buffer;
    bindings[i].offset = padding;
    bindings[i].size = size;
  }
  if (status == NULL) {
    tflaccel_event *event = (tflaccel_event *)&status; /* must come back NULL */
    status = vt->execute(plugin->device, executable, bindings, input_count + output_count, &event);
    ck_assert_ptr_null(event);
  }
  for (uint32_t i = 0; status == NULL && i < output_count; i++) {
    uint32_t t = outputs[i];
    size_t size = (size_t)graph->tensors[t].byte_size;
    const unsigned char *mapped =
        vt->buffer_map(plugin->device, buffers.buffers[input_count + i]);
    for (size_t b = 0; b < SENTINEL_BYTES; b++) {
      ck_assert_msg(mapped[b] == SENTINEL_VALUE, "byte %zu before output tensor %u changed", b, t);
      ck_assert_msg(mapped[SENTINEL_BYTES + size + b] == SENTINEL_VALUE,
                    "byte %zu after output tensor %u changed", b, t);
    }
    unsigned char *result = malloc(size > 0 ? size : 1);
    ck_assert_ptr_nonnull(result);
    status = vt->buffer_read(plugin->device, buffers.buffers[input_count + i], SENTINEL_BYTES,
                             result, size);
    if (status == NULL && compare) {
      ck_assert_msg(memcmp(result, graph->result[t], size) == 0,
                    "a second run gave different values for tensor %u", t);
      free(result);
    } else if (status == NULL) {
      free(graph->result[t]);
      graph->result[t] = result;
    } else {
      free(result);
    }
  }
  for (uint32_t i = 0; i < buffers.count; i++) vt->buffer_destroy(plugin->device, buffers.buffers[i]);
  return status;
}

tflaccel_status tg_run(test_graph *graph, int32_t threads) {
  uint32_t inputs[TG_MAX_TENSORS], outputs[TG_MAX_TENSORS], ops[TG_MAX_OPS];
  uint32_t input_count = 0, output_count = 0;
  for (uint32_t t = 0; t < graph->tensor_count; t++) {
    if (graph->feed[t] != NULL) inputs[input_count++] = t;
    else if (is_produced(graph, t) && (graph->is_output[t] || !is_consumed(graph, t)))
      outputs[output_count++] = t;
  }
  for (uint32_t o = 0; o < graph->op_count; o++) ops[o] = o;
  tflaccel_partition_desc partition = {sizeof partition, graph->op_count, ops, input_count,
                                       inputs, output_count, outputs};
  tflaccel_compile_options options = {
      .struct_size = sizeof options, .precision = TFLACCEL_PRECISION_FP32, .thread_count = threads};
  tflaccel_graph_view view = tg_view(graph);
  test_plugin plugin;
  tp_open(&plugin);
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  tflaccel_executable *executable = NULL;
  tflaccel_status status = vt->compile(plugin.device, &view, &partition, &options, &executable);
  /* The view is borrowed for the compile call only: scribble over the
   * shapes' copies the graph keeps, so a plugin that kept pointers fails. */
  tflaccel_op_desc saved_ops[TG_MAX_OPS];
  int32_t saved_dims[TG_MAX_TENSORS][TG_MAX_RANK];
  memcpy(saved_ops, graph->ops, sizeof saved_ops);
  memcpy(saved_dims, graph->dims, sizeof saved_dims);
  for (uint32_t o = 0; o < graph->op_count; o++) graph->ops[o].inputs = NULL;
  memset(graph->dims, 0x7F, sizeof graph->dims);
  if (status == NULL)
    status = run_once(graph, &plugin, executable, inputs, input_count, outputs, output_count, 0);
  if (status == NULL)
    status = run_once(graph, &plugin, executable, inputs, input_count, outputs, output_count, 1);
  memcpy(graph->ops, saved_ops, sizeof saved_ops);
  memcpy(graph->dims, saved_dims, sizeof saved_dims);
  if (executable != NULL) vt->executable_destroy(plugin.device, executable);
  tp_close(&plugin);
  return status;
}

void tg_run_ok(test_graph *graph, int32_t threads) {
  tflaccel_status status = tg_run(graph, threads);
  ck_assert_msg(status == NULL, "run failed: %s", tflaccel_status_message(status));
}

const void *tg_result(const test_graph *graph, uint32_t tensor) {
  ck_assert_ptr_nonnull(graph->result[tensor]);
  return graph->result[tensor];
}

int tg_supported(test_graph *graph, uint32_t op, char *reason) {
  test_plugin plugin;
  tp_open(&plugin);
  tflaccel_graph_view view = tg_view(graph);
  tflaccel_op_support support;
  memset(&support, 0, sizeof support);
  support.struct_size = sizeof support;
  tflaccel_status status =
      plugin.device->vtable->supports_op(plugin.device, &view, op, NULL, &support);
  ck_assert_msg(status == NULL, "supports_op: %s", tflaccel_status_message(status));
  strcpy(reason, support.reason);
  tp_close(&plugin);
  return support.level == TFLACCEL_SUPPORT_YES;
}

void tg_random_floats(float *values, size_t count, uint32_t seed, float low, float high) {
  uint32_t state = seed != 0 ? seed : 1;
  for (size_t i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    values[i] = low + (high - low) * (float)(state / 4294967296.0);
  }
}

void tg_assert_floats(const float *actual, const float *expected, size_t count, float tolerance) {
  for (size_t i = 0; i < count; i++) {
    float limit = tolerance * (1.0f + fabsf(expected[i]));
    ck_assert_msg(fabsf(actual[i] - expected[i]) <= limit, "element %zu: got %.9g, expected %.9g",
                  i, (double)actual[i], (double)expected[i]);
  }
}
