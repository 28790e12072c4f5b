#include "config.h"

#include <string.h>

#include "core/facts/half.h"
#include "tools/tflaccel/input_generator.h"
#include "tflaccel/types.h"

void input_generator_init(input_generator *generator, uint32_t seed) {
  /* xorshift32 never leaves 0: map seed 0 to 1. */
  generator->state = seed ? seed : 1u;
}

uint32_t input_generator_next(input_generator *generator) {
  uint32_t s = generator->state;
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  generator->state = s;
  return s;
}

static float next_float(input_generator *generator) {
  return (float)(-1.0 + 2.0 * ((double)input_generator_next(generator) / 4294967296.0));
}

int input_generator_fill(input_generator *generator, int32_t dtype, void *data, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    switch (dtype) {
    case TFLACCEL_DTYPE_FLOAT32: ((float *)data)[i] = next_float(generator); break;
    case TFLACCEL_DTYPE_FLOAT16: ((uint16_t *)data)[i] = half_from_float(next_float(generator)); break;
    case TFLACCEL_DTYPE_UINT8: ((uint8_t *)data)[i] = (uint8_t)(input_generator_next(generator) >> 24); break;
    case TFLACCEL_DTYPE_INT8: ((int8_t *)data)[i] = (int8_t)(input_generator_next(generator) >> 24); break;
    case TFLACCEL_DTYPE_INT16: ((int16_t *)data)[i] = (int16_t)(input_generator_next(generator) >> 16); break;
    case TFLACCEL_DTYPE_INT32: ((int32_t *)data)[i] = (int32_t)(input_generator_next(generator) % 100u); break;
    case TFLACCEL_DTYPE_INT64: ((int64_t *)data)[i] = (int64_t)(input_generator_next(generator) % 100u); break;
    case TFLACCEL_DTYPE_BOOL: ((uint8_t *)data)[i] = (uint8_t)(input_generator_next(generator) >> 31); break;
    default: return 0;
    }
  }
  return 1;
}
