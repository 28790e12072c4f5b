/* The emit helpers (gpu_emit.h): how a dispatch binds tensors, constants
 * and post-ops, and how it absorbs the elementwise ops that follow it. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_quant.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_post_op.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/gpu_state.h"

/* Preferred work-group size: enough threads to fill a warp or two. */
#define LOWER_GROUP_THREADS 64

tflaccel_status lower_out_of_memory(const gpu_lowering *lw, const char *what) {
  return lw->host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (%s)",
                               lw->backend->plugin_name, what);
}

tflaccel_status lower_add_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t *dispatch) {
  return gpu_program_add_dispatch(lw->host, lw->program, kernel, dispatch);
}

uint32_t lower_storage_root(const gpu_lowering *lw, uint32_t tensor) {
  while (lw->tensors[tensor].alias >= 0) tensor = (uint32_t)lw->tensors[tensor].alias;
  return tensor;
}

static tflaccel_status add_request(gpu_lowering *lw, uint64_t size, uint32_t first,
                                   int32_t *request) {
  if (!gpu_array_reserve(lw->host, (void **)&lw->requests, &lw->request_capacity,
                         lw->request_count + 1, sizeof *lw->requests,
                         _Alignof(tflaccel_arena_request)))
    return lower_out_of_memory(lw, "arena requests");
  tflaccel_arena_request *r = &lw->requests[lw->request_count];
  r->size = size;
  r->first_use = (int32_t)first;
  r->last_use = (int32_t)first;
  r->offset = 0;
  *request = (int32_t)lw->request_count++;
  return NULL;
}

static tflaccel_status add_fixup(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                 int32_t request) {
  if (!gpu_array_reserve(lw->host, (void **)&lw->fixups, &lw->fixup_capacity, lw->fixup_count + 1,
                         sizeof *lw->fixups, _Alignof(lower_fixup)))
    return lower_out_of_memory(lw, "arena fix-ups");
  lower_fixup *f = &lw->fixups[lw->fixup_count++];
  f->dispatch = dispatch;
  f->argument = argument;
  f->request = request;
  f->unit = 0;
  tflaccel_arena_request *r = &lw->requests[request];
  if (r->last_use < (int32_t)dispatch) r->last_use = (int32_t)dispatch;
  return NULL;
}

/* Copies a constant graph tensor into the constants buffer, slice layout
 * (a quantized one dequantized, once, here). */
static tflaccel_status materialise_constant(gpu_lowering *lw, uint32_t tensor) {
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[tensor];
  lower_tensor *lt = &lw->tensors[tensor];
  gpu_program *program = lw->program;
  uint64_t offset = 0;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)gpu_shape_stored_elements(lt->shape) * program->element_size,
      LOWER_ARENA_ALIGNMENT, &offset);
  if (status != NULL) return status;
  int64_t pixels = gpu_shape_pixels(lt->shape);
  int32_t channels = lt->shape.c, slices = lt->shape.s;
  for (int64_t p = 0; p < pixels; ++p)
    for (int32_t c = 0; c < channels; ++c) {
      int64_t from = p * channels + c;
      float value;
      if (desc->dtype == TFLACCEL_DTYPE_BOOL) {
        value = ((const uint8_t *)desc->data)[from] != 0 ? 1.0f : 0.0f;
      } else {
        value = gpu_constant_value(desc, from);
      }
      gpu_program_store_constant(program, offset, (uint64_t)(p * slices * 4 + c), value);
    }
  lt->storage = GPU_BUFFER_CONSTANTS;
  lt->constant_offset = offset;
  lt->ready = 1;
  return NULL;
}

/* A variable tensor's bytes in the state buffer (gpu_state.h). */
static void bind_state(gpu_lowering *lw, uint32_t dispatch, uint32_t argument, uint32_t root) {
  const lower_tensor *lt = &lw->tensors[root];
  gpu_argument *arg = &lw->program->dispatches[dispatch].args[argument];
  arg->kind = GPU_BUFFER_STATE;
  arg->arena_offset = lt->constant_offset;
  arg->arena_size = (uint64_t)gpu_shape_stored_elements(lt->shape) * lw->program->element_size;
  gpu_program_params(lw->program, dispatch)[argument] =
      (int32_t)(lt->constant_offset / lw->program->element_size);
}

