/* Variable tensors in the state buffer (gpu_state.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_state.h"

/* The real value a variable without data starts from (and returns to). */
static float reset_value(const tflaccel_tensor_desc *desc) {
  const tflaccel_quantization *q = &desc->quantization;
  if (desc->dtype == TFLACCEL_DTYPE_FLOAT32 || desc->dtype == TFLACCEL_DTYPE_INT8 ||
      q->count == 0 || q->scales == NULL || q->zero_points == NULL)
    return 0.0f;
  return (float)(0 - q->zero_points[0]) * q->scales[0];
}

tflaccel_status lower_place_state(gpu_lowering *lw, uint32_t tensor) {
  const tflaccel_host_services *host = lw->host;
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[tensor];
  lower_tensor *lt = &lw->tensors[tensor];
  gpu_program *program = lw->program;
  uint64_t offset = (program->state_size + LOWER_ARENA_ALIGNMENT - 1) / LOWER_ARENA_ALIGNMENT *
                    LOWER_ARENA_ALIGNMENT;
  uint64_t bytes = (uint64_t)gpu_shape_stored_elements(lt->shape) * program->element_size;
  uint64_t size = offset + bytes;
  uint8_t *grown = host->alloc(host->context, (size_t)size, 16);
  if (grown == NULL) return lower_out_of_memory(lw, "variable state");
  memset(grown, 0, (size_t)size);
  if (program->state_initial != NULL) {
    memcpy(grown, program->state_initial, (size_t)program->state_size);
    host->free(host->context, program->state_initial);
  }
  program->state_initial = grown;
  program->state_size = size;
  /* The initial values in the slice layout, padding channels zero. */
  int64_t pixels = gpu_shape_pixels(lt->shape);
  int32_t channels = lt->shape.c, slices = lt->shape.s;
  int has_data = desc->data != NULL && desc->data_size >= desc->byte_size;
  /* A builder may store a variable in more elements than the model's shape
   * (SVDF's integer state, two digits a value: ops/svdf.c) and writes
   * their initial values itself; only the tensor's own are read here. */
  int64_t elements = 1;
  for (uint32_t d = 0; d < desc->rank; ++d) elements *= desc->dims[d];
  float reset = reset_value(desc);
  for (int64_t p = 0; p < pixels; ++p)
    for (int32_t c = 0; c < channels; ++c) {
      int64_t index = p * channels + c;
      float value = has_data && index < elements ? gpu_constant_value(desc, index) : reset;
      gpu_store_value(program->state_initial + offset, program->element_size,
                      (uint64_t)(p * slices * 4 + c), value);
    }
  lt->storage = GPU_BUFFER_STATE;
  lt->constant_offset = offset;
  lt->ready = 1;
  return NULL;
}

void lower_offset_argument(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                           uint32_t elements) {
  gpu_argument *arg = &lw->program->dispatches[dispatch].args[argument];
  arg->element_offset += elements;
  /* The arena plan and a binding set the parameter later, adding the
   * offset then; the others hold their final offset already. */
  if (arg->kind == GPU_BUFFER_STATE || arg->kind == GPU_BUFFER_CONSTANTS)
    gpu_program_params(lw->program, dispatch)[argument] += (int32_t)elements;
}
