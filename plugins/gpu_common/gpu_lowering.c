/* The lowering driver: where each tensor lives, the boundary conversions,
 * the fusion of PAD into its reader, arena planning. Each op is lowered by
 * its builder (gpu_op_builder.h), found in the op table; the dispatches are
 * emitted through gpu_emit.h. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_quant.h"
#include "plugins/gpu_common/gpu_lowering.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/gpu_support.h"

/* ---- PAD fusion ---- */

/* Whether the PAD at position can be absorbed by its consumer: a zero
 * padding of H and W only, read as the first input of an op whose builder
 * reads through a fused PAD. */
static int pad_is_fusable(const gpu_lowering *lw, uint32_t position) {
  const tflaccel_graph_view *graph = lw->graph;
  const tflaccel_op_desc *op = lower_op(lw, position);
  if (op->code != TFLACCEL_OP_PAD && op->code != TFLACCEL_OP_PADV2) return 0;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *paddings = gpu_op_input(graph, op, 1);
  /* A quantized PAD pads with its zero point: the real 0 the fused read
   * gives, when the grid stays. */
  int float_view = gpu_is_quantized_activation(input) &&
                   gpu_same_quantization(input, gpu_op_output(graph, op, 0));
  if (input->rank != 4 || (input->dtype != TFLACCEL_DTYPE_FLOAT32 && !float_view)) return 0;
  for (int d = 0; d < 4; d += 3) /* batch and channels stay */
    if (gpu_index_value(paddings, 2 * d) != 0 || gpu_index_value(paddings, 2 * d + 1) != 0)
      return 0;
  const tflaccel_tensor_desc *value = gpu_op_input(graph, op, 2);
  if (value != NULL) {
    if (gpu_constant_value(value, 0) != 0.0f) return 0;
  }
  const lower_tensor *lt = &lw->tensors[op->outputs[0]];
  if (lt->is_output || lt->consumers != 1 || lt->consumer < 0) return 0;
  const tflaccel_op_desc *consumer = lower_op(lw, (uint32_t)lt->consumer);
  if (consumer->inputs[0] != op->outputs[0]) return 0;
  for (uint32_t i = 1; i < consumer->input_count; ++i)
    if (consumer->inputs[i] == op->outputs[0]) return 0;
  const gpu_op_builder *builder = gpu_op_builder_find(consumer);
  return builder != NULL && builder->reads_through_pad;
}

/* ---- the driver ---- */

/* Lowers the op at position with its builder. */
static tflaccel_status lower_one(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const gpu_op_builder *builder = gpu_op_builder_find(op);
  if (builder == NULL)
    return lw->host->status_make(TFLACCEL_INTERNAL, "%s: op code %d has no GPU op builder",
                                 lw->backend->plugin_name, (int)op->code);
  tflaccel_status status = builder->lower(lw, position);
  return status != NULL ? status : lower_round_op_outputs(lw, position);
}

/* Whether a float32 boundary tensor can be bound as it is. */
static int binds_directly(const gpu_lowering *lw, uint32_t tensor) {
  return lw->program->storage == GPU_STORAGE_FLOAT32 &&
         lw->graph->tensors[tensor].dtype == TFLACCEL_DTYPE_FLOAT32 &&
         gpu_shape_is_dense(lw->tensors[tensor].shape);
}

/* How the core's buffer holds the tensor's values (gpu_dense_kind). */
static uint8_t lower_dense_kind_of(const tflaccel_tensor_desc *desc) {
  switch (desc->dtype) {
    case TFLACCEL_DTYPE_BOOL: return GPU_DENSE_BOOL;
    case TFLACCEL_DTYPE_INT32: return GPU_DENSE_INT32;
    case TFLACCEL_DTYPE_INT64: return GPU_DENSE_INT64;
    default: return (uint8_t)gpu_dense_kind_of(desc->dtype);
  }
}

