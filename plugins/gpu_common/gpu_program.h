/* A compiled partition, as data: the buffers it needs, the dispatches in
 * order and their parameters. It holds no API object: a backend turns it
 * into buffers and kernels (gpu_executable.h). The compiled-model cache
 * keeps it whole (gpu_program_cache.h): a field added to gpu_program,
 * gpu_dispatch or gpu_argument is added to gpu_program_cache.c's
 * code_program too, and the entry's version raised. */
#ifndef TFLACCEL_GPU_COMMON_GPU_PROGRAM_H
#define TFLACCEL_GPU_COMMON_GPU_PROGRAM_H

#include <stdint.h>
#include <string.h>

#include "core/facts/half.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "tflaccel/accelerator.h"

/* How values are stored and computed. */
typedef enum gpu_storage_mode {
  GPU_STORAGE_FLOAT32 = 0,   /* float storage, float arithmetic */
  GPU_STORAGE_HALF = 1,      /* half storage (vload_half), float arithmetic */
  GPU_STORAGE_HALF_MATH = 2, /* half storage and half arithmetic */
  GPU_STORAGE_MODE_COUNT
} gpu_storage_mode;

/* Which buffer a dispatch argument lives in. */
typedef enum gpu_buffer_kind {
  GPU_BUFFER_NONE = 0,      /* unused argument */
  GPU_BUFFER_ARENA = 1,     /* intermediate tensors, planned by lifetime */
  GPU_BUFFER_CONSTANTS = 2, /* weights and constant tensors, uploaded once */
  GPU_BUFFER_BINDING = 3,   /* a partition input or output, given at run time */
  GPU_BUFFER_STATE = 4,     /* variable tensors, kept from one run to the next (gpu_state.h) */
} gpu_buffer_kind;

typedef struct gpu_argument {
  int32_t kind;         /* gpu_buffer_kind */
  uint32_t binding;     /* GPU_BUFFER_BINDING: index into gpu_program.binding_tensors */
  uint32_t offset_unit; /* GPU_BUFFER_BINDING: bytes per unit of the parameter offset */
  /* GPU_BUFFER_ARENA: the bytes of its tensor in the arena, once planned
   * (size 0: not known, the whole arena), so that a backend can tell
   * dispatches that touch different tensors apart. GPU_BUFFER_STATE: its
   * bytes in the state buffer. */
  uint64_t arena_offset, arena_size;
  /* Elements from the start of its tensor to the part this argument sees
   * (one time step of a sequence op), added to the offset parameter
   * whatever sets it: the arena plan, a binding, a narrowed range. */
  uint32_t element_offset;
} gpu_argument;

typedef struct gpu_dispatch {
  int32_t kernel; /* gpu_kernel_id */
  gpu_argument args[GPU_MAX_ARGS];
  uint32_t params; /* index of its first int in gpu_program.params */
  uint32_t global[3];
  uint32_t local[3]; /* preferred; the backend fits it to the device */
  /* For kernel profiles: the graph op whose lowering added it
   * (TFLACCEL_NO_OP: a layout conversion) and the partition's ops it
   * computes from there (ops that add no dispatch count with the one
   * before them). */
  uint32_t first_op, op_count;
} gpu_dispatch;

typedef struct gpu_program {
  int32_t storage;       /* gpu_storage_mode */
  uint32_t element_size; /* bytes of one stored value: 4 or 2 */

  gpu_dispatch *dispatches;
  uint32_t dispatch_count, dispatch_capacity;

  int32_t *params; /* GPU_PARAMS_PER_DISPATCH per dispatch */

  uint8_t *constants; /* host copy of the constants buffer */
  uint64_t constants_size, constants_capacity;

  uint64_t arena_size; /* bytes */

  /* Variable tensors (gpu_state.h): the state buffer's bytes and their
   * initial values (stored values in the slice layout, kept for
   * reset_state), uploaded at compile and at every reset. */
  uint64_t state_size;
  uint8_t *state_initial;

  /* Partition inputs then outputs: the tensors bindings name. */
  uint32_t binding_count;
  uint32_t *binding_tensors;
  uint64_t *binding_bytes; /* bytes each binding must hold */
} gpu_program;

void gpu_program_init(gpu_program *program, int32_t storage);
void gpu_program_release(const tflaccel_host_services *host, gpu_program *program);

/* Appends a zeroed dispatch (parameters zeroed too) and returns its index. */
tflaccel_status gpu_program_add_dispatch(const tflaccel_host_services *host, gpu_program *program,
                                         int32_t kernel, uint32_t *index);
static inline int32_t *gpu_program_params(gpu_program *program, uint32_t dispatch) {
  return program->params + (size_t)program->dispatches[dispatch].params;
}

/* Reserves size bytes of the constants buffer, aligned to alignment, zeroed;
 * returns the byte offset. */
tflaccel_status gpu_program_add_constants(const tflaccel_host_services *host, gpu_program *program,
                                          uint64_t size, uint64_t alignment, uint64_t *offset);

/* Stores value as element index of the constants at byte offset base, in
 * the program's storage type. Inline: the weight packing loops call it once
 * per weight (a call each was a third of pose_landmark_lite's lowering). */
static inline void gpu_store_value(uint8_t *bytes, uint32_t element_size, uint64_t index,
                                   float value) {
  uint8_t *at = bytes + index * element_size;
  if (element_size == 4) {
    memcpy(at, &value, 4);
  } else {
    uint16_t half = half_from_float(value);
    memcpy(at, &half, 2);
  }
}
static inline void gpu_program_store_constant(gpu_program *program, uint64_t base, uint64_t index,
                                              float value) {
  gpu_store_value(program->constants + base, program->element_size, index, value);
}

/* Float <-> int bits, for float parameters. */
int32_t gpu_float_bits(float value);
float gpu_float_from_bits(int32_t bits);

/* The post-op list of the dispatch whose parameters these are, encoded as
 * gpu_kernel_catalog.h's GPU_POST_LIST_* describe (never 0). */
uint32_t gpu_post_list(const int32_t *params);

/* The post-op that a dispatch of post-op list post_list passes the grid
 * values of beside its parameter offset (GPU_GRID_VALUE_*): its last
 * GPU_POST_QUANTIZE, the store's own included; -1 when none (or
 * post_list is 0). */
int32_t gpu_post_list_pushed_grid(uint32_t post_list);

/* Those values, from the dispatch's parameters; all 0 when it has none. */
void gpu_pushed_grid_values(const int32_t *params, uint32_t post_list,
                            int32_t values[GPU_GRID_VALUE_COUNT]);

#endif
