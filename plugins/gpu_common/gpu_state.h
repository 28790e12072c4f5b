/* Variable (state) tensors on the GPU: values an op updates in place and
 * the next run reads again (UNIDIRECTIONAL_SEQUENCE_LSTM's output and cell
 * states). They live in a buffer of their own, the state buffer, which
 * the arena planner never sees (nothing else may reuse their bytes),
 * filled with their initial values at compile and at reset_state
 * (gpu_executable.c). The partitioner keeps a variable inside the
 * partition of the ops that use it, so no other partition reads it. */
#ifndef TFLACCEL_GPU_COMMON_GPU_STATE_H
#define TFLACCEL_GPU_COMMON_GPU_STATE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_lowering_state.h"

/* Gives variable graph tensor `tensor` its bytes in the state buffer and
 * records its initial value there: its data (a quantized one dequantized),
 * else TFLite's reset value (0; an int8 state its zero point, the real 0;
 * other integers the integer 0). */
tflaccel_status lower_place_state(gpu_lowering *lw, uint32_t tensor);

/* Makes argument `argument` of dispatch see its tensor from element
 * `elements` on (one step of a sequence), whatever buffer holds it. */
void lower_offset_argument(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                           uint32_t elements);

#endif
