/* One host buffer per input and output of a compiled model, the set that
 * bench and diff run the model with again and again. */
#ifndef TFLACCEL_TOOLS_BENCH_BUFFERS_H
#define TFLACCEL_TOOLS_BENCH_BUFFERS_H

#include "tflaccel/tflaccel.h"

typedef struct model_buffers {
  tflaccel_tensor_buffer **inputs, **outputs;
  uint32_t input_count, output_count;
} model_buffers;

/* On failure nothing is left to destroy. */
tflaccel_status model_buffers_create(const tflaccel_compiled_model *compiled,
                                     model_buffers *buffers);
void model_buffers_destroy(model_buffers *buffers);
/* One inference; returns when the outputs are ready. */
tflaccel_status model_buffers_run(tflaccel_compiled_model *compiled, const model_buffers *buffers);
/* Number of elements of a buffer (0 for dtypes without a fixed size). */
size_t model_buffer_element_count(const tflaccel_tensor_buffer *buffer);

#endif