static tflaccel_status prepare_tensors(gpu_lowering *lw) {
  const tflaccel_graph_view *graph = lw->graph;
  const tflaccel_partition_desc *partition = lw->partition;
  const tflaccel_host_services *host = lw->host;
  uint32_t capacity = graph->tensor_count + 16;
  if (!gpu_array_reserve(host, (void **)&lw->tensors, &lw->tensor_capacity, capacity,
                         sizeof *lw->tensors, _Alignof(lower_tensor)))
    return lower_out_of_memory(lw, "tensors");
  lw->tensor_count = graph->tensor_count;
  for (uint32_t t = 0; t < graph->tensor_count; ++t) {
    lower_tensor *lt = &lw->tensors[t];
    const tflaccel_tensor_desc *desc = &graph->tensors[t];
    lt->shape = desc->rank <= GPU_MAX_RANK ? gpu_shape_of(desc) : gpu_shape_of_dims(0, NULL);
    lt->alias = -1;
    lt->request = -1;
    lt->consumer = -1;
    lt->producer = -1;
    lt->dense_kind = lower_dense_kind_of(desc);
  }
  size_t ops = partition->op_count ? partition->op_count : 1;
  lw->absorbed = host->alloc(host->context, ops, 1);
  lw->pad_source = host->alloc(host->context, ops * sizeof(int32_t), _Alignof(int32_t));
  if (lw->absorbed == NULL || lw->pad_source == NULL) return lower_out_of_memory(lw, "op flags");
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
    return lower_out_of_memory(lw, "bindings");
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

/* Whether t is an 8-bit tensor of one scale whose dense bytes already are
 * its slices, one word each: C a multiple of 4, or a single pixel (the
 * bytes of its last word past C are ignored by the reader, and lie inside
 * the buffer's whole words, as GPU_FEATURE_INPUT_WORDS promises). */
static int bytes_are_slices(const gpu_lowering *lw, uint32_t t) {
  const lower_tensor *lt = &lw->tensors[t];
  return (lt->shape.c % 4 == 0 || gpu_shape_pixels(lt->shape) == 1) &&
         (lt->dense_kind == GPU_DENSE_UINT8 || lt->dense_kind == GPU_DENSE_INT8) &&
         gpu_is_quantized_activation(&lw->graph->tensors[t]);
}

/* Whether partition input t is read in place as words (GPU_IN_WORDS): its
 * bytes are its slices, and it is read only by ops whose builders read it
 * so (gpu_op_builder.reads_input_words), each as its input 0 and nowhere
 * else. The float twin's input is bound in place (binds_directly); without
 * this the quantized model pays a TO_SLICES dispatch more (gpu_vk, H100:
 * 6.6 us, bench/RESULTS.md waves 11-12). */
static int input_read_as_words(const gpu_lowering *lw, uint32_t t) {
  const lower_tensor *lt = &lw->tensors[t];
  if (!(lw->backend->caps.features & GPU_FEATURE_INPUT_WORDS) || lt->is_output ||
      lt->consumers == 0 || !bytes_are_slices(lw, t))
    return 0;
  for (uint32_t p = 0; p < lw->partition->op_count; ++p) {
    const tflaccel_op_desc *op = lower_op(lw, p);
    int reads = 0, elsewhere = 0;
    for (uint32_t i = 0; i < op->input_count; ++i) {
      reads |= op->inputs[i] == t;
      elsewhere |= i > 0 && op->inputs[i] == t;
    }
    if (!reads) continue;
    const gpu_op_builder *builder = gpu_op_builder_find(op);
    if (elsewhere || lw->absorbed[p] || builder == NULL || builder->reads_input_words == NULL ||
        !builder->reads_input_words(lw, p))
      return 0;
  }
  return 1;
}

/* Dense partition inputs that are not bound directly become slices first. */
static tflaccel_status convert_inputs(gpu_lowering *lw) {
  for (uint32_t i = 0; i < lw->partition->input_count; ++i) {
    uint32_t t = lw->partition->inputs[i];
    lower_tensor *lt = &lw->tensors[t];
    if (lt->storage == GPU_BUFFER_BINDING) continue;
    if (input_read_as_words(lw, t)) {
      lt->storage = GPU_BUFFER_BINDING;
      lt->words_in_place = 1;
      continue;
    }
    uint32_t d;
    tflaccel_status status = lower_add_dispatch(lw, GPU_KERNEL_TO_SLICES, &d);
    if (status == NULL) status = lower_bind_output(lw, d, t);
    if (status != NULL) return status;
    gpu_dispatch *dispatch = &lw->program->dispatches[d];
    dispatch->args[1].kind = GPU_BUFFER_BINDING;
    dispatch->args[1].binding = lt->binding;
    dispatch->args[1].offset_unit = 1;
    lower_dense_kind_params(lw, t, gpu_program_params(lw->program, d) + GPU_P_KERNEL);
    lower_set_work(lw, d, (uint32_t)lt->shape.w, (uint32_t)(lt->shape.b * lt->shape.h),
                   (uint32_t)lt->shape.s);
  }
  return NULL;
}

/* Whether the epilogue can store a tensor of this dense kind: float32,
 * or the integers of a quantized output (the float view's output edge,
 * quantized where it is computed instead of by a dispatch of its own). */
static int dense_kind_stored_by_epilogue(uint8_t kind) {
  return kind == GPU_DENSE_FLOAT32 || kind == GPU_DENSE_UINT8 || kind == GPU_DENSE_INT8 ||
         kind == GPU_DENSE_INT16;
}

/* Output t (binding of partition output number `index`) can be stored
 * dense by the dispatch that computes it, instead of by a conversion pass:
 * the backend offers that, t is float32 or quantized (8 or 16 bits), its
 * storage root is an arena tensor that a kernel storing through its
 * post-op epilogue writes and no dispatch reads, and no other output
 * shares that root. A reshape alias keeps the dense element order, so the
 * root's writer serves it. */
static int dense_store_possible(const gpu_lowering *lw, uint32_t index, uint32_t t) {
  if (!(lw->backend->caps.features & GPU_FEATURE_DENSE_OUTPUT) ||
      !dense_kind_stored_by_epilogue(lw->tensors[t].dense_kind))
    return 0;
  uint32_t root = lower_storage_root(lw, t);
  const lower_tensor *rt = &lw->tensors[root];
  if (rt->storage != GPU_BUFFER_ARENA || rt->producer < 0 || rt->read) return 0;
  const gpu_dispatch *producer = &lw->program->dispatches[rt->producer];
  if (producer->kernel == GPU_KERNEL_TO_SLICES || producer->kernel == GPU_KERNEL_FROM_SLICES)
    return 0;
  /* A writer of one step of it (a sequence op) does not write it whole. */
  if (producer->args[0].element_offset != 0) return 0;
  for (uint32_t i = 0; i < lw->partition->output_count; ++i)
    if (i != index && lower_storage_root(lw, lw->partition->outputs[i]) == root) return 0;
  return 1;
}

/* Whether a writer of an 8-bit tensor on `grid` (lower_dense_kind_params)
 * that ends by rounding onto that grid (a GPU_POST_QUANTIZE with one shift
 * for all channels: no operand) rounds in the store instead
 * (GPU_OUT_DENSE_GRID), out of the post-op loop: the same integers, and on
 * the GLSL backends a dispatch left with no post-op ran hello_world's last
 * FULLY_CONNECTED 0.9-1.1 us faster on an H200 (bench/RESULTS.md, wave 9).
 * Not for int16, whose fp16 run reads its value back through half storage
 * before quantizing (as_stored). */
static int grid_moves_into_store(const int32_t *params, const int32_t grid[5]) {
  int32_t count = params[GPU_P_POST_COUNT];
  if (count == 0 || (grid[0] != GPU_DENSE_UINT8 && grid[0] != GPU_DENSE_INT8)) return 0;
  const int32_t *last = params + GPU_P_POSTS + GPU_POST_SIZE * (count - 1);
  return last[0] == GPU_POST_QUANTIZE && last[2] == 0 && last[8] == grid[1] && last[9] == grid[2];
}

/* The writer's parameters for storing t dense, wherever its t0 lies. */
static void set_dense_store(gpu_lowering *lw, uint32_t writer, uint32_t t) {
  uint8_t kind = lw->tensors[t].dense_kind;
  int32_t *params = gpu_program_params(lw->program, writer);
  params[GPU_P_OUT_DENSE] = (params[GPU_P_OUT_DENSE] & GPU_IN_WORDS) | (1 + kind);
  if (kind == GPU_DENSE_FLOAT32) return;
  int32_t k[5];
  lower_dense_kind_params(lw, t, k);
  params[GPU_P_OUT_SCALE] = k[1];
  params[GPU_P_OUT_ZERO] = k[2];
  if (grid_moves_into_store(params, k)) {
    params[GPU_P_POST_COUNT]--; /* its words stay where the store reads them */
    params[GPU_P_OUT_DENSE] |= GPU_OUT_DENSE_GRID;
  }
}

/* Makes the writer of t's root store into t's binding, dense (a quantized
 * output quantized on the grid the FROM_SLICES conversion would use). */
static void store_dense(gpu_lowering *lw, uint32_t t) {
  lower_tensor *rt = &lw->tensors[lower_storage_root(lw, t)];
  uint32_t producer = (uint32_t)rt->producer;
  gpu_dispatch *dispatch = &lw->program->dispatches[producer];
  uint8_t kind = lw->tensors[t].dense_kind;
  dispatch->args[0].kind = GPU_BUFFER_BINDING;
  dispatch->args[0].binding = lw->tensors[t].binding;
  /* Offsets count float32 elements, or bytes for the integers. */
  dispatch->args[0].offset_unit = kind == GPU_DENSE_FLOAT32 ? 4 : 1;
  gpu_program_params(lw->program, producer)[0] = 0;
  set_dense_store(lw, producer, t);
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
    lower_dense_kind_params(lw, t, params + GPU_P_KERNEL);
    lower_set_work(lw, d, (uint32_t)lt->shape.w, (uint32_t)(lt->shape.b * lt->shape.h),
                   (uint32_t)lt->shape.c);
  }
  return NULL;
}

