#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/bench_buffers.h"

void model_buffers_destroy(model_buffers *buffers) {
  for (uint32_t i = 0; buffers->inputs && i < buffers->input_count; ++i)
    tflaccel_tensor_buffer_destroy(buffers->inputs[i]);
  for (uint32_t i = 0; buffers->outputs && i < buffers->output_count; ++i)
    tflaccel_tensor_buffer_destroy(buffers->outputs[i]);
  free(buffers->inputs);
  free(buffers->outputs);
  memset(buffers, 0, sizeof *buffers);
}

tflaccel_status model_buffers_create(const tflaccel_compiled_model *compiled,
                                     model_buffers *buffers) {
  memset(buffers, 0, sizeof *buffers);
  uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
  /* +1: calloc(0) may return NULL, which must not read as out of memory. */
  buffers->inputs = calloc(input_count + 1, sizeof *buffers->inputs);
  buffers->outputs = calloc(output_count + 1, sizeof *buffers->outputs);
  buffers->input_count = input_count;
  buffers->output_count = output_count;
  if (buffers->inputs == NULL || buffers->outputs == NULL) {
    model_buffers_destroy(buffers);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY,
                                "out of memory for %u input and %u output buffers", input_count,
                                output_count);
  }
  tflaccel_status status = NULL;
  for (uint32_t i = 0; status == NULL && i < input_count; ++i)
    status = tflaccel_compiled_model_create_input_buffer(compiled, i, &buffers->inputs[i]);
  for (uint32_t i = 0; status == NULL && i < output_count; ++i)
    status = tflaccel_compiled_model_create_output_buffer(compiled, i, &buffers->outputs[i]);
  if (status != NULL) model_buffers_destroy(buffers);
  return status;
}

tflaccel_status model_buffers_run(tflaccel_compiled_model *compiled, const model_buffers *buffers) {
  return tflaccel_compiled_model_run(compiled, buffers->inputs, buffers->input_count,
                                     buffers->outputs, buffers->output_count);
}

size_t model_buffer_element_count(const tflaccel_tensor_buffer *buffer) {
  size_t element_size = tflaccel_dtype_size(tflaccel_tensor_buffer_dtype(buffer));
  return element_size ? tflaccel_tensor_buffer_byte_size(buffer) / element_size : 0;
}
