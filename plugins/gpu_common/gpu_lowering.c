/* The lowering driver: where each tensor lives, the boundary conversions,
 * op fusion, arena planning. The per-op emission is in gpu_lower_*.c. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_lowering.h"
#include "plugins/gpu_common/gpu_lowering_internal.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/gpu_support.h"

/* Preferred work-group size: enough threads to fill a warp or two. */
#define LOWER_GROUP_THREADS 64
/* Arena offsets: generous for vector loads and any sub-allocation rule. */
#define LOWER_ARENA_ALIGNMENT 256

static tflaccel_status out_of_memory(const gpu_lowering *lw, const char *what) {
  return lw->host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (%s)",
                               lw->backend->plugin_name, what);
}

tflaccel_status lower_add_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t *dispatch) {
  return gpu_program_add_dispatch(lw->host, lw->program, kernel, dispatch);
}

static uint32_t root_of(const gpu_lowering *lw, uint32_t tensor) {
  while (lw->tensors[tensor].alias >= 0) tensor = (uint32_t)lw->tensors[tensor].alias;
  return tensor;
}

static tflaccel_status add_request(gpu_lowering *lw, uint64_t size, uint32_t first,
                                   int32_t *request) {
  if (!gpu_array_reserve(lw->host, (void **)&lw->requests, &lw->request_capacity,
                         lw->request_count + 1, sizeof *lw->requests,
                         _Alignof(tflaccel_arena_request)))
    return out_of_memory(lw, "arena requests");
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
    return out_of_memory(lw, "arena fix-ups");
  lower_fixup *f = &lw->fixups[lw->fixup_count++];
  f->dispatch = dispatch;
  f->argument = argument;
  f->request = request;
  tflaccel_arena_request *r = &lw->requests[request];
  if (r->last_use < (int32_t)dispatch) r->last_use = (int32_t)dispatch;
  return NULL;
}

/* Copies a constant graph tensor into the constants buffer, slice layout. */
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
        memcpy(&value, (const char *)desc->data + from * 4, 4);
      }
      gpu_program_store_constant(program, offset, (uint64_t)(p * slices * 4 + c), value);
    }
  lt->storage = GPU_BUFFER_CONSTANTS;
  lt->constant_offset = offset;
  lt->ready = 1;
  return NULL;
}

void lower_bind_constants(gpu_lowering *lw, uint32_t dispatch, uint32_t argument, uint64_t offset) {
  gpu_dispatch *d = &lw->program->dispatches[dispatch];
  d->args[argument].kind = GPU_BUFFER_CONSTANTS;
  gpu_program_params(lw->program, dispatch)[argument] =
      (int32_t)(offset / lw->program->element_size);
}

tflaccel_status lower_bind_input(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                 uint32_t tensor) {
  uint32_t root = root_of(lw, tensor);
  lower_tensor *lt = &lw->tensors[root];
  lt->read = 1;
  if (lt->storage == GPU_BUFFER_NONE && root < lw->graph->tensor_count &&
      (lw->graph->tensors[root].flags & TFLACCEL_TENSOR_CONSTANT)) {
    tflaccel_status status = materialise_constant(lw, root);
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
      return NULL;
    case GPU_BUFFER_ARENA:
      d->args[argument].kind = GPU_BUFFER_ARENA;
      return add_fixup(lw, dispatch, argument, lt->request);
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
  uint32_t root = root_of(lw, tensor);
  lower_tensor *lt = &lw->tensors[root];
  gpu_program *program = lw->program;
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
    return out_of_memory(lw, "temporary tensors");
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

int32_t lower_unary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_RELU: return GPU_UNARY_RELU;
    case TFLACCEL_OP_RELU6: return GPU_UNARY_RELU6;
    case TFLACCEL_OP_RELU_N1_TO_1: return GPU_UNARY_RELU_N1_TO_1;
    case TFLACCEL_OP_LOGISTIC: return GPU_UNARY_LOGISTIC;
    case TFLACCEL_OP_HARD_SWISH: return GPU_UNARY_HARD_SWISH;
    case TFLACCEL_OP_TANH: return GPU_UNARY_TANH;
    case TFLACCEL_OP_EXP: return GPU_UNARY_EXP;
    case TFLACCEL_OP_LEAKY_RELU: return GPU_UNARY_LEAKY_RELU;
    default: return 0;
  }
}