/* Whether arena tensor t lies between GPU_KERNEL_CONV2D dispatches as
 * words of four 8-bit integers (as an 8-bit partition input is read in
 * place): its bytes are its slices, one conv2d dispatch writes it whole
 * and ends on its grid, and every other access is a conv2d dispatch
 * reading it as t1. No other tensor shares its storage. */
static int words_between_possible(const gpu_lowering *lw, uint32_t t) {
  const lower_tensor *lt = &lw->tensors[t];
  if (lt->storage != GPU_BUFFER_ARENA || lt->alias >= 0 || lt->is_input || lt->is_output ||
      lt->producer < 0 || lt->request < 0 || !bytes_are_slices(lw, t))
    return 0;
  uint32_t writer = (uint32_t)lt->producer;
  const gpu_dispatch *dispatches = lw->program->dispatches;
  if (dispatches[writer].kernel != GPU_KERNEL_CONV2D || dispatches[writer].args[0].element_offset)
    return 0;
  int32_t grid[5];
  lower_dense_kind_params(lw, t, grid);
  if (!grid_moves_into_store(gpu_program_params(lw->program, writer), grid)) return 0;
  for (uint32_t x = 0; x < lw->tensor_count; ++x)
    if (x != t && lower_storage_root(lw, x) == t) return 0;
  uint32_t readers = 0;
  for (uint32_t f = 0; f < lw->fixup_count; ++f) {
    const lower_fixup *fixup = &lw->fixups[f];
    if (fixup->request != lt->request || (fixup->dispatch == writer && fixup->argument == 0))
      continue;
    if (fixup->dispatch == writer ||
        !lower_reads_words_as(&dispatches[fixup->dispatch], fixup->argument))
      return 0;
    readers++;
  }
  return readers > 0;
}