void lower_bind_constants(gpu_lowering *lw, uint32_t dispatch, uint32_t argument, uint64_t offset) {
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  d->args[argument].kind = GPU_BUFFER_CONSTANTS;
  gpu_program_params(lw->program, dispatch)[argument] =
      (int32_t)(offset / lw->program->element_size);
}

void lower_read_words(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  int32_t grid[5];
  lower_dense_kind_params(lw, tensor, grid);
  int is_int8 = grid[0] == GPU_DENSE_INT8;
  gpu_shape shape = lw->tensors[tensor].shape;
  int32_t *params = gpu_program_params(lw->program, dispatch);
  params[GPU_P_OUT_DENSE] |= GPU_IN_WORDS;
  params[GPU_P_KERNEL + 12] = grid[1];
  params[GPU_P_KERNEL + 13] = grid[2] + (is_int8 ? 128 : 0);
  params[GPU_P_KERNEL + 14] = is_int8 ? (int32_t)0x80808080u : 0;
  params[GPU_P_KERNEL + 15] = 4 - (shape.s * 4 - shape.c);
}

/* Input t1 of GPU_KERNEL_CONV2D dispatch `dispatch`, an 8-bit partition
 * input read in place (GPU_IN_WORDS: offsets in words); the lowering
 * promised no other reader (gpu_op_builder.reads_input_words). */
static tflaccel_status bind_input_words(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                        uint32_t tensor) {
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  if (!lower_reads_words_as(d, argument))
    return lw->host->status_make(TFLACCEL_INTERNAL,
                                 "%s: tensor %u is read in place as 8-bit words, but by kernel "
                                 "%s argument %u",
                                 lw->backend->plugin_name, tensor, gpu_kernel_name(d->kernel),
                                 argument);
  d->args[argument].offset_unit = 4;
  lower_read_words(lw, dispatch, tensor);
  return NULL;
}

tflaccel_status lower_bind_input(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                 uint32_t tensor) {
  uint32_t root = lower_storage_root(lw, tensor);
  lower_tensor *lt = &lw->tensors[root];
  lt->read = 1;
  if (lt->storage == GPU_BUFFER_NONE && root < lw->graph->tensor_count &&
      (lw->graph->tensors[root].flags & TFLACCEL_TENSOR_CONSTANT)) {
    tflaccel_status status = materialise_constant(lw, root);
    if (status != NULL) return status;
  }
  if (lt->storage == GPU_BUFFER_NONE && root < lw->graph->tensor_count &&
      (lw->graph->tensors[root].flags & TFLACCEL_TENSOR_VARIABLE)) {
    tflaccel_status status = lower_place_state(lw, root);
    if (status != NULL) return status;
  }
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  int32_t *params = gpu_program_params(lw->program, dispatch);
  switch (lt->storage) {
    case GPU_BUFFER_CONSTANTS:
      lower_bind_constants(lw, dispatch, argument, lt->constant_offset);
      return NULL;
    case GPU_BUFFER_BINDING:
      d->args[argument].kind = GPU_BUFFER_BINDING;
      d->args[argument].binding = lt->binding;
      d->args[argument].offset_unit = lw->program->element_size;
      params[argument] = 0;
      return lt->words_in_place ? bind_input_words(lw, dispatch, argument, root) : NULL;
    case GPU_BUFFER_ARENA:
      d->args[argument].kind = GPU_BUFFER_ARENA;
      return add_fixup(lw, dispatch, argument, lt->request);
    case GPU_BUFFER_STATE:
      bind_state(lw, dispatch, argument, root);
      return NULL;
    default:
      return lw->host->status_make(TFLACCEL_INTERNAL,
                                   "%s: tensor %u is read before anything writes it",
                                   lw->backend->plugin_name, tensor);
  }
}

/* Binds tensor as written argument `argument` of dispatch, in the arena
 * when it is not yet stored anywhere. */