int32_t lower_binary_code(int32_t op_code) {
  switch (op_code) {
    case TFLACCEL_OP_ADD: return GPU_BINARY_ADD;
    case TFLACCEL_OP_SUB: return GPU_BINARY_SUB;
    case TFLACCEL_OP_MUL: return GPU_BINARY_MUL;
    case TFLACCEL_OP_DIV: return GPU_BINARY_DIV;
    case TFLACCEL_OP_MAXIMUM: return GPU_BINARY_MAXIMUM;
    case TFLACCEL_OP_MINIMUM: return GPU_BINARY_MINIMUM;
    case TFLACCEL_OP_LOGICAL_AND: return GPU_BINARY_LOGICAL_AND;
    default: return 0;
  }
}

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
  int32_t unary = lower_unary_code(op->code);
  if (unary) {
    if (post_room(lw, dispatch) < 1) return NULL;
    post[0] = GPU_POST_UNARY;
    post[1] = unary;
    if (op->code == TFLACCEL_OP_LEAKY_RELU) post[8] = gpu_float_bits(op->params->leaky_relu.alpha);
    lower_add_post(lw, dispatch, post);
    *absorbed = 1;
    return NULL;
  }
  int32_t binary = lower_binary_code(op->code);
  if (!binary && op->code != TFLACCEL_OP_PRELU) return NULL;
  if (op->input_count != 2 || *argument >= GPU_MAX_ARGS) return NULL;
  int value_is_left = op->inputs[0] == value;
  uint32_t other = value_is_left ? op->inputs[1] : op->inputs[0];
  if (other == value || (op->code == TFLACCEL_OP_PRELU && !value_is_left)) return NULL;
  if (!is_ready(lw, other)) return NULL;
  int32_t activation =
      binary && binary <= GPU_BINARY_DIV ? op->params->arithmetic.fused_activation : 0;
  if (post_room(lw, dispatch) < (activation != TFLACCEL_ACT_NONE ? 2 : 1)) return NULL;
  tflaccel_status status = lower_bind_input(lw, dispatch, *argument, other);
  if (status != NULL) return status;
  post[0] = binary ? GPU_POST_BINARY : GPU_POST_PRELU;
  post[1] = binary;
  post[2] = (int32_t)*argument;
  lower_operand_strides(lw->tensors[other].shape, value_shape, post + 3);
  post[10] = !value_is_left; /* the other tensor is the left operand */
  lower_add_post(lw, dispatch, post);
  lower_add_activation(lw, dispatch, activation);
  ++*argument;
  *absorbed = 1;
  return NULL;
}

tflaccel_status lower_finish(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                             uint32_t output) {
  uint32_t written;
  return lower_finish_to(lw, dispatch, first_free_argument, output, &written);
}