/* 8-bit tensors between convolutions kept as their integers, one word per
 * slice (words_between_possible), where the backend asks for it
 * (GPU_FEATURE_WORDS_BETWEEN): the writer stores them as it would a
 * partition output (its grid post-op moved into the store), each reader
 * dequantizes them as it reads a partition input read in place. The
 * values the readers see are the float view's: the grid's integers,
 * dequantized and rounded as storage would round them (as_stored). A
 * chain of 8-bit FULLY_CONNECTED layers then runs one program where its
 * float twin runs two, and the dispatch after a switch of program costs
 * 1-2 us more on the H100 (gpu_vk: the 24-layer int8 twin 140 -> 131 us,
 * its float twin 132; bench/RESULTS.md, wave 13). */
static void keep_words_between(gpu_lowering *lw) {
  uint32_t needed = GPU_FEATURE_INPUT_WORDS | GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_WORDS_BETWEEN;
  if ((lw->backend->caps.features & needed) != needed) return;
  for (uint32_t t = 0; t < lw->graph->tensor_count; ++t) {
    if (!words_between_possible(lw, t)) continue;
    const lower_tensor *lt = &lw->tensors[t];
    set_dense_store(lw, (uint32_t)lt->producer, t);
    lw->requests[lt->request].size = (uint64_t)gpu_shape_pixels(lt->shape) * lt->shape.s * 4;
    for (uint32_t f = 0; f < lw->fixup_count; ++f) {
      lower_fixup *fixup = &lw->fixups[f];
      if (fixup->request != lt->request) continue;
      if (fixup->argument == 0) {
        fixup->unit = 1; /* the store's offsets count bytes */
      } else {
        fixup->unit = 4;
        lower_read_words(lw, fixup->dispatch, t);
      }
    }
  }
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
    gpu_argument *argument = &program->dispatches[fixup->dispatch].args[fixup->argument];
    uint32_t unit = fixup->unit ? fixup->unit : program->element_size;
    uint64_t offset = lw->requests[fixup->request].offset / unit + argument->element_offset;
    if (offset > INT32_MAX)
      return lw->host->status_make(TFLACCEL_OUT_OF_MEMORY,
                                   "%s: the arena exceeds 32-bit element offsets",
                                   lw->backend->plugin_name);
    gpu_program_params(program, fixup->dispatch)[fixup->argument] = (int32_t)offset;
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

/* Names the op behind dispatches [from, count) for kernel profiles; an op
 * that added none is computed by the latest one (fused). */
static void attribute_dispatches(gpu_program *program, uint32_t from, uint32_t op,
                                 uint32_t *last) {
  for (uint32_t d = from; d < program->dispatch_count; ++d) {
    program->dispatches[d].first_op = op;
    program->dispatches[d].op_count = 1;
    *last = d;
  }
  if (from == program->dispatch_count && *last != UINT32_MAX) program->dispatches[*last].op_count++;
}

int32_t gpu_lowering_storage(const gpu_backend *backend, const tflaccel_compile_options *options) {
  if (options != NULL && options->precision == TFLACCEL_PRECISION_FP16)
    return backend->caps.has_half_math ? GPU_STORAGE_HALF_MATH : GPU_STORAGE_HALF;
  return GPU_STORAGE_FLOAT32;
}

tflaccel_status gpu_lower_partition(const gpu_backend *backend, const tflaccel_graph_view *graph,
                                    const tflaccel_partition_desc *partition,
                                    const tflaccel_compile_options *options, gpu_program *program) {
  gpu_program_init(program, gpu_lowering_storage(backend, options));
  /* Every op must be one the GPU layer runs: the same answer supports_op gave. */
  for (uint32_t p = 0; p < partition->op_count; ++p) {
    if (partition->ops[p] >= graph->op_count)
      return backend->host->status_make(TFLACCEL_INVALID_ARGUMENT,
                                        "%s: partition op %u is not in the graph",
                                        backend->plugin_name, partition->ops[p]);
    char reason[TFLACCEL_REASON_SIZE];
    if (!gpu_op_supported(graph, partition->ops[p],
                          options != NULL ? options->precision : TFLACCEL_PRECISION_FP32,
                          backend->plugin_name, reason, sizeof reason))
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
    if (!pad_is_fusable(&lw, p)) continue;
    lw.absorbed[p] = 1;
    lw.pad_source[lw.tensors[lower_op(&lw, p)->outputs[0]].consumer] = (int32_t)p;
  }
  if (status == NULL) status = convert_inputs(&lw);
  uint32_t last = UINT32_MAX; /* the latest dispatch an op added */
  for (uint32_t p = 0; status == NULL && p < partition->op_count; ++p) {
    uint32_t before = program->dispatch_count;
    if (!lw.absorbed[p]) status = lower_one(&lw, p);
    attribute_dispatches(program, before, partition->ops[p], &last);
  }
  if (status == NULL) status = convert_outputs(&lw);
  if (status == NULL) keep_words_between(&lw);
  if (status == NULL) status = plan_arena(&lw);
  lowering_release(&lw);
  return status;
}
