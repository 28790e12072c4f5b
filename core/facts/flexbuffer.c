#include "config.h"

#include "core/facts/flexbuffer.h"

#include <math.h>
#include <string.h>

/* Unsigned little-endian integer of `width` bytes at offset; 0 when it
 * would leave the buffer. */
static int read_uint(const uint8_t *buffer, size_t size, size_t offset, unsigned width,
                     uint64_t *value) {
  if (width != 1 && width != 2 && width != 4 && width != 8) return 0;
  if (offset > size || size - offset < width) return 0;
  uint64_t result = 0;
  for (unsigned i = 0; i < width; i++) result |= (uint64_t)buffer[offset + i] << (8 * i);
  *value = result;
  return 1;
}

static int read_int(const uint8_t *buffer, size_t size, size_t offset, unsigned width,
                    int64_t *value) {
  uint64_t raw;
  if (!read_uint(buffer, size, offset, width, &raw)) return 0;
  if (width < 8 && (raw >> (8 * width - 1)) != 0) raw |= ~UINT64_C(0) << (8 * width);
  *value = (int64_t)raw;
  return 1;
}

static int read_float(const uint8_t *buffer, size_t size, size_t offset, unsigned width,
                      double *value) {
  uint64_t raw;
  if (width != 4 && width != 8) return 0;
  if (!read_uint(buffer, size, offset, width, &raw)) return 0;
  if (width == 4) {
    const uint32_t bits = (uint32_t)raw;
    float f;
    memcpy(&f, &bits, sizeof f);
    *value = f;
  } else {
    double d;
    memcpy(&d, &raw, sizeof d);
    *value = d;
  }
  return 1;
}

/* Where an offset-typed value's data starts: its slot holds the distance
 * back to it. */
static int target(const flex_ref *ref, size_t *location) {
  uint64_t distance;
  if (!read_uint(ref->buffer, ref->size, ref->offset, ref->parent_width, &distance)) return 0;
  if (distance > ref->offset) return 0;
  *location = ref->offset - (size_t)distance;
  return 1;
}

static flex_ref make_ref(const uint8_t *buffer, size_t size, size_t offset, uint8_t parent_width,
                         uint8_t packed_type) {
  flex_ref ref = {buffer, size, offset, parent_width, (uint8_t)(packed_type >> 2),
                  (uint8_t)(1u << (packed_type & 3))};
  return ref;
}

int flex_root(const void *buffer, size_t size, flex_ref *root) {
  if (buffer == NULL || size < 3) return 0;
  const uint8_t *bytes = buffer;
  const uint8_t width = bytes[size - 1];
  if ((width != 1 && width != 2 && width != 4 && width != 8) || size - 2 < width) return 0;
  *root = make_ref(bytes, size, size - 2 - width, width, bytes[size - 2]);
  return 1;
}

static int is_typed_vector(uint8_t type) {
  return (type >= FLEX_VECTOR_INT && type <= FLEX_VECTOR_KEY) || type == FLEX_VECTOR_BOOL;
}

int flex_vector_size(const flex_ref *vector, size_t *size) {
  if (vector->type != FLEX_VECTOR && vector->type != FLEX_MAP && !is_typed_vector(vector->type))
    return 0;
  size_t location;
  uint64_t count;
  if (!target(vector, &location) || location < vector->byte_width) return 0;
  if (!read_uint(vector->buffer, vector->size, location - vector->byte_width, vector->byte_width,
                 &count))
    return 0;
  /* Every element must fit after the vector's start. */
  if (count > (vector->size - location) / vector->byte_width) return 0;
  *size = (size_t)count;
  return 1;
}

int flex_vector_at(const flex_ref *vector, size_t index, flex_ref *element) {
  size_t count, location;
  if (!flex_vector_size(vector, &count) || index >= count || !target(vector, &location)) return 0;
  const size_t slot = location + index * vector->byte_width;
  uint8_t packed_type;
  if (is_typed_vector(vector->type)) {
    const uint8_t element_type = vector->type == FLEX_VECTOR_BOOL
                                     ? FLEX_BOOL
                                     : (uint8_t)(vector->type - FLEX_VECTOR_INT + FLEX_INT);
    packed_type = (uint8_t)(element_type << 2); /* inline: the width is the vector's */
  } else {
    /* Untyped vectors and maps keep one packed type byte per element after
     * the elements. */
    const size_t types = location + count * vector->byte_width;
    if (types > vector->size || vector->size - types < count) return 0;
    packed_type = vector->buffer[types + index];
  }
  *element = make_ref(vector->buffer, vector->size, slot, vector->byte_width, packed_type);
  return 1;
}

