#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/graph_copy.h"

/* Bytes are laid out in two passes over the same code: the first (base NULL)
 * only counts, the second copies. */
typedef struct copy_cursor {
  unsigned char *base;
  size_t used;
} copy_cursor;

static void *cursor_take(copy_cursor *cursor, const void *source, size_t size, size_t align) {
  cursor->used = (cursor->used + align - 1) / align * align;
  void *at = cursor->base != NULL ? cursor->base + cursor->used : NULL;
  if (at != NULL && size > 0) {
    if (source != NULL)
      memcpy(at, source, size);
    else
      memset(at, 0, size); /* an absent params block reads as zeroed */
  }
  cursor->used += size;
  return at;
}

static const char *cursor_string(copy_cursor *cursor, const char *string) {
  if (string == NULL) return NULL;
  return cursor_take(cursor, string, strlen(string) + 1, 1);
}

static void copy_graph(copy_cursor *cursor, const tflaccel_graph_view *graph,
                       tflaccel_graph_view *view) {
  tflaccel_tensor_desc *tensors = cursor_take(
      cursor, graph->tensors, sizeof *tensors * graph->tensor_count, _Alignof(tflaccel_tensor_desc));
  tflaccel_op_desc *ops =
      cursor_take(cursor, graph->ops, sizeof *ops * graph->op_count, _Alignof(tflaccel_op_desc));
  for (uint32_t i = 0; i < graph->tensor_count; i++) {
    const tflaccel_tensor_desc *source = &graph->tensors[i];
    const int32_t *dims =
        cursor_take(cursor, source->dims, sizeof(int32_t) * source->rank, _Alignof(int32_t));
    const char *name = cursor_string(cursor, source->name != NULL ? source->name : "");
    uint32_t count = source->quantization.count;
    const float *scales = NULL;
    const int32_t *zero_points = NULL;
    if (source->quantization.scales != NULL)
      scales = cursor_take(cursor, source->quantization.scales, sizeof(float) * count,
                           _Alignof(float));
    if (source->quantization.zero_points != NULL)
      zero_points = cursor_take(cursor, source->quantization.zero_points,
                                sizeof(int32_t) * count, _Alignof(int32_t));
    if (tensors != NULL) {
      tensors[i].struct_size = sizeof tensors[i];
      tensors[i].dims = dims;
      tensors[i].name = name;
      tensors[i].quantization.scales = scales;
      tensors[i].quantization.zero_points = zero_points;
    }
  }
  for (uint32_t i = 0; i < graph->op_count; i++) {
    const tflaccel_op_desc *source = &graph->ops[i];
    const tflaccel_op_params *params = cursor_take(cursor, source->params, sizeof *params,
                                                   _Alignof(tflaccel_op_params));
    const char *custom_code = cursor_string(cursor, source->custom_code);
    const void *custom_options = NULL;
    if (source->custom_options != NULL)
      custom_options =
          cursor_take(cursor, source->custom_options, source->custom_options_size, 8);
    const uint32_t *inputs = cursor_take(cursor, source->inputs,
                                         sizeof(uint32_t) * source->input_count, 4);
    const uint32_t *outputs = cursor_take(cursor, source->outputs,
                                          sizeof(uint32_t) * source->output_count, 4);
    const uint32_t *intermediates = NULL;
    if (source->intermediates != NULL)
      intermediates = cursor_take(cursor, source->intermediates,
                                  sizeof(uint32_t) * source->intermediate_count, 4);
    if (ops != NULL) {
      ops[i].struct_size = sizeof ops[i];
      ops[i].params = params;
      ops[i].custom_code = custom_code;
      ops[i].custom_options = custom_options;
      ops[i].inputs = inputs;
      ops[i].outputs = outputs;
      ops[i].intermediates = intermediates;
    }
  }
  view->struct_size = sizeof *view;
  view->tensor_count = graph->tensor_count;
  view->tensors = tensors;
  view->op_count = graph->op_count;
  view->ops = ops;
}

tflaccel_status cpu_graph_copy_create(const tflaccel_host_services *host,
                                      const tflaccel_graph_view *graph, cpu_graph_copy *copy) {
  memset(copy, 0, sizeof *copy);
  copy_cursor cursor = {NULL, 0};
  copy_graph(&cursor, graph, &copy->view);
  copy->storage = host->alloc(host->context, cursor.used, 16);
  if (copy->storage == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                             "cpu_ref: no memory to keep the graph (%zu bytes)", cursor.used);
  cursor.base = copy->storage;
  cursor.used = 0;
  copy_graph(&cursor, graph, &copy->view);
  return NULL;
}

void cpu_graph_copy_destroy(const tflaccel_host_services *host, cpu_graph_copy *copy) {
  if (copy->storage != NULL) host->free(host->context, copy->storage);
  memset(copy, 0, sizeof *copy);
}
