/* inference_diff's inputs: Gaussian floats (mean 0, standard deviation 1,
 * by Box-Muller on the xorshift32 stream of input_generator) and integers
 * uniform over their type's whole range; a fresh draw each run. */
#ifndef TFLACCEL_TOOLS_BENCH_RANDOM_INPUTS_H
#define TFLACCEL_TOOLS_BENCH_RANDOM_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "tools/tflaccel/input_generator.h"

typedef struct random_inputs {
  input_generator uniform;
  int has_spare; /* Box-Muller makes normals in pairs: the second waits here */
  double spare;
} random_inputs;

void random_inputs_init(random_inputs *random, uint32_t seed);
/* One standard normal value. */
double random_inputs_gaussian(random_inputs *random);
/* Fills count elements of dtype at data; returns 0 for a dtype it cannot
 * make (string, int4, complex, ...). */
int random_inputs_fill(random_inputs *random, int32_t dtype, void *data, size_t count);

#endif