int flex_map_get(const flex_ref *map, const char *key, flex_ref *value) {
  if (map->type != FLEX_MAP) return 0;
  size_t count, location;
  if (!flex_vector_size(map, &count) || !target(map, &location)) return 0;
  const unsigned width = map->byte_width;
  if (location < 3 * width) return 0;
  /* Before the size: the keys vector's offset and its byte width. */
  uint64_t keys_distance, keys_width;
  const size_t keys_slot = location - 3 * width;
  if (!read_uint(map->buffer, map->size, keys_slot, width, &keys_distance) ||
      !read_uint(map->buffer, map->size, location - 2 * width, width, &keys_width) ||
      keys_distance > keys_slot)
    return 0;
  const size_t keys = keys_slot - (size_t)keys_distance;
  if (keys_width != 1 && keys_width != 2 && keys_width != 4 && keys_width != 8) return 0;
  const size_t key_length = strlen(key);
  for (size_t i = 0; i < count; i++) {
    uint64_t distance;
    const size_t key_slot = keys + i * (size_t)keys_width;
    if (!read_uint(map->buffer, map->size, key_slot, (unsigned)keys_width, &distance) ||
        distance > key_slot)
      return 0;
    const size_t key_at = key_slot - (size_t)distance;
    if (map->size - key_at <= key_length) continue;
    if (memcmp(map->buffer + key_at, key, key_length) == 0 &&
        map->buffer[key_at + key_length] == 0)
      return flex_vector_at(map, i, value);
  }
  return 0;
}

int flex_as_int64(const flex_ref *value, int64_t *result) {
  size_t location;
  double real;
  switch (value->type) {
  case FLEX_INT:
  case FLEX_BOOL:
    return read_int(value->buffer, value->size, value->offset, value->parent_width, result);
  case FLEX_UINT: {
    uint64_t raw;
    if (!read_uint(value->buffer, value->size, value->offset, value->parent_width, &raw) ||
        raw > INT64_MAX)
      return 0;
    *result = (int64_t)raw;
    return 1;
  }
  case FLEX_INDIRECT_INT:
    return target(value, &location) &&
           read_int(value->buffer, value->size, location, value->byte_width, result);
  case FLEX_INDIRECT_UINT: {
    uint64_t raw;
    if (!target(value, &location) ||
        !read_uint(value->buffer, value->size, location, value->byte_width, &raw) ||
        raw > INT64_MAX)
      return 0;
    *result = (int64_t)raw;
    return 1;
  }
  case FLEX_FLOAT:
  case FLEX_INDIRECT_FLOAT:
    if (!flex_as_double(value, &real) || !(fabs(real) < 9.2e18)) return 0;
    *result = (int64_t)real;
    return 1;
  default:
    return 0;
  }
}

int flex_as_double(const flex_ref *value, double *result) {
  size_t location;
  int64_t integer;
  switch (value->type) {
  case FLEX_FLOAT:
    return read_float(value->buffer, value->size, value->offset, value->parent_width, result);
  case FLEX_INDIRECT_FLOAT:
    return target(value, &location) &&
           read_float(value->buffer, value->size, location, value->byte_width, result);
  case FLEX_INT:
  case FLEX_UINT:
  case FLEX_BOOL:
  case FLEX_INDIRECT_INT:
  case FLEX_INDIRECT_UINT:
    if (!flex_as_int64(value, &integer)) return 0;
    *result = (double)integer;
    return 1;
  default:
    return 0;
  }
}

int flex_map_int32(const flex_ref *map, const char *key, int32_t *value) {
  flex_ref ref;
  int64_t v;
  if (!flex_map_get(map, key, &ref) || !flex_as_int64(&ref, &v) || v < INT32_MIN || v > INT32_MAX)
    return 0;
  *value = (int32_t)v;
  return 1;
}

int flex_map_float(const flex_ref *map, const char *key, float *value) {
  flex_ref ref;
  double v;
  if (!flex_map_get(map, key, &ref) || !flex_as_double(&ref, &v)) return 0;
  *value = (float)v;
  return 1;
}
