/* A lowered program as a cache entry (gpu_program_cache.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_program_cache.h"

/* "GPRG": the first word of every body, read back wrong on a machine of
 * the other byte order. */
#define PROGRAM_MAGIC 0x47525047u
/* Where the constants start in the body: gpu_disk_cache_read hands the
 * body over 16-byte aligned, so the upload reads aligned bytes. */
#define CONSTANTS_ALIGNMENT 16u

/* The sizes the fields are coded with are the struct's (fixed-width
 * types); this notices a field added to them without code_program. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(gpu_argument) == 40, "gpu_argument changed: update code_argument");
_Static_assert(sizeof(gpu_dispatch) == 4 + 4 + GPU_MAX_ARGS * 40 + 4 + 24 + 8 + 4,
               "gpu_dispatch changed: update code_dispatch");
_Static_assert(sizeof(gpu_program) == 104, "gpu_program changed: update code_program");
#endif

/* One direction of the coding: measuring (writing with out NULL), writing
 * into out, or reading from in. The same code_* calls do all three, so an
 * entry is read exactly as it was written. */
typedef struct program_coder {
  int reading;
  const tflaccel_host_services *host;
  uint8_t *out;
  const uint8_t *in;
  uint64_t size; /* reading: the body's bytes */
  uint64_t at;   /* bytes coded so far */
  const char *problem;      /* reading: the first thing wrong, else NULL */
  const uint8_t *constants; /* reading: where the constants are in `in` */
} program_coder;

static void code_bytes(program_coder *c, void *value, uint64_t size) {
  if (c->problem != NULL || size == 0) return;
  if (c->reading) {
    if (size > c->size - c->at) {
      c->problem = "truncated program";
      return;
    }
    memcpy(value, c->in + c->at, (size_t)size);
  } else if (c->out != NULL) {
    memcpy(c->out + c->at, value, (size_t)size);
  }
  c->at += size;
}

static void code_u32(program_coder *c, uint32_t *value) { code_bytes(c, value, sizeof *value); }
static void code_i32(program_coder *c, int32_t *value) { code_bytes(c, value, sizeof *value); }
static void code_u64(program_coder *c, uint64_t *value) { code_bytes(c, value, sizeof *value); }

/* Reading: allocates *array for count elements of element_size bytes, when
 * the bytes left can hold count elements coded in coded_size bytes each
 * (so no count, however damaged, allocates more than the entry's size
 * allows). Writing: nothing. */
static void make_array(program_coder *c, void **array, uint64_t count, size_t element_size,
                       uint64_t coded_size, size_t alignment) {
  if (c->problem != NULL || !c->reading) return;
  *array = NULL;
  if (coded_size > 0 && count > (c->size - c->at) / coded_size) {
    c->problem = "a count beyond the entry's bytes";
    return;
  }
  *array = c->host->alloc(c->host->context, count > 0 ? (size_t)count * element_size : 1,
                          alignment);
  if (*array == NULL) c->problem = "out of memory";
}

/* An array of plain integers coded whole. */
static void code_array(program_coder *c, void **array, uint64_t count, size_t element_size) {
  make_array(c, array, count, element_size, element_size, element_size);
  if (c->problem == NULL) code_bytes(c, *array, count * element_size);
}

static void code_argument(program_coder *c, gpu_argument *argument) {
  code_i32(c, &argument->kind);
  code_u32(c, &argument->binding);
  code_u32(c, &argument->offset_unit);
  code_u64(c, &argument->arena_offset);
  code_u64(c, &argument->arena_size);
  code_u32(c, &argument->element_offset);
}

static void code_dispatch(program_coder *c, gpu_dispatch *dispatch) {
  code_i32(c, &dispatch->kernel);
  for (uint32_t a = 0; a < GPU_MAX_ARGS; ++a) code_argument(c, &dispatch->args[a]);
  code_u32(c, &dispatch->params);
  for (int i = 0; i < 3; ++i) code_u32(c, &dispatch->global[i]);
  for (int i = 0; i < 3; ++i) code_u32(c, &dispatch->local[i]);
  code_u32(c, &dispatch->first_op);
  code_u32(c, &dispatch->op_count);
}

/* Every field of a gpu_program, in entry order: THE one place that says
 * what an entry holds. A field added to gpu_program, gpu_dispatch or
 * gpu_argument (gpu_program.h) is coded here, in code_dispatch or in
 * code_argument, checked in check_program when it indexes anything, and
 * GPU_PROGRAM_CACHE_VERSION goes up. Capacities are not coded: a read
 * program's arrays are exactly its counts. */
