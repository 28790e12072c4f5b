/* Greedy-by-size arena planning, the approach TFLite's and ONNX Runtime's
 * planners take: place the largest tensors first, each at the lowest offset
 * that does not overlap a tensor alive at the same time. O(n^2), fine for the
 * few thousand tensors real models have. */
#include "config.h"

#include <stdlib.h>

#include "core/memory/arena_planner.h"

static uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

static int lifetimes_overlap(const tflaccel_arena_request *a, const tflaccel_arena_request *b) {
  return a->first_use <= b->last_use && b->first_use <= a->last_use;
}

tflaccel_status arena_plan(tflaccel_arena_request *requests, uint32_t count, uint64_t alignment,
                           uint64_t *total_size) {
  if (total_size == NULL || (count > 0 && requests == NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "arena planner: NULL argument");
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "arena planner: alignment %llu is not a power of two",
                                (unsigned long long)alignment);
  *total_size = 0;
  if (count == 0) return NULL;
  uint32_t *order = malloc(sizeof *order * count);
  uint32_t *placed = malloc(sizeof *placed * count);
  if (order == NULL || placed == NULL) {
    free(order);
    free(placed);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "arena planner: out of memory");
  }
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  /* Largest first, ties by first use then index, so plans are deterministic.
   * An insertion sort: qsort has no context argument in C11, and a static
   * comparator context would be global mutable state. */
  for (uint32_t i = 1; i < count; ++i) {
    uint32_t key = order[i];
    uint32_t j = i;
    while (j > 0) {
      const tflaccel_arena_request *a = &requests[order[j - 1]], *b = &requests[key];
      int before = a->size > b->size || (a->size == b->size && (a->first_use < b->first_use ||
                                        (a->first_use == b->first_use && order[j - 1] < key)));
      if (before) break;
      order[j] = order[j - 1];
      --j;
    }
    order[j] = key;
  }
  uint32_t placed_count = 0;
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_arena_request *request = &requests[order[i]];
    uint64_t size = align_up(request->size, alignment);
    uint64_t offset = 0;
    /* Try the lowest gap: repeat until no overlapping placed tensor collides. */
    int moved = 1;
    while (moved) {
      moved = 0;
      for (uint32_t k = 0; k < placed_count; ++k) {
        const tflaccel_arena_request *other = &requests[placed[k]];
        if (!lifetimes_overlap(request, other)) continue;
        uint64_t other_end = other->offset + align_up(other->size, alignment);
        if (offset < other_end && other->offset < offset + size) {
          offset = other_end;
          moved = 1;
        }
      }
    }
    request->offset = offset;
    placed[placed_count++] = order[i];
    if (offset + size > total) total = offset + size;
  }
  free(order);
  free(placed);
  *total_size = total;
  return NULL;
}
