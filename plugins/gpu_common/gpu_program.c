/* Building a gpu_program: growing arrays of dispatches, parameters and
 * constant bytes. */
#include "config.h"

#include <string.h>

#include "core/facts/half.h"
#include "plugins/gpu_common/gpu_program.h"

void gpu_program_init(gpu_program *program, int32_t storage) {
  memset(program, 0, sizeof *program);
  program->storage = storage;
  program->element_size = storage == GPU_STORAGE_FLOAT32 ? 4 : 2;
}

void gpu_program_release(const tflaccel_host_services *host, gpu_program *program) {
  if (program->dispatches != NULL) host->free(host->context, program->dispatches);
  if (program->params != NULL) host->free(host->context, program->params);
  if (program->constants != NULL) host->free(host->context, program->constants);
  if (program->state_initial != NULL) host->free(host->context, program->state_initial);
  if (program->binding_tensors != NULL) host->free(host->context, program->binding_tensors);
  if (program->binding_bytes != NULL) host->free(host->context, program->binding_bytes);
  memset(program, 0, sizeof *program);
}

/* host->alloc + copy + free: the host services have no realloc. */
static void *grow(const tflaccel_host_services *host, void *old, size_t old_size, size_t new_size,
                  size_t alignment) {
  void *fresh = host->alloc(host->context, new_size, alignment);
  if (fresh == NULL) return NULL;
  if (old != NULL) {
    memcpy(fresh, old, old_size);
    host->free(host->context, old);
  }
  memset((char *)fresh + old_size, 0, new_size - old_size);
  return fresh;
}

tflaccel_status gpu_program_add_dispatch(const tflaccel_host_services *host, gpu_program *program,
                                         int32_t kernel, uint32_t *index) {
  if (program->dispatch_count == program->dispatch_capacity) {
    uint32_t capacity = program->dispatch_capacity ? program->dispatch_capacity * 2 : 64;
    gpu_dispatch *dispatches =
        grow(host, program->dispatches, sizeof(gpu_dispatch) * program->dispatch_capacity,
             sizeof(gpu_dispatch) * capacity, _Alignof(gpu_dispatch));
    if (dispatches == NULL)
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "GPU program: out of memory (dispatches)");
    program->dispatches = dispatches;
    int32_t *params = grow(host, program->params,
                           sizeof(int32_t) * GPU_PARAMS_PER_DISPATCH * program->dispatch_capacity,
                           sizeof(int32_t) * GPU_PARAMS_PER_DISPATCH * capacity, _Alignof(int32_t));
    if (params == NULL)
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "GPU program: out of memory (parameters)");
    program->params = params;
    program->dispatch_capacity = capacity;
  }
  uint32_t at = program->dispatch_count++;
  gpu_dispatch *dispatch = &program->dispatches[at];
  memset(dispatch, 0, sizeof *dispatch);
  dispatch->kernel = kernel;
  dispatch->params = at * GPU_PARAMS_PER_DISPATCH;
  dispatch->first_op = TFLACCEL_NO_OP;
  for (int i = 0; i < 3; ++i) dispatch->global[i] = dispatch->local[i] = 1;
  *index = at;
  return NULL;
}

tflaccel_status gpu_program_add_constants(const tflaccel_host_services *host, gpu_program *program,
                                          uint64_t size, uint64_t alignment, uint64_t *offset) {
  uint64_t start = (program->constants_size + alignment - 1) / alignment * alignment;
  uint64_t end = start + size;
  if (end > program->constants_capacity) {
    uint64_t capacity = program->constants_capacity ? program->constants_capacity : 1 << 16;
    while (capacity < end) capacity *= 2;
    if (capacity > SIZE_MAX)
      return host->status_make(TFLACCEL_OUT_OF_MEMORY, "GPU program: %llu bytes of constants",
                               (unsigned long long)capacity);
    /* Not grow(): only the bytes in use are copied, and only those handed
     * out are zeroed (below), so the unused tail of a doubled capacity is
     * never touched (pose_landmark_lite: 6 MB of packed weights). */
    uint8_t *bytes = host->alloc(host->context, (size_t)capacity, 64);
    if (bytes == NULL)
      return host->status_make(TFLACCEL_OUT_OF_MEMORY,
                               "GPU program: out of memory (%llu bytes of constants)",
                               (unsigned long long)capacity);
    if (program->constants != NULL) {
      memcpy(bytes, program->constants, (size_t)program->constants_size);
      host->free(host->context, program->constants);
    }
    program->constants = bytes;
    program->constants_capacity = capacity;
  }
  /* The padding before start and the new constants start as zeros (the
   * packing leaves padding channels unwritten). */
  memset(program->constants + program->constants_size, 0, (size_t)(end - program->constants_size));
  program->constants_size = end;
  *offset = start;
  return NULL;
}

int32_t gpu_float_bits(float value) {
  int32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

float gpu_float_from_bits(int32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

uint32_t gpu_post_list(const int32_t *params) {
  int32_t count = params[GPU_P_POST_COUNT], dense = params[GPU_P_OUT_DENSE];
  /* The store's own grid post-op lies just past the applied ones. */
  int32_t described = count + ((dense & GPU_OUT_DENSE_GRID) != 0);
  uint32_t list = (uint32_t)(count + 1) << GPU_POST_LIST_COUNT_SHIFT |
                  (uint32_t)(dense & 31) << GPU_POST_LIST_DENSE_SHIFT;
  for (int32_t i = 0; i < described && i < GPU_MAX_POSTS; ++i) {
    const int32_t *post = params + GPU_P_POSTS + GPU_POST_SIZE * i;
    uint32_t bits = (uint32_t)(post[0] & 7);
    if (post[0] == GPU_POST_QUANTIZE) bits |= (uint32_t)(post[1] & 3) << 3 | (post[2] != 0) << 5;
    list |= bits << (GPU_POST_LIST_POSTS_SHIFT + GPU_POST_LIST_POST_BITS * i);
  }
  return list;
}

int32_t gpu_post_list_pushed_grid(uint32_t post_list) {
  int32_t found = -1;
  if (post_list == 0) return found;
  for (int32_t i = 0; i < GPU_MAX_POSTS; ++i) {
    uint32_t bits = post_list >> (GPU_POST_LIST_POSTS_SHIFT + GPU_POST_LIST_POST_BITS * i);
    if ((bits & 7) == GPU_POST_QUANTIZE) found = i;
  }
  return found;
}

void gpu_pushed_grid_values(const int32_t *params, uint32_t post_list,
                            int32_t values[GPU_GRID_VALUE_COUNT]) {
  for (int i = 0; i < GPU_GRID_VALUE_COUNT; ++i) values[i] = 0;
  int32_t grid = gpu_post_list_pushed_grid(post_list);
  if (grid < 0) return;
  const int32_t *post = params + GPU_P_POSTS + GPU_POST_SIZE * grid;
  values[GPU_GRID_VALUE_SCALE] = post[8];
  values[GPU_GRID_VALUE_ZERO] = post[9];
  values[GPU_GRID_VALUE_QMIN] = post[10];
  values[GPU_GRID_VALUE_QMAX] = post[11];
  double f = post[1] >= 2 && post[2] == 0 ? (double)gpu_float_from_bits(post[3]) : 1.0;
  values[GPU_GRID_VALUE_RATE] = gpu_float_bits((float)(f / (double)gpu_float_from_bits(post[8])));
  values[GPU_GRID_VALUE_INVERSE_STEP] = gpu_float_bits((float)(1.0 / f));
}