static void code_program(program_coder *c, gpu_program *program) {
  uint32_t magic = PROGRAM_MAGIC, version = GPU_PROGRAM_CACHE_VERSION;
  code_u32(c, &magic);
  code_u32(c, &version);
  if (c->problem == NULL && (magic != PROGRAM_MAGIC || version != GPU_PROGRAM_CACHE_VERSION))
    c->problem = "another format or byte order";
  code_i32(c, &program->storage);
  code_u32(c, &program->element_size);
  code_u64(c, &program->arena_size);
  /* The variable tensors' initial values (gpu_state.h), kept for reset_state. */
  code_u64(c, &program->state_size);
  code_array(c, (void **)&program->state_initial, program->state_size, sizeof(uint8_t));

  code_u32(c, &program->dispatch_count);
  program_coder measure = {0};
  gpu_dispatch sample;
  memset(&sample, 0, sizeof sample);
  code_dispatch(&measure, &sample);
  make_array(c, (void **)&program->dispatches, program->dispatch_count, sizeof(gpu_dispatch),
             measure.at, _Alignof(gpu_dispatch));
  for (uint32_t i = 0; c->problem == NULL && i < program->dispatch_count; ++i)
    code_dispatch(c, &program->dispatches[i]);
  if (c->reading && c->problem == NULL) program->dispatch_capacity = program->dispatch_count;
  code_array(c, (void **)&program->params,
             (uint64_t)program->dispatch_count * GPU_PARAMS_PER_DISPATCH, sizeof(int32_t));

  code_u32(c, &program->binding_count);
  code_array(c, (void **)&program->binding_tensors, program->binding_count, sizeof(uint32_t));
  code_array(c, (void **)&program->binding_bytes, program->binding_count, sizeof(uint64_t));

  /* Last, aligned, and read in place: the packed weights (megabytes). */
  code_u64(c, &program->constants_size);
  uint8_t padding[CONSTANTS_ALIGNMENT] = {0};
  code_bytes(c, padding, (CONSTANTS_ALIGNMENT - c->at % CONSTANTS_ALIGNMENT) % CONSTANTS_ALIGNMENT);
  if (c->problem != NULL) return;
  if (c->reading) {
    if (program->constants_size != c->size - c->at) {
      c->problem = "constants of another size than the entry holds";
      return;
    }
    c->constants = c->in + c->at;
    c->at += program->constants_size;
  } else {
    code_bytes(c, program->constants, program->constants_size);
  }
}

/* NULL when every index and offset of program (just read) is within what
 * it describes and what this partition of graph is; else what is not. */
static const char *check_program(const gpu_program *program, const tflaccel_graph_view *graph,
                                 const tflaccel_partition_desc *partition, int32_t storage) {
  if (program->storage != storage) return "another storage mode";
  if (program->element_size != (storage == GPU_STORAGE_FLOAT32 ? 4u : 2u))
    return "an element size not the storage mode's";
  if (program->binding_count != partition->input_count + partition->output_count)
    return "another number of bindings than the partition's inputs and outputs";
  for (uint32_t b = 0; b < program->binding_count; ++b) {
    uint32_t t = b < partition->input_count ? partition->inputs[b]
                                            : partition->outputs[b - partition->input_count];
    if (program->binding_tensors[b] != t || t >= graph->tensor_count)
      return "a binding that is not the partition's input or output";
    if (program->binding_bytes[b] != graph->tensors[t].byte_size)
      return "a binding size that is not its tensor's";
  }
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    const int32_t *params = program->params + (size_t)i * GPU_PARAMS_PER_DISPATCH;
    if (dispatch->kernel < 0 || dispatch->kernel >= GPU_KERNEL_EXTENDED_COUNT)
      return "a kernel id outside the catalogue";
    if (dispatch->params != i * GPU_PARAMS_PER_DISPATCH)
      return "parameters at another dispatch's place";
    for (int d = 0; d < 3; ++d)
      if (dispatch->global[d] == 0 || dispatch->local[d] == 0) return "an empty work size";
    if (dispatch->first_op != TFLACCEL_NO_OP && dispatch->first_op >= graph->op_count)
      return "an op outside the graph";
    if (dispatch->op_count > partition->op_count) return "more ops than the partition has";
    if (params[GPU_P_POST_COUNT] < 0 || params[GPU_P_POST_COUNT] > GPU_MAX_POSTS)
      return "a post-op count out of range";
    for (uint32_t a = 0; a < GPU_MAX_ARGS; ++a) {
      const gpu_argument *argument = &dispatch->args[a];
      int64_t offset = params[GPU_P_OFFSETS + a];
      switch (argument->kind) {
        case GPU_BUFFER_NONE: break;
        case GPU_BUFFER_ARENA:
        case GPU_BUFFER_STATE: {
          /* Its tensor's bytes in the arena or the state buffer, and the
           * offset parameter at them plus the step it sees. */
          uint64_t buffer_size =
              argument->kind == GPU_BUFFER_ARENA ? program->arena_size : program->state_size;
          if (argument->arena_offset > buffer_size ||
              argument->arena_size > buffer_size - argument->arena_offset)
            return "a tensor outside the arena or the state buffer";
          if ((uint64_t)argument->element_offset * program->element_size > buffer_size)
            return "a step offset outside its buffer";
          if (offset < 0 || (uint64_t)offset * program->element_size > buffer_size ||
              (argument->arena_size > 0 &&
               (uint64_t)offset * program->element_size !=
                   argument->arena_offset +
                       (uint64_t)argument->element_offset * program->element_size))
            return "an arena or state offset outside its tensor";
          break;
        }
        case GPU_BUFFER_CONSTANTS:
          if (offset < 0 || (uint64_t)offset * program->element_size > program->constants_size)
            return "a constant offset outside the constants";
          break;
        case GPU_BUFFER_BINDING:
          if (argument->binding >= program->binding_count) return "a binding index out of range";
          if (argument->offset_unit == 0 || argument->offset_unit > 16)
            return "a binding offset unit out of range";
          if (offset != 0) return "a binding argument with an offset";
          break;
        default: return "an unknown argument kind";
      }
    }
  }
  return NULL;
}