tflaccel_status lower_finish_to(gpu_lowering *lw, uint32_t dispatch,
                                uint32_t first_free_argument, uint32_t output,
                                uint32_t *written) {
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
  tflaccel_status status = lower_bind_output(lw, dispatch, value);
  if (status != NULL) return status;
  gpu_shape shape = lw->tensors[value].shape;
  lower_set_work(lw, dispatch, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return NULL;
}

/* ---- PAD fusion ---- */

int lower_pad_is_fusable(const gpu_lowering *lw, uint32_t position) {
  const tflaccel_graph_view *graph = lw->graph;
  const tflaccel_op_desc *op = lower_op(lw, position);
  if (op->code != TFLACCEL_OP_PAD && op->code != TFLACCEL_OP_PADV2) return 0;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *paddings = gpu_op_input(graph, op, 1);
  if (input->rank != 4 || input->dtype != TFLACCEL_DTYPE_FLOAT32) return 0;
  for (int d = 0; d < 4; d += 3) /* batch and channels stay */
    if (gpu_index_value(paddings, 2 * d) != 0 || gpu_index_value(paddings, 2 * d + 1) != 0)
      return 0;
  const tflaccel_tensor_desc *value = gpu_op_input(graph, op, 2);
  if (value != NULL) {
    float pad_value;
    memcpy(&pad_value, value->data, 4);
    if (pad_value != 0.0f) return 0;
  }
  const lower_tensor *lt = &lw->tensors[op->outputs[0]];
  if (lt->is_output || lt->consumers != 1 || lt->consumer < 0) return 0;
  const tflaccel_op_desc *consumer = lower_op(lw, (uint32_t)lt->consumer);
  if (consumer->inputs[0] != op->outputs[0]) return 0;
  for (uint32_t i = 1; i < consumer->input_count; ++i)
    if (consumer->inputs[i] == op->outputs[0]) return 0;
  switch (consumer->code) {
    case TFLACCEL_OP_CONV_2D:
    case TFLACCEL_OP_DEPTHWISE_CONV_2D:
    case TFLACCEL_OP_MAX_POOL_2D:
    case TFLACCEL_OP_AVERAGE_POOL_2D: return 1;
    default: return 0;
  }
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

/* ---- the driver ---- */

static tflaccel_status lower_one(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  switch (op->code) {
    case TFLACCEL_OP_CONV_2D: return lower_conv(lw, position);
    case TFLACCEL_OP_DEPTHWISE_CONV_2D: return lower_depthwise(lw, position);
    case TFLACCEL_OP_TRANSPOSE_CONV:
    case TFLACCEL_OP_CUSTOM: return lower_transpose_conv(lw, position);
    case TFLACCEL_OP_FULLY_CONNECTED: return lower_fully_connected(lw, position);
    case TFLACCEL_OP_LSTM: return lower_lstm(lw, position);
    case TFLACCEL_OP_MAX_POOL_2D:
    case TFLACCEL_OP_AVERAGE_POOL_2D: return lower_pool(lw, position);
    case TFLACCEL_OP_MEAN: return lower_mean(lw, position);
    case TFLACCEL_OP_SOFTMAX: return lower_softmax(lw, position);
    case TFLACCEL_OP_PAD:
    case TFLACCEL_OP_PADV2: return lower_pad(lw, position);
    case TFLACCEL_OP_CONCATENATION: return lower_concat(lw, position);
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS: return lower_reshape(lw, position);
    case TFLACCEL_OP_STRIDED_SLICE: return lower_strided_slice(lw, position);
    case TFLACCEL_OP_DEPTH_TO_SPACE: return lower_depth_to_space(lw, position);
    case TFLACCEL_OP_RESIZE_BILINEAR:
    case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR: return lower_resize(lw, position);
    default: return lower_elementwise(lw, position);
  }
}

/* Whether a float32 boundary tensor can be bound as it is. */
static int binds_directly(const gpu_lowering *lw, uint32_t tensor) {
  return lw->program->storage == GPU_STORAGE_FLOAT32 &&
         lw->graph->tensors[tensor].dtype == TFLACCEL_DTYPE_FLOAT32 &&
         gpu_shape_is_dense(lw->tensors[tensor].shape);
}

static tflaccel_status prepare_tensors(gpu_lowering *lw) {
  const tflaccel_graph_view *graph = lw->graph;
  const tflaccel_partition_desc *partition = lw->partition;
  const tflaccel_host_services *host = lw->host;
  uint32_t capacity = graph->tensor_count + 16;
  if (!gpu_array_reserve(host, (void **)&lw->tensors, &lw->tensor_capacity, capacity,
                         sizeof *lw->tensors, _Alignof(lower_tensor)))
    return out_of_memory(lw, "tensors");
  lw->tensor_count = graph->tensor_count;
  for (uint32_t t = 0; t < graph->tensor_count; ++t) {
    lower_tensor *lt = &lw->tensors[t];
    const tflaccel_tensor_desc *desc = &graph->tensors[t];
    lt->shape = desc->rank <= GPU_MAX_RANK ? gpu_shape_of(desc) : gpu_shape_of_dims(0, NULL);
    lt->alias = -1;
    lt->request = -1;
    lt->consumer = -1;
    lt->producer = -1;
    lt->is_bool = desc->dtype == TFLACCEL_DTYPE_BOOL;
  }
  size_t ops = partition->op_count ? partition->op_count : 1;
  lw->absorbed = host->alloc(host->context, ops, 1);
  lw->pad_source = host->alloc(host->context, ops * sizeof(int32_t), _Alignof(int32_t));
  if (lw->absorbed == NULL || lw->pad_source == NULL) return out_of_memory(lw, "op flags");
  memset(lw->absorbed, 0, ops);
  for (uint32_t p = 0; p < partition->op_count; ++p) {
    lw->pad_source[p] = -1;
    const tflaccel_op_desc *op = lower_op(lw, p);
    for (uint32_t i = 0; i < op->input_count; ++i) {
      uint32_t t = op->inputs[i];
      if (t == TFLACCEL_NO_TENSOR || t >= graph->tensor_count) continue;
      int repeated = 0; /* an op reading a tensor twice counts once */
      for (uint32_t j = 0; j < i; ++j) repeated |= op->inputs[j] == t;
      if (repeated) continue;
      lw->tensors[t].consumers++;
      lw->tensors[t].consumer = (int32_t)p;
    }
  }
  gpu_program *program = lw->program;
  program->binding_count = partition->input_count + partition->output_count;
  size_t bindings = program->binding_count ? program->binding_count : 1;
  program->binding_tensors = host->alloc(host->context, bindings * sizeof(uint32_t), 4);
  program->binding_bytes = host->alloc(host->context, bindings * sizeof(uint64_t), 8);
  if (program->binding_tensors == NULL || program->binding_bytes == NULL)
    return out_of_memory(lw, "bindings");
  for (uint32_t b = 0; b < program->binding_count; ++b) {
    int is_input = b < partition->input_count;
    uint32_t t = is_input ? partition->inputs[b] : partition->outputs[b - partition->input_count];
    program->binding_tensors[b] = t;
    program->binding_bytes[b] = graph->tensors[t].byte_size;
    lower_tensor *lt = &lw->tensors[t];
    lt->binding = b;
    if (is_input) {
      lt->is_input = 1;
      lt->ready = 1;
    } else {
      lt->is_output = 1;
    }
    if (binds_directly(lw, t)) lt->storage = GPU_BUFFER_BINDING;
  }
  return NULL;
}

/* Dense partition inputs that are not bound directly become slices first. */
static tflaccel_status convert_inputs(gpu_lowering *lw) {
  for (uint32_t i = 0; i < lw->partition->input_count; ++i) {
    uint32_t t = lw->partition->inputs[i];
    lower_tensor *lt = &lw->tensors[t];
    if (lt->storage == GPU_BUFFER_BINDING) continue;
    uint32_t d;
    tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_TO_SLICES, &d);
    if (status == NULL) status = lower_bind_output(lw, d, t);
    if (status != NULL) return status;
    gpu_dispatch *dispatch = &lw->program->dispatches[d];
    dispatch->args[1].kind = GPU_BUFFER_BINDING;
    dispatch->args[1].binding = lt->binding;
    dispatch->args[1].offset_unit = 1;
    gpu_program_params(lw->program, d)[GPU_P_KERNEL] = lt->is_bool;
    lower_set_work(lw, d, (uint32_t)lt->shape.w, (uint32_t)(lt->shape.b * lt->shape.h),
                   (uint32_t)lt->shape.s);
  }
  return NULL;
}

/* Output t (binding of partition output number `index`) can be stored
 * dense by the dispatch that computes it, instead of by a conversion pass:
 * the backend offers that, t is float32, its storage root is an arena
 * tensor that a kernel storing through its post-op epilogue writes and no
 * dispatch reads, and no other output shares that root. A reshape alias
 * keeps the dense element order, so the root's writer serves it. */
static int dense_store_possible(const gpu_lowering *lw, uint32_t index, uint32_t t) {
  if (!(lw->backend->caps.features & GPU_FEATURE_DENSE_OUTPUT) ||
      lw->graph->tensors[t].dtype != TFLACCEL_DTYPE_FLOAT32)
    return 0;
  uint32_t root = root_of(lw, t);
  const lower_tensor *rt = &lw->tensors[root];
  if (rt->storage != GPU_BUFFER_ARENA || rt->producer < 0 || rt->read) return 0;
  int32_t kernel = lw->program->dispatches[rt->producer].kernel;
  if (kernel == GPU_KERNEL_TO_SLICES || kernel == GPU_KERNEL_FROM_SLICES) return 0;
  for (uint32_t i = 0; i < lw->partition->output_count; ++i)
    if (i != index && root_of(lw, lw->partition->outputs[i]) == root) return 0;
  return 1;
}

/* Makes the writer of t's root store into t's binding, dense. */
static void store_dense(gpu_lowering *lw, uint32_t t) {
  lower_tensor *rt = &lw->tensors[root_of(lw, t)];
  uint32_t producer = (uint32_t)rt->producer;
  gpu_dispatch *dispatch = &lw->program->dispatches[producer];
  dispatch->args[0].kind = GPU_BUFFER_BINDING;
  dispatch->args[0].binding = lw->tensors[t].binding;
  dispatch->args[0].offset_unit = 4; /* offsets count float32 elements */
  int32_t *params = gpu_program_params(lw->program, producer);
  params[0] = 0;
  params[GPU_P_OUT_DENSE] = 1;
  /* The arena no longer holds it. */
  for (uint32_t f = 0; f < lw->fixup_count; ++f)
    if (lw->fixups[f].dispatch == producer && lw->fixups[f].argument == 0)
      lw->fixups[f].request = -1;
  if (rt->request >= 0) lw->requests[rt->request].size = 0;
}

/* Partition outputs computed in slices go back to dense at the end. */
static tflaccel_status convert_outputs(gpu_lowering *lw) {
  for (uint32_t i = 0; i < lw->partition->output_count; ++i) {
    uint32_t t = lw->partition->outputs[i];
    lower_tensor *lt = &lw->tensors[t];
    if (lt->storage == GPU_BUFFER_BINDING) continue;
    if (dense_store_possible(lw, i, t)) {
      store_dense(lw, t);
      continue;
    }
    uint32_t d;
    tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_FROM_SLICES, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, t);
    if (status != NULL) return status;
    gpu_dispatch *dispatch = &lw->program->dispatches[d];
    dispatch->args[0].kind = GPU_BUFFER_BINDING;
    dispatch->args[0].binding = lt->binding;
    dispatch->args[0].offset_unit = 1;
    int32_t *params = gpu_program_params(lw->program, d);
    params[GPU_P_OUT + 0] = lt->shape.b;
    params[GPU_P_OUT + 1] = lt->shape.h;
    params[GPU_P_OUT + 2] = lt->shape.w;
    params[GPU_P_OUT + 3] = lt->shape.c;
    params[GPU_P_OUT + 4] = lt->shape.s;
    params[GPU_P_KERNEL] = lt->is_bool;
    lower_set_work(lw, d, (uint32_t)lt->shape.w, (uint32_t)(lt->shape.b * lt->shape.h),
                   (uint32_t)lt->shape.c);
  }
  return NULL;
}

