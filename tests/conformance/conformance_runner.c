/* Driving a plugin through the ABI for the conformance cases. */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log.h"
#include "tests/conformance/conformance_runner.h"

/* Bytes of sentinel before and after each tensor in its device buffer. */
#define GUARD_BYTES 256
#define SENTINEL 0xA5

static void assert_ok(tflaccel_status status, const char *what) {
  ck_assert_msg(status == NULL, "%s: %s", what, tflaccel_status_message(status));
}

void cf_plugin_open(cf_plugin *plugin, const char *path, const char *name) {
  memset(plugin, 0, sizeof *plugin);
  plugin->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(plugin->library != NULL, "dlopen(%s): %s", path, dlerror());
  tflaccel_accelerator_entry_fn entry = NULL;
  *(void **)&entry = dlsym(plugin->library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
  ck_assert_msg(entry != NULL, "%s has no entry point", path);
  plugin->plugin = entry(TFLACCEL_ABI_VERSION);
  ck_assert_ptr_nonnull(plugin->plugin);
  snprintf(plugin->context.plugin_name, sizeof plugin->context.plugin_name, "%s", name);
  const char *bad_level = NULL;
  plugin->context.log_level = log_level_from_env(&bad_level);
  host_services_fill(&plugin->host, &plugin->context, NULL);
  assert_ok(plugin->plugin->init(&plugin->host, &plugin->state), name);
  assert_ok(plugin->plugin->device_create(plugin->state, 0, &plugin->device), "device_create");
}

void cf_plugin_close(cf_plugin *plugin) {
  if (plugin->device != NULL) plugin->device->vtable->destroy(plugin->device);
  if (plugin->state != NULL) plugin->plugin->shutdown(plugin->state);
  /* The module stays loaded, as the core leaves it. */
  memset(plugin, 0, sizeof *plugin);
}

void cf_make_inputs(cf_graph *graph, uint32_t seed, void *inputs[CF_MAX_BOUNDARY]) {
  uint32_t saved = graph->random_state;
  graph->random_state = seed ? seed : 1;
  for (uint32_t i = 0; i < graph->input_count; ++i) {
    const tflaccel_tensor_desc *tensor = &graph->tensors[graph->inputs[i]];
    int64_t count = cf_elements(tensor);
    inputs[i] = malloc((size_t)tensor->byte_size ? (size_t)tensor->byte_size : 1);
    ck_assert_ptr_nonnull(inputs[i]);
    ck_assert(tensor->dtype == TFLACCEL_DTYPE_FLOAT32 || tensor->dtype == TFLACCEL_DTYPE_BOOL ||
              tensor->dtype == TFLACCEL_DTYPE_INT8 || tensor->dtype == TFLACCEL_DTYPE_UINT8 ||
              tensor->dtype == TFLACCEL_DTYPE_INT16 || tensor->dtype == TFLACCEL_DTYPE_INT32);
    float low = graph->input_low[graph->inputs[i]], high = graph->input_high[graph->inputs[i]];
    for (int64_t k = 0; k < count; ++k) {
      float value = cf_random(graph, low, high);
      if (tensor->dtype == TFLACCEL_DTYPE_BOOL)
        ((uint8_t *)inputs[i])[k] = value >= 0.5f * (low + high);
      else if (tensor->dtype == TFLACCEL_DTYPE_INT8)
        ((int8_t *)inputs[i])[k] = (int8_t)value;
      else if (tensor->dtype == TFLACCEL_DTYPE_UINT8)
        ((uint8_t *)inputs[i])[k] = (uint8_t)value;
      else if (tensor->dtype == TFLACCEL_DTYPE_INT16)
        ((int16_t *)inputs[i])[k] = (int16_t)value;
      else if (tensor->dtype == TFLACCEL_DTYPE_INT32)
        ((int32_t *)inputs[i])[k] = (int32_t)value;
      else
        ((float *)inputs[i])[k] = value;
    }
  }
  graph->random_state = saved;
}

/* Checks that the GUARD_BYTES around [GUARD_BYTES, GUARD_BYTES + size) of
 * bytes still hold the sentinel. */
static void check_guards(const uint8_t *bytes, uint64_t size, const char *plugin, uint32_t tensor) {
  for (uint64_t i = 0; i < GUARD_BYTES; ++i) {
    ck_assert_msg(bytes[i] == SENTINEL, "%s wrote %llu bytes before tensor %u", plugin,
                  (unsigned long long)(GUARD_BYTES - i), tensor);
    ck_assert_msg(bytes[GUARD_BYTES + size + i] == SENTINEL,
                  "%s wrote byte %llu past the end of tensor %u", plugin, (unsigned long long)i,
                  tensor);
  }
}

static int has_state(const tflaccel_graph_view *view) {
  for (uint32_t t = 0; t < view->tensor_count; ++t)
    if (view->tensors[t].flags & TFLACCEL_TENSOR_VARIABLE) return 1;
  return 0;
}

/* The outputs' bytes (each binding's tensor bytes, one after another). */
static uint8_t *read_outputs(cf_plugin *plugin, const tflaccel_binding *bindings, uint32_t count,
                             uint32_t first_output, uint64_t *total) {
  *total = 0;
  for (uint32_t b = first_output; b < count; ++b) *total += bindings[b].size;
  uint8_t *bytes = malloc((size_t)*total + 1);
  ck_assert_ptr_nonnull(bytes);
  uint64_t at = 0;
  for (uint32_t b = first_output; b < count; ++b) {
    assert_ok(plugin->device->vtable->buffer_read(plugin->device, bindings[b].buffer,
                                                  bindings[b].offset, bytes + at, bindings[b].size),
              "buffer_read");
    at += bindings[b].size;
  }
  return bytes;
}

/* After two runs from the initial state: reset_state, then the same two
 * runs give the same outputs, bit for bit, and a third run (from another
 * state) changes them. */
static void check_reset_state(cf_plugin *plugin, tflaccel_executable *executable,
                              const tflaccel_binding *bindings, uint32_t count,
                              uint32_t first_output) {
  tflaccel_device *device = plugin->device;
  const tflaccel_device_vtable *vtable = device->vtable;
  ck_assert_msg(TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, reset_state) &&
                    vtable->reset_state != NULL,
                "%s accepts ops with state but has no reset_state", plugin->plugin->name);
  uint64_t size, again_size;
  uint8_t *before = read_outputs(plugin, bindings, count, first_output, &size);
  assert_ok(vtable->reset_state(device, executable), "reset_state");
  for (int run = 0; run < 2; ++run)
    assert_ok(vtable->execute(device, executable, bindings, count, NULL), "execute");
  uint8_t *again = read_outputs(plugin, bindings, count, first_output, &again_size);
  ck_assert_msg(size == again_size && memcmp(before, again, (size_t)size) == 0,
                "%s: two runs after reset_state differ from the first two", plugin->plugin->name);
  free(again);
  assert_ok(vtable->execute(device, executable, bindings, count, NULL), "execute");
  uint8_t *third = read_outputs(plugin, bindings, count, first_output, &again_size);
  ck_assert_msg(memcmp(before, third, (size_t)size) != 0,
                "%s: a third run from the state the second left gave the second's outputs",
                plugin->plugin->name);
  free(third);
  /* Back to where two runs leave it, for the caller's comparison. */
  assert_ok(vtable->reset_state(device, executable), "reset_state");
  for (int run = 0; run < 2; ++run)
    assert_ok(vtable->execute(device, executable, bindings, count, NULL), "execute");
  free(before);
}

