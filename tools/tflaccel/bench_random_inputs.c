#include "config.h"

#include <math.h>

#include "core/facts/half.h"
#include "tflaccel/types.h"
#include "tools/tflaccel/bench_random_inputs.h"

void random_inputs_init(random_inputs *random, uint32_t seed) {
  input_generator_init(&random->uniform, seed);
  random->has_spare = 0;
  random->spare = 0.0;
}

double random_inputs_gaussian(random_inputs *random) {
  if (random->has_spare) {
    random->has_spare = 0;
    return random->spare;
  }
  /* u1 in (0, 1] keeps log() finite; u2 in [0, 1). */
  double u1 = ((double)input_generator_next(&random->uniform) + 1.0) / 4294967296.0;
  double u2 = (double)input_generator_next(&random->uniform) / 4294967296.0;
  double radius = sqrt(-2.0 * log(u1));
  double angle = 2.0 * M_PI * u2;
  random->spare = radius * sin(angle);
  random->has_spare = 1;
  return radius * cos(angle);
}

int random_inputs_fill(random_inputs *random, int32_t dtype, void *data, size_t count) {
  input_generator *uniform = &random->uniform;
  for (size_t i = 0; i < count; ++i) {
    switch (dtype) {
    case TFLACCEL_DTYPE_FLOAT32: ((float *)data)[i] = (float)random_inputs_gaussian(random); break;
    case TFLACCEL_DTYPE_FLOAT16:
      ((uint16_t *)data)[i] = half_from_float((float)random_inputs_gaussian(random));
      break;
    case TFLACCEL_DTYPE_UINT8:
      ((uint8_t *)data)[i] = (uint8_t)(input_generator_next(uniform) >> 24);
      break;
    case TFLACCEL_DTYPE_INT8:
      ((int8_t *)data)[i] = (int8_t)(input_generator_next(uniform) >> 24);
      break;
    case TFLACCEL_DTYPE_INT16:
      ((int16_t *)data)[i] = (int16_t)(input_generator_next(uniform) >> 16);
      break;
    case TFLACCEL_DTYPE_INT32: ((int32_t *)data)[i] = (int32_t)input_generator_next(uniform); break;
    case TFLACCEL_DTYPE_INT64: {
      uint64_t high = input_generator_next(uniform);
      ((int64_t *)data)[i] = (int64_t)((high << 32) | input_generator_next(uniform));
      break;
    }
    case TFLACCEL_DTYPE_BOOL:
      ((uint8_t *)data)[i] = (uint8_t)(input_generator_next(uniform) >> 31);
      break;
    case TFLACCEL_DTYPE_FLOAT64: ((double *)data)[i] = random_inputs_gaussian(random); break;
    case TFLACCEL_DTYPE_UINT16:
      ((uint16_t *)data)[i] = (uint16_t)(input_generator_next(uniform) >> 16);
      break;
    case TFLACCEL_DTYPE_UINT32: ((uint32_t *)data)[i] = input_generator_next(uniform); break;
    case TFLACCEL_DTYPE_UINT64: {
      uint64_t high = input_generator_next(uniform);
      ((uint64_t *)data)[i] = (high << 32) | input_generator_next(uniform);
      break;
    }
    default: return 0;
    }
  }
  return 1;
}
