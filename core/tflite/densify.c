/* Densifying the TACO-style format of schema.fbs. The dense tensor of rank n
 * may be cut into blocks along k of its dimensions (block_map); the stored
 * form then has n + k levels, walked in traversal_order. A DENSE level
 * enumerates all of its coordinates; a SPARSE_CSR level lists, for each
 * position of the level above, the coordinates present:
 * array_segments[p] .. array_segments[p + 1] index array_indices. A position
 * at a dense level is parent * size + coordinate, at a sparse level the
 * entry's index. The leaves, in walk order, are the stored values. */
#include "config.h"

#include <string.h>

#include "core/facts/dtype.h"
#include "core/tflite/densify.h"
#include "core/tflite/flatbuffer.h"
#include "core/tflite/schema.h"

/* Sparse formats nest a few levels; more is a corrupt file. */
#define DENSIFY_MAX_LEVELS 16

typedef struct densify_walk {
  const model_tensor *tensor;
  const model_sparsity *sparsity;
  uint32_t rank, levels;
  int64_t level_size[DENSIFY_MAX_LEVELS];  /* coordinates of the level's dimension */
  int64_t block_size[DENSIFY_MAX_LEVELS];  /* per block dimension */
  int64_t coordinate[DENSIFY_MAX_LEVELS];  /* current coordinate per level */
  uint64_t stride[DENSIFY_MAX_LEVELS];     /* row-major strides of the dense shape */
  size_t element_size;
  uint64_t value_count, next_value;
  uint8_t *dense;
} densify_walk;

static tflaccel_status invalid(const char *format, ...) __attribute__((format(printf, 1, 2)));

static tflaccel_status invalid(const char *format, ...) {
  va_list args;
  va_start(args, format);
  tflaccel_status status = tflaccel_status_make_v(TFLACCEL_INVALID_MODEL, format, args);
  va_end(args);
  return status;
}

static int64_t index_at(const model_index_array *array, uint32_t i) {
  switch (array->type) {
  case TFLITE_SPARSE_INDEX_INT32: return (int32_t)fb_load_u32(array->values + 4 * (size_t)i);
  case TFLITE_SPARSE_INDEX_UINT16: return fb_load_u16(array->values + 2 * (size_t)i);
  default: return array->values[i];
  }
}

static tflaccel_status emit(densify_walk *walk) {
  int64_t original[DENSIFY_MAX_LEVELS];
  const int32_t *order = walk->sparsity->traversal_order;
  for (uint32_t l = 0; l < walk->rank; ++l) original[order[l]] = walk->coordinate[l];
  for (uint32_t l = walk->rank; l < walk->levels; ++l) {
    uint32_t block = (uint32_t)order[l] - walk->rank;
    int32_t dimension = walk->sparsity->block_map[block];
    original[dimension] = original[dimension] * walk->block_size[block] + walk->coordinate[l];
  }
  uint64_t flat = 0;
  for (uint32_t d = 0; d < walk->rank; ++d) {
    if (original[d] < 0 || original[d] >= walk->tensor->shape[d])
      return invalid("an index entry addresses coordinate %lld of dimension %u (size %d)",
                     (long long)original[d], d, walk->tensor->shape[d]);
    flat += (uint64_t)original[d] * walk->stride[d];
  }
  if (walk->next_value >= walk->value_count)
    return invalid("the index arrays address more than the %llu stored values",
                   (unsigned long long)walk->value_count);
  memcpy(walk->dense + flat * walk->element_size,
         walk->tensor->data + walk->next_value * walk->element_size, walk->element_size);
  walk->next_value++;
  return NULL;
}

static tflaccel_status visit(densify_walk *walk, uint32_t level, uint64_t position) {
  if (level == walk->levels) return emit(walk);
  const model_dimension *dimension = &walk->sparsity->dimensions[level];
  if (dimension->format == TFLITE_DIMENSION_DENSE) {
    for (int64_t i = 0; i < dimension->dense_size; ++i) {
      walk->coordinate[level] = i;
      tflaccel_status status = visit(walk, level + 1, position * (uint64_t)dimension->dense_size + (uint64_t)i);
      if (status) return status;
    }
    return NULL;
  }
  const model_index_array *segments = &dimension->segments, *indices = &dimension->indices;
  if (position + 1 >= segments->length)
    return invalid("level %u: array_segments has %u entries, position %llu needs %llu", level,
                   segments->length, (unsigned long long)position,
                   (unsigned long long)position + 2);
  int64_t start = index_at(segments, (uint32_t)position);
  int64_t end = index_at(segments, (uint32_t)position + 1);
  for (int64_t e = start; e < end; ++e) {
    int64_t coordinate = index_at(indices, (uint32_t)e);
    if (coordinate < 0 || coordinate >= walk->level_size[level])
      return invalid("level %u: index %lld is outside the dimension's %lld entries", level,
                     (long long)coordinate, (long long)walk->level_size[level]);
    walk->coordinate[level] = coordinate;
    tflaccel_status status = visit(walk, level + 1, (uint64_t)e);
    if (status) return status;
  }
  return NULL;
}