/* Asks about op o with a support struct of ABI 1.2's size (no
 * `precision`): the plugin must not write past it, and must give the full
 * answer's level, except that an op needing another precision is declined. */
static void check_old_support_struct(cf_plugin *plugin, const tflaccel_graph_view *view, uint32_t o,
                                     const tflaccel_compile_options *options,
                                     const tflaccel_op_support *full) {
  union {
    tflaccel_op_support support;
    unsigned char bytes[sizeof(tflaccel_op_support)];
  } old;
  size_t old_size = offsetof(tflaccel_op_support, precision);
  memset(&old, SENTINEL, sizeof old);
  memset(&old, 0, old_size);
  old.support.struct_size = (uint32_t)old_size;
  tflaccel_device *device = plugin->device;
  assert_ok(device->vtable->supports_op(device, view, o, options, &old.support), "supports_op");
  for (size_t k = old_size; k < sizeof old; ++k)
    ck_assert_msg(old.bytes[k] == SENTINEL, "%s wrote byte %zu of a %zu-byte op support struct",
                  plugin->plugin->name, k, old_size);
  int needs_other = full->level == TFLACCEL_SUPPORT_YES && full->precision != -1 &&
                    full->precision != options->precision;
  ck_assert_int_eq(old.support.level, needs_other ? TFLACCEL_SUPPORT_NO : full->level);
}

/* Runs the graph as the core does when ops need another precision:
 * contiguous runs of ops (a case's op order is topological) of one
 * required precision are partitions, each compiled at its precision, their
 * boundary tensors passed through host memory. */
