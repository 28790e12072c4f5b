/* Deterministic model inputs: the xorshift32 stream that produced the
 * reference outputs in ../shared/models (see its README), so that
 * `tflaccel run MODEL` without --input reproduces the references. */
#ifndef TFLACCEL_TOOLS_INPUT_GENERATOR_H
#define TFLACCEL_TOOLS_INPUT_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct input_generator {
  uint32_t state;
} input_generator;

void input_generator_init(input_generator *generator, uint32_t seed);
uint32_t input_generator_next(input_generator *generator);
/* Fills count elements of dtype at data from the stream; returns 0 for a
 * dtype the generator does not know. */
int input_generator_fill(input_generator *generator, int32_t dtype, void *data, size_t count);

#endif