void gpu_program_cache_key(const gpu_disk_cache_key_builder *partition_key,
                           gpu_disk_cache_key *key) {
  gpu_disk_cache_key_builder builder = *partition_key;
  uint32_t version = GPU_PROGRAM_CACHE_VERSION;
  gpu_disk_cache_key_add_string(&builder, GPU_PROGRAM_CACHE_LABEL);
  gpu_disk_cache_key_add(&builder, &version, sizeof version);
  gpu_disk_cache_key_end(&builder, key);
}

int gpu_program_cache_encode(const tflaccel_host_services *host, const gpu_program *program,
                             void **body, uint32_t *size) {
  *body = NULL;
  *size = 0;
  /* Coding only reads the program when writing; the casts lose nothing. */
  gpu_program *source = (gpu_program *)program;
  program_coder measure = {.host = host};
  code_program(&measure, source);
  if (measure.at == 0 || measure.at > GPU_DISK_CACHE_MAX_BYTES) return 0;
  uint8_t *bytes = host->alloc(host->context, (size_t)measure.at, CONSTANTS_ALIGNMENT);
  if (bytes == NULL) return 0;
  program_coder write = {.host = host, .out = bytes};
  code_program(&write, source);
  *body = bytes;
  *size = (uint32_t)write.at;
  return 1;
}

const char *gpu_program_cache_decode(const tflaccel_host_services *host, const void *body,
                                     uint32_t size, const tflaccel_graph_view *graph,
                                     const tflaccel_partition_desc *partition, int32_t storage,
                                     gpu_program *program, const uint8_t **constants) {
  *constants = NULL;
  gpu_program_init(program, storage);
  program_coder read = {.reading = 1, .host = host, .in = body, .size = size};
  code_program(&read, program);
  const char *problem = read.problem;
  if (problem == NULL) problem = check_program(program, graph, partition, storage);
  /* The constants stay in the entry: the program owns none. */
  uint64_t constants_size = program->constants_size;
  program->constants = NULL;
  program->constants_capacity = 0;
  if (problem != NULL) {
    gpu_program_release(host, program);
    return problem;
  }
  program->constants_size = constants_size;
  *constants = read.constants;
  return NULL;
}

int gpu_program_cache_write(const gpu_backend *backend, const tflaccel_compile_options *options,
                            const gpu_disk_cache_key *key, const gpu_program *program) {
  const tflaccel_host_services *host = backend->host;
  gpu_disk_cache disk = {.host = host, .prefix = backend->plugin_name};
  gpu_disk_cache_name_model(&disk, options);
  void *body = NULL;
  uint32_t size = 0;
  if (!gpu_program_cache_encode(host, program, &body, &size)) {
    host->log(host->context, TFLACCEL_LOG_DEBUG,
              "cache: the lowered program is not kept (%llu bytes of constants)",
              (unsigned long long)program->constants_size);
    return 0;
  }
  int written = gpu_disk_cache_write(&disk, key, GPU_PROGRAM_CACHE_LABEL, body, size, 0);
  host->free(host->context, body);
  return written;
}

int gpu_program_cache_read(const gpu_backend *backend, const gpu_disk_cache_key *key,
                           const tflaccel_graph_view *graph,
                           const tflaccel_partition_desc *partition, int32_t storage,
                           gpu_program *program, void **entry, const uint8_t **constants) {
  const tflaccel_host_services *host = backend->host;
  const gpu_disk_cache disk = {.host = host, .prefix = backend->plugin_name};
  *entry = NULL;
  *constants = NULL;
  gpu_program_init(program, storage);
  void *body = NULL;
  uint32_t size = 0, tag = 0;
  if (!gpu_disk_cache_read(&disk, key, &body, &size, &tag)) return 0;
  const char *problem =
      gpu_program_cache_decode(host, body, size, graph, partition, storage, program, constants);
  if (problem != NULL) {
    gpu_disk_cache_refuse(&disk, key, problem);
    host->free(host->context, body);
    gpu_program_init(program, storage);
    return 0;
  }
  *entry = body;
  return 1;
}