static void run_split(cf_plugin *plugin, cf_graph *graph, int32_t precision,
                      const int32_t *required, void *const inputs[CF_MAX_BOUNDARY],
                      cf_result *result) {
  const tflaccel_graph_view *view = cf_graph_view(graph);
  tflaccel_device *device = plugin->device;
  const tflaccel_device_vtable *vtable = device->vtable;
  ck_assert_msg(!has_state(view), "a graph with state is not split");
  void *values[CF_MAX_TENSORS] = {0};
  uint8_t owned[CF_MAX_TENSORS] = {0};
  int32_t producer[CF_MAX_TENSORS];
  for (uint32_t t = 0; t < view->tensor_count; ++t) producer[t] = -1;
  for (uint32_t o = 0; o < view->op_count; ++o)
    for (uint32_t k = 0; k < view->ops[o].output_count; ++k)
      producer[view->ops[o].outputs[k]] = (int32_t)o;
  for (uint32_t i = 0; i < graph->input_count; ++i) values[graph->inputs[i]] = inputs[i];
  for (uint32_t start = 0, end; start < view->op_count; start = end) {
    for (end = start + 1; end < view->op_count && required[end] == required[start];) ++end;
    uint32_t ops[CF_MAX_OPS], part_inputs[CF_MAX_TENSORS], part_outputs[CF_MAX_TENSORS];
    uint32_t input_count = 0, output_count = 0;
    uint8_t listed[CF_MAX_TENSORS] = {0};
    for (uint32_t o = start; o < end; ++o) {
      ops[o - start] = o;
      const tflaccel_op_desc *op = &view->ops[o];
      for (uint32_t k = 0; k < op->input_count; ++k) {
        uint32_t t = op->inputs[k];
        if (t == TFLACCEL_NO_TENSOR || (view->tensors[t].flags & TFLACCEL_TENSOR_CONSTANT) ||
            listed[t] || (producer[t] >= (int32_t)start && producer[t] < (int32_t)end))
          continue;
        ck_assert_msg(values[t] != NULL, "tensor %u is read before it is written", t);
        listed[t] = 1;
        part_inputs[input_count++] = t;
      }
      for (uint32_t k = 0; k < op->output_count; ++k) {
        uint32_t t = op->outputs[k];
        int leaves = 0;
        for (uint32_t i = 0; i < graph->output_count; ++i) leaves |= graph->outputs[i] == t;
        for (uint32_t c = end; c < view->op_count; ++c)
          for (uint32_t j = 0; j < view->ops[c].input_count; ++j) leaves |= view->ops[c].inputs[j] == t;
        if (leaves) part_outputs[output_count++] = t;
      }
    }
    tflaccel_compile_options options = {.struct_size = sizeof options,
                                        .precision = required[start] != -1 ? required[start] : precision,
                                        .thread_count = 1,
                                        .model_token = NULL};
    tflaccel_partition_desc partition = {.struct_size = sizeof partition,
                                         .op_count = end - start,
                                         .ops = ops,
                                         .input_count = input_count,
                                         .inputs = part_inputs,
                                         .output_count = output_count,
                                         .outputs = part_outputs};
    tflaccel_executable *executable = NULL;
    assert_ok(vtable->compile(device, view, &partition, &options, &executable), "compile");
    uint32_t count = input_count + output_count;
    tflaccel_binding bindings[2 * CF_MAX_TENSORS];
    for (uint32_t b = 0; b < count; ++b) {
      uint32_t t = b < input_count ? part_inputs[b] : part_outputs[b - input_count];
      bindings[b].tensor = t;
      bindings[b].offset = 0;
      bindings[b].size = view->tensors[t].byte_size;
      assert_ok(vtable->buffer_create(device, bindings[b].size ? bindings[b].size : 1,
                                      &bindings[b].buffer),
                "buffer_create");
      if (b < input_count)
        assert_ok(vtable->buffer_write(device, bindings[b].buffer, 0, values[t], bindings[b].size),
                  "buffer_write");
    }
    assert_ok(vtable->execute(device, executable, bindings, count, NULL), "execute");
    for (uint32_t b = 0; b < count; ++b) {
      if (b >= input_count) {
        uint32_t t = bindings[b].tensor;
        values[t] = malloc(bindings[b].size ? (size_t)bindings[b].size : 1);
        ck_assert_ptr_nonnull(values[t]);
        owned[t] = 1;
        assert_ok(vtable->buffer_read(device, bindings[b].buffer, 0, values[t], bindings[b].size),
                  "buffer_read");
      }
      vtable->buffer_destroy(device, bindings[b].buffer);
    }
    vtable->executable_destroy(device, executable);
    result->partition_count++;
    if (required[start] != -1) {
      if (result->other_precision_ops == 0) result->first_other_precision_op = start;
      result->other_precision_ops += end - start;
    }
  }
  for (uint32_t i = 0; i < graph->output_count; ++i) {
    uint32_t t = graph->outputs[i];
    ck_assert_msg(owned[t], "graph output %u was not computed", t);
    result->outputs[i] = values[t];
    owned[t] = 0;
  }
  for (uint32_t t = 0; t < view->tensor_count; ++t)
    if (owned[t]) free(values[t]);
}