static tflaccel_status bind_written(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                    uint32_t tensor) {
  uint32_t root = lower_storage_root(lw, tensor);
  lower_tensor *lt = &lw->tensors[root];
  gpu_program *program = lw->program;
  if (lt->storage == GPU_BUFFER_NONE && root < lw->graph->tensor_count &&
      (lw->graph->tensors[root].flags & TFLACCEL_TENSOR_VARIABLE)) {
    tflaccel_status status = lower_place_state(lw, root);
    if (status != NULL) return status;
  }
  if (lt->storage == GPU_BUFFER_NONE) {
    tflaccel_status status =
        add_request(lw, (uint64_t)gpu_shape_stored_elements(lt->shape) * program->element_size,
                    dispatch, &lt->request);
    if (status != NULL) return status;
    lt->storage = GPU_BUFFER_ARENA;
  }
  gpu_dispatch *d = &program->dispatches[dispatch];
  int32_t *params = gpu_program_params(program, dispatch);
  if (lt->storage == GPU_BUFFER_BINDING) {
    d->args[argument].kind = GPU_BUFFER_BINDING;
    d->args[argument].binding = lt->binding;
    d->args[argument].offset_unit = program->element_size;
    params[argument] = 0;
  } else if (lt->storage == GPU_BUFFER_ARENA) {
    d->args[argument].kind = GPU_BUFFER_ARENA;
    tflaccel_status status = add_fixup(lw, dispatch, argument, lt->request);
    if (status != NULL) return status;
  } else if (lt->storage == GPU_BUFFER_STATE) {
    bind_state(lw, dispatch, argument, root);
  } else {
    return lw->host->status_make(TFLACCEL_INTERNAL, "%s: tensor %u is written but is a constant",
                                 lw->backend->plugin_name, tensor);
  }
  lw->tensors[tensor].ready = 1;
  lt->ready = 1;
  lt->producer = (int32_t)dispatch;
  return NULL;
}

tflaccel_status lower_bind_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  tflaccel_status status = bind_written(lw, dispatch, 0, tensor);
  if (status != NULL) return status;
  int32_t *params = gpu_program_params(lw->program, dispatch);
  gpu_shape shape = lw->tensors[tensor].shape;
  params[GPU_P_OUT + 0] = shape.b;
  params[GPU_P_OUT + 1] = shape.h;
  params[GPU_P_OUT + 2] = shape.w;
  params[GPU_P_OUT + 3] = shape.c;
  params[GPU_P_OUT + 4] = shape.s;
  return NULL;
}

tflaccel_status lower_bind_second_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor) {
  return bind_written(lw, dispatch, GPU_MAX_ARGS - 1, tensor);
}

tflaccel_status lower_temporary(gpu_lowering *lw, gpu_shape shape, uint32_t *tensor) {
  if (!gpu_array_reserve(lw->host, (void **)&lw->tensors, &lw->tensor_capacity,
                         lw->tensor_count + 1, sizeof *lw->tensors, _Alignof(lower_tensor)))
    return lower_out_of_memory(lw, "temporary tensors");
  lower_tensor *lt = &lw->tensors[lw->tensor_count];
  memset(lt, 0, sizeof *lt);
  lt->shape = shape;
  lt->alias = -1;
  lt->request = -1;
  lt->consumer = -1;
  lt->producer = -1;
  *tensor = lw->tensor_count++;
  return NULL;
}

void lower_operand_strides(gpu_shape operand, gpu_shape out, int32_t strides[5]) {
  int32_t slices = operand.s;
  strides[3] = operand.c == out.c ? 1 : 0;
  strides[2] = operand.w == out.w ? slices : 0;
  strides[1] = operand.h == out.h ? operand.w * slices : 0;
  strides[0] = operand.b == out.b ? operand.h * operand.w * slices : 0;
  strides[4] = operand.c == 1 && out.c > 1;
}

int lower_add_post(gpu_lowering *lw, uint32_t dispatch, const int32_t post[12]) {
  int32_t *params = gpu_program_params(lw->program, dispatch);
  int32_t count = params[GPU_P_POST_COUNT];
  if (count >= GPU_MAX_POSTS) return 0;
  memcpy(params + GPU_P_POSTS + GPU_POST_SIZE * count, post, sizeof(int32_t) * GPU_POST_SIZE);
  params[GPU_P_POST_COUNT] = count + 1;
  return 1;
}

static int post_room(gpu_lowering *lw, uint32_t dispatch) {
  return GPU_MAX_POSTS - gpu_program_params(lw->program, dispatch)[GPU_P_POST_COUNT];
}