static tflaccel_status plan_arena(gpu_lowering *lw) {
  gpu_program *program = lw->program;
  uint64_t alignment = lw->backend->caps.buffer_alignment > LOWER_ARENA_ALIGNMENT
                           ? lw->backend->caps.buffer_alignment
                           : LOWER_ARENA_ALIGNMENT;
  uint64_t total = 0;
  if (lw->request_count > 0) {
    tflaccel_status status =
        lw->host->plan_arena(lw->requests, lw->request_count, alignment, &total);
    if (status != NULL) return status;
  }
  program->arena_size = total;
  for (uint32_t f = 0; f < lw->fixup_count; ++f) {
    const lower_fixup *fixup = &lw->fixups[f];
    if (fixup->request < 0) continue;
    uint64_t offset = lw->requests[fixup->request].offset / program->element_size;
    if (offset > INT32_MAX)
      return lw->host->status_make(TFLACCEL_OUT_OF_MEMORY,
                                   "%s: the arena exceeds 32-bit element offsets",
                                   lw->backend->plugin_name);
    gpu_program_params(program, fixup->dispatch)[fixup->argument] = (int32_t)offset;
    gpu_argument *argument = &program->dispatches[fixup->dispatch].args[fixup->argument];
    argument->arena_offset = lw->requests[fixup->request].offset;
    argument->arena_size = lw->requests[fixup->request].size;
  }
  return NULL;
}