void cf_run(cf_plugin *plugin, cf_graph *graph, int32_t precision,
            void *const inputs[CF_MAX_BOUNDARY], cf_result *result) {
  memset(result, 0, sizeof *result);
  const tflaccel_graph_view *view = cf_graph_view(graph);
  tflaccel_device *device = plugin->device;
  const tflaccel_device_vtable *vtable = device->vtable;
  tflaccel_compile_options options = {.struct_size = sizeof options,
                                      .precision = precision,
                                      .thread_count = 1,
                                      .model_token = NULL};
  uint32_t ops[CF_MAX_OPS];
  int32_t required[CF_MAX_OPS];
  int split = 0;
  for (uint32_t o = 0; o < view->op_count; ++o) {
    ops[o] = o;
    tflaccel_op_support support;
    memset(&support, 0, sizeof support);
    support.struct_size = sizeof support;
    support.precision = -1;
    assert_ok(vtable->supports_op(device, view, o, &options, &support), "supports_op");
    check_old_support_struct(plugin, view, o, &options, &support);
    if (support.level != TFLACCEL_SUPPORT_YES) {
      result->declined = 1;
      snprintf(result->reason, sizeof result->reason, "op %u: %s", o, support.reason);
      return;
    }
    required[o] = support.precision == precision ? -1 : support.precision;
    split |= required[o] != -1;
  }
  if (split) {
    run_split(plugin, graph, precision, required, inputs, result);
    return;
  }
  result->partition_count = 1;
  tflaccel_partition_desc partition = {.struct_size = sizeof partition,
                                       .op_count = view->op_count,
                                       .ops = ops,
                                       .input_count = graph->input_count,
                                       .inputs = graph->inputs,
                                       .output_count = graph->output_count,
                                       .outputs = graph->outputs};
  tflaccel_executable *executable = NULL;
  assert_ok(vtable->compile(device, view, &partition, &options, &executable), "compile");
  uint32_t count = graph->input_count + graph->output_count;
  tflaccel_binding bindings[2 * CF_MAX_BOUNDARY];
  uint8_t *framed[2 * CF_MAX_BOUNDARY];
  for (uint32_t b = 0; b < count; ++b) {
    int is_input = b < graph->input_count;
    uint32_t tensor = is_input ? graph->inputs[b] : graph->outputs[b - graph->input_count];
    uint64_t size = graph->tensors[tensor].byte_size;
    uint64_t total = size + 2 * GUARD_BYTES;
    framed[b] = malloc((size_t)total);
    ck_assert_ptr_nonnull(framed[b]);
    memset(framed[b], SENTINEL, (size_t)total);
    if (is_input) memcpy(framed[b] + GUARD_BYTES, inputs[b], (size_t)size);
    bindings[b].tensor = tensor;
    bindings[b].offset = GUARD_BYTES;
    bindings[b].size = size;
    assert_ok(vtable->buffer_create(device, total, &bindings[b].buffer), "buffer_create");
    assert_ok(vtable->buffer_write(device, bindings[b].buffer, 0, framed[b], total),
              "buffer_write");
  }
  /* Twice: a second run reuses everything the first set up (and, in a
   * graph with state, starts from the state the first left). */
  for (int run = 0; run < 2; ++run)
    assert_ok(vtable->execute(device, executable, bindings, count, NULL), "execute");
  if (has_state(view)) check_reset_state(plugin, executable, bindings, count, graph->input_count);
  for (uint32_t b = 0; b < count; ++b) {
    int is_input = b < graph->input_count;
    uint64_t size = bindings[b].size;
    assert_ok(vtable->buffer_read(device, bindings[b].buffer, 0, framed[b], size + 2 * GUARD_BYTES),
              "buffer_read");
    check_guards(framed[b], size, plugin->plugin->name, bindings[b].tensor);
    if (is_input) {
      ck_assert_msg(memcmp(framed[b] + GUARD_BYTES, inputs[b], (size_t)size) == 0,
                    "%s changed input tensor %u", plugin->plugin->name, bindings[b].tensor);
    } else {
      void *output = malloc((size_t)size ? (size_t)size : 1);
      ck_assert_ptr_nonnull(output);
      memcpy(output, framed[b] + GUARD_BYTES, (size_t)size);
      result->outputs[b - graph->input_count] = output;
    }
    vtable->buffer_destroy(device, bindings[b].buffer);
    free(framed[b]);
  }
  vtable->executable_destroy(device, executable);
}

void cf_result_release(cf_result *result, uint32_t output_count) {
  for (uint32_t i = 0; i < output_count; ++i) free(result->outputs[i]);
  memset(result, 0, sizeof *result);
}
