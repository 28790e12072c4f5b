/* libFuzzer target for the model loader: any bytes must either load into a
 * consistent model or fail with a one-line message, without reading outside
 * the input. Built and run by `make fuzz-loader` (clang, ASan, UBSan). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph/model.h"
#include "tflaccel/tflaccel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch_model(const tflaccel_model *model) {
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  tflaccel_status status = tflaccel_model_get_summary(model, &summary);
  if (status) abort(); /* a loaded model always has a summary */
  volatile uint64_t sink = summary.weight_bytes + summary.peak_activation_bytes;
  sink += strlen(summary.description);
  for (uint32_t t = 0; t < summary.tensor_count; ++t) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    if (tflaccel_model_tensor_info(model, t, &info)) abort();
    sink += strlen(info.name);
    for (uint32_t k = 0; k < info.rank; ++k) sink += (uint32_t)info.shape[k];
    for (uint32_t k = 0; k < info.shape_signature_rank; ++k) sink += (uint32_t)info.shape_signature[k];
    for (uint32_t k = 0; k < info.quantization.count; ++k)
      sink += (uint32_t)info.quantization.zero_points[k] + (info.quantization.scales[k] > 0.0f);
  }
  for (uint32_t o = 0; o < summary.op_count; ++o) {
    tflaccel_op_info info = {.struct_size = sizeof info};
    if (tflaccel_model_op_info(model, o, &info)) abort();
    sink += strlen(info.name) + (info.custom_code ? strlen(info.custom_code) : 0);
    for (uint32_t k = 0; k < info.input_count; ++k) sink += (uint32_t)info.inputs[k];
    for (uint32_t k = 0; k < info.output_count; ++k) sink += (uint32_t)info.outputs[k];
  }
  for (uint32_t i = 0; i < summary.subgraph_count; ++i) sink += strlen(tflaccel_model_subgraph_name(model, i));
  for (uint32_t i = 0; i < summary.metadata_count; ++i) sink += strlen(tflaccel_model_metadata_name(model, i));
  for (uint32_t i = 0; i < summary.signature_count; ++i) sink += strlen(tflaccel_model_signature_key(model, i));
  /* The prepared graph: every constant byte and every index. */
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  for (uint32_t t = 0; t < graph->tensor_count; ++t) {
    const tflaccel_tensor_desc *desc = &graph->tensors[t];
    const uint8_t *bytes = desc->data;
    for (uint64_t i = 0; i < desc->data_size; ++i) sink += bytes[i];
    for (uint32_t k = 0; k < desc->rank; ++k) sink += (uint32_t)desc->dims[k];
    uint32_t count;
    const uint32_t *consumers = model_tensor_consumers(model, t, &count);
    for (uint32_t i = 0; i < count; ++i) if (consumers[i] >= graph->op_count) abort();
    if (model_tensor_producer(model, t) >= (int32_t)graph->op_count) abort();
  }
  for (uint32_t p = 0; p < graph->op_count; ++p) {
    const tflaccel_op_desc *op = &graph->ops[p];
    if (op->params == NULL) abort();
    for (uint32_t k = 0; k < op->input_count; ++k)
      if (op->inputs[k] != TFLACCEL_NO_TENSOR && op->inputs[k] >= graph->tensor_count) abort();
    for (uint32_t k = 0; k < op->output_count; ++k)
      if (op->outputs[k] >= graph->tensor_count) abort();
    const uint8_t *options = op->custom_options;
    for (uint32_t k = 0; k < op->custom_options_size; ++k) sink += options[k];
  }
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(data, size, &model);
  if (status) {
    const char *message = tflaccel_status_message(status);
    if (message[0] == '\0' || strchr(message, '\n') != NULL) abort(); /* one readable line */
    tflaccel_status_free(status);
    return 0;
  }
  touch_model(model);
  tflaccel_model_destroy(model);
  return 0;
}