/* Segments must rise from >= 0 to at most the index count, so the ranges of
 * different positions never overlap and the walk stays linear. */
static tflaccel_status check_segments(uint32_t level, const model_dimension *dimension) {
  const model_index_array *segments = &dimension->segments;
  int64_t previous = 0;
  for (uint32_t i = 0; i < segments->length; ++i) {
    int64_t value = index_at(segments, i);
    if (value < previous || value > dimension->indices.length)
      return invalid("level %u: array_segments entry %u (%lld) is not between %lld and the %u "
                     "indices", level, i, (long long)value, (long long)previous,
                     dimension->indices.length);
    previous = value;
  }
  return NULL;
}

tflaccel_status densify_tensor(const model_tensor *tensor, uint8_t *dense) {
  const model_sparsity *sparsity = tensor->sparsity;
  densify_walk walk = {.tensor = tensor, .sparsity = sparsity, .rank = tensor->rank,
                       .levels = sparsity->level_count, .dense = dense};
  if (walk.levels > DENSIFY_MAX_LEVELS)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%u sparse levels, at most %d supported",
                                walk.levels, DENSIFY_MAX_LEVELS);
  walk.element_size = dtype_size(tensor->dtype);
  if (walk.element_size == 0)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "sparse %s tensors are not supported",
                                dtype_name(tensor->dtype));
  if (tensor->data_size % walk.element_size != 0)
    return invalid("%llu bytes of values are not a whole number of %s elements",
                   (unsigned long long)tensor->data_size, dtype_name(tensor->dtype));
  walk.value_count = tensor->data_size / walk.element_size;
  uint64_t stride = 1;
  for (uint32_t d = tensor->rank; d-- > 0;) {
    walk.stride[d] = stride;
    stride *= (uint64_t)tensor->shape[d];
  }
  /* Block sizes come from the dense size of the level that walks the block. */
  for (uint32_t l = walk.rank; l < walk.levels; ++l) {
    uint32_t block = (uint32_t)sparsity->traversal_order[l] - walk.rank;
    const model_dimension *dimension = &sparsity->dimensions[l];
    int32_t blocked = sparsity->block_map[block];
    if (dimension->format != TFLITE_DIMENSION_DENSE || dimension->dense_size <= 0 ||
        tensor->shape[blocked] % dimension->dense_size != 0)
      return invalid("block %u: level %u must be dense with a size dividing dimension %d (%d)",
                     block, l, blocked, tensor->shape[blocked]);
    walk.block_size[block] = dimension->dense_size;
  }
  for (uint32_t l = 0; l < walk.levels; ++l) {
    int32_t dimension = sparsity->traversal_order[l];
    int64_t size;
    if ((uint32_t)dimension >= walk.rank) {
      size = walk.block_size[(uint32_t)dimension - walk.rank];
    } else {
      size = tensor->shape[dimension];
      for (uint32_t b = 0; b < sparsity->block_count; ++b)
        if (sparsity->block_map[b] == dimension) size /= walk.block_size[b];
    }
    walk.level_size[l] = size;
    const model_dimension *metadata = &sparsity->dimensions[l];
    if (metadata->format == TFLITE_DIMENSION_DENSE) {
      if (metadata->dense_size != size)
        return invalid("level %u is dense with size %d, but its dimension has %lld entries", l,
                       metadata->dense_size, (long long)size);
    } else {
      tflaccel_status status = check_segments(l, metadata);
      if (status) return status;
    }
  }
  tflaccel_status status = visit(&walk, 0, 0);
  if (status) return status;
  if (walk.next_value != walk.value_count)
    return invalid("%llu values are stored but the index arrays address %llu",
                   (unsigned long long)walk.value_count, (unsigned long long)walk.next_value);
  return NULL;
}
