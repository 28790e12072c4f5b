/* benchmark_model's model input flags: --input_layer (names, one per model
 * input, in order), --input_layer_shape (must equal the stored shapes:
 * tflaccel runs static shapes), --input_layer_value_range (NAME,LOW,HIGH
 * items separated by ':', inclusive) and --input_layer_value_files
 * (NAME:PATH items separated by ',', "::" for a ':' in a name; raw bytes). */
#ifndef TFLACCEL_TOOLS_INPUT_LAYERS_H
#define TFLACCEL_TOOLS_INPUT_LAYERS_H

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"

typedef struct input_layer_flags {
  const char *names, *shapes, *value_ranges, *value_files; /* NULL: not given */
} input_layer_flags;

/* Fills every input buffer: from its file, else uniform in its range, else
 * from the xorshift32 generator (seed 1). Errors name the flag and input. */
tflaccel_status input_layers_fill(const input_layer_flags *flags,
                                  const tflaccel_compiled_model *compiled,
                                  const model_buffers *buffers);

#endif