void lower_add_activation(gpu_lowering *lw, uint32_t dispatch, int32_t activation) {
  float low, high;
  if (activation == TFLACCEL_ACT_NONE || !gpu_activation_range(activation, &low, &high)) return;
  int32_t post[GPU_POST_SIZE] = {0};
  post[0] = GPU_POST_CLAMP;
  post[8] = gpu_float_bits(low);
  post[9] = gpu_float_bits(high);
  lower_add_post(lw, dispatch, post);
}

static uint32_t next_power_of_two(uint32_t value) {
  uint32_t p = 1;
  while (p < value && p < (1u << 30)) p <<= 1;
  return p;
}

void lower_set_work(gpu_lowering *lw, uint32_t dispatch, uint32_t x, uint32_t y, uint32_t z) {
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  d->global[0] = x ? x : 1;
  d->global[1] = y ? y : 1;
  d->global[2] = z ? z : 1;
  uint32_t lx = next_power_of_two(d->global[0]);
  if (lx > 16) lx = 16;
  uint32_t ly = next_power_of_two(d->global[1]);
  if (ly > LOWER_GROUP_THREADS / lx) ly = LOWER_GROUP_THREADS / lx;
  uint32_t lz = next_power_of_two(d->global[2]);
  if (lz > LOWER_GROUP_THREADS / (lx * ly)) lz = LOWER_GROUP_THREADS / (lx * ly);
  d->local[0] = lx;
  d->local[1] = ly;
  d->local[2] = lz ? lz : 1;
}

/* ---- fusion of elementwise consumers ---- */

static int same_shape(gpu_shape a, gpu_shape b) {
  return a.b == b.b && a.h == b.h && a.w == b.w && a.c == b.c;
}

static int is_ready(const gpu_lowering *lw, uint32_t tensor) {
  if (tensor < lw->graph->tensor_count &&
      (lw->graph->tensors[tensor].flags & TFLACCEL_TENSOR_CONSTANT))
    return 1;
  return lw->tensors[tensor].ready;
}

/* Tries to absorb the op at position c (which reads `value`, the tensor
 * being computed) into dispatch; *argument is the next free argument. */
static tflaccel_status absorb(gpu_lowering *lw, uint32_t dispatch, uint32_t c, uint32_t value,
                              uint32_t *argument, int *absorbed) {
  *absorbed = 0;
  const tflaccel_op_desc *op = lower_op(lw, c);
  uint32_t output = op->outputs[0];
  gpu_shape value_shape = lw->tensors[value].shape;
  if (!same_shape(lw->tensors[output].shape, value_shape)) return NULL;
  int32_t post[GPU_POST_SIZE] = {0};
  /* A quantized value is rounded onto its grid before the op reads it. */
  int grid = lower_needs_grid(lw, value);
  int32_t unary = gpu_post_unary_code(op->code);
  if (unary) {
    if (post_room(lw, dispatch) < 1 + grid) return NULL;
    if (grid) {
      int added = 0;
      tflaccel_status status = lower_add_grid_post(lw, dispatch, value, argument, &added);
      if (status != NULL) return status;
    }
    post[0] = GPU_POST_UNARY;
    post[1] = unary;
    if (op->code == TFLACCEL_OP_LEAKY_RELU) post[8] = gpu_float_bits(op->params->leaky_relu.alpha);
    lower_add_post(lw, dispatch, post);
    *absorbed = 1;
    return NULL;
  }
  int32_t binary = gpu_post_binary_code(op->code);
  if (!binary && op->code != TFLACCEL_OP_PRELU) return NULL;
  if (op->input_count != 2 || *argument >= GPU_MAX_ARGS) return NULL;
  int value_is_left = op->inputs[0] == value;
  uint32_t other = value_is_left ? op->inputs[1] : op->inputs[0];
  if (other == value || (op->code == TFLACCEL_OP_PRELU && !value_is_left)) return NULL;
  if (!is_ready(lw, other)) return NULL;
  int32_t activation =
      binary && binary <= GPU_BINARY_DIV ? op->params->arithmetic.fused_activation : 0;
  if (post_room(lw, dispatch) < (activation != TFLACCEL_ACT_NONE ? 2 : 1) + grid) return NULL;
  const uint32_t other_argument = (*argument)++;
  tflaccel_status status = lower_bind_input(lw, dispatch, other_argument, other);
  if (status != NULL) return status;
  if (grid) {
    int added = 0;
    status = lower_add_grid_post(lw, dispatch, value, argument, &added);
    if (status != NULL) return status;
  }
  post[0] = binary ? GPU_POST_BINARY : GPU_POST_PRELU;
  post[1] = binary;
  post[2] = (int32_t)other_argument;
  lower_operand_strides(lw->tensors[other].shape, value_shape, post + 3);
  post[10] = !value_is_left; /* the other tensor is the left operand */
  lower_add_post(lw, dispatch, post);
  lower_add_activation(lw, dispatch, activation);
  *absorbed = 1;
  return NULL;
}