static void lowering_release(gpu_lowering *lw) {
  const tflaccel_host_services *host = lw->host;
  if (lw->tensors != NULL) host->free(host->context, lw->tensors);
  if (lw->absorbed != NULL) host->free(host->context, lw->absorbed);
  if (lw->pad_source != NULL) host->free(host->context, lw->pad_source);
  if (lw->requests != NULL) host->free(host->context, lw->requests);
  if (lw->fixups != NULL) host->free(host->context, lw->fixups);
}

tflaccel_status gpu_lower_partition(const gpu_backend *backend, const tflaccel_graph_view *graph,
                                    const tflaccel_partition_desc *partition,
                                    const tflaccel_compile_options *options, gpu_program *program) {
  int32_t storage = GPU_STORAGE_FLOAT32;
  if (options != NULL && options->precision == TFLACCEL_PRECISION_FP16)
    storage = backend->caps.has_half_math ? GPU_STORAGE_HALF_MATH : GPU_STORAGE_HALF;
  gpu_program_init(program, storage);
  /* Every op must be one the GPU layer runs: the same answer supports_op gave. */
  for (uint32_t p = 0; p < partition->op_count; ++p) {
    if (partition->ops[p] >= graph->op_count)
      return backend->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                        "%s: partition op %u is not in the graph",
                                        backend->plugin_name, partition->ops[p]);
    char reason[TFLACCEL_REASON_SIZE];
    if (!gpu_op_supported(graph, partition->ops[p], backend->plugin_name, reason, sizeof reason))
      return backend->host->status_make(TFLACCEL_UNSUPPORTED, "%s", reason);
  }
  gpu_lowering lw;
  memset(&lw, 0, sizeof lw);
  lw.backend = backend;
  lw.host = backend->host;
  lw.graph = graph;
  lw.partition = partition;
  lw.program = program;
  tflaccel_status status = prepare_tensors(&lw);
  /* PADs whose consumer reads through them are absorbed up front. */
  for (uint32_t p = 0; status == NULL && p < partition->op_count; ++p) {
    if (!lower_pad_is_fusable(&lw, p)) continue;
    lw.absorbed[p] = 1;
    lw.pad_source[lw.tensors[lower_op(&lw, p)->outputs[0]].consumer] = (int32_t)p;
  }
  if (status == NULL) status = convert_inputs(&lw);
  for (uint32_t p = 0; status == NULL && p < partition->op_count; ++p)
    if (!lw.absorbed[p]) status = lower_one(&lw, p);
  if (status == NULL) status = convert_outputs(&lw);
  if (status == NULL) status = plan_arena(&lw);
  lowering_release(&lw);
  return status;
}