tflaccel_status lower_finish(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                             uint32_t output) {
  uint32_t written;
  return lower_finish_to(lw, dispatch, first_free_argument, output, &written);
}

void lower_group_per_output(gpu_lowering *lw, uint32_t dispatch, uint32_t items, uint32_t pixels,
                            uint32_t slices) {
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  d->global[0] = d->local[0] = items;
  d->global[1] = pixels;
  d->global[2] = slices;
  d->local[1] = d->local[2] = 1;
}

tflaccel_status lower_finish_to(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                                uint32_t output, uint32_t *written) {
  uint32_t value = output, argument = first_free_argument;
  for (;;) {
    const lower_tensor *lt = &lw->tensors[value];
    if (value >= lw->graph->tensor_count || lt->is_output || lt->consumers != 1 ||
        lt->consumer < 0 || lw->absorbed[lt->consumer])
      break;
    uint32_t c = (uint32_t)lt->consumer;
    int absorbed = 0;
    tflaccel_status status = absorb(lw, dispatch, c, value, &argument, &absorbed);
    if (status != NULL) return status;
    if (!absorbed) break;
    lw->absorbed[c] = 1;
    value = lower_op(lw, c)->outputs[0];
  }
  *written = value;
  /* The float view: a quantized result goes onto its grid as it is
   * stored, or (no post-op room left) by a dispatch of its own. */
  int round_after = 0;
  if (lower_needs_grid(lw, value)) {
    int added = 0;
    tflaccel_status status = lower_add_grid_post(lw, dispatch, value, &argument, &added);
    if (status != NULL) return status;
    round_after = !added;
  }
  tflaccel_status status = lower_bind_output(lw, dispatch, value);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[value].shape;
  lower_set_work(lw, dispatch, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return round_after ? lower_round_in_place(lw, value) : NULL;
}

void lower_fused_pad_of(const gpu_lowering *lw, uint32_t position, lower_fused_pad *pad) {
  memset(pad, 0, sizeof *pad);
  pad->source = lower_op(lw, position)->inputs[0];
  int32_t from = lw->pad_source[position];
  if (from < 0) return;
  const tflaccel_op_desc *op = lower_op(lw, (uint32_t)from);
  const tflaccel_tensor_desc *paddings = gpu_op_input(lw->graph, op, 1);
  pad->top = (int32_t)gpu_index_value(paddings, 2);
  pad->bottom = (int32_t)gpu_index_value(paddings, 3);
  pad->left = (int32_t)gpu_index_value(paddings, 4);
  pad->right = (int32_t)gpu_index_value(paddings, 5);
  pad->source = op->inputs[0];
}

/* ---- dispatches of one kernel reading one tensor ---- */

tflaccel_status lower_start_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t input,
                                     const int32_t *values, size_t count, uint32_t *dispatch) {
  tflaccel_status status = lower_add_dispatch(lw, kernel, dispatch);
  if (status == NULL) status = lower_bind_input(lw, *dispatch, 1, input);
  if (status != NULL) return status;
  memcpy(gpu_program_params(lw->program, *dispatch) + GPU_P_KERNEL, values,
         count * sizeof(int32_t));
  return NULL;
}

tflaccel_status lower_box_gather(gpu_lowering *lw, uint32_t input, uint32_t output,
                                 const int32_t start[4], const int32_t stride[4],
                                 const int32_t size[4]) {
  gpu_shape in = lw->tensors[input].shape, out = lw->tensors[output].shape;
  int whole_slices = start[3] == 0 && stride[3] == 1 && size[3] == in.c && out.c == in.c;
  int32_t values[18] = {in.b,      in.h,     in.w,     in.c,      in.s,      start[0],
                        start[1],  start[2], start[3], stride[0], stride[1], stride[2],
                        stride[3], size[0],  size[1],  size[2],   size[3],   whole_slices};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_BOX_GATHER, input, values, 18, &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, output);
}
