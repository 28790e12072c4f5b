/* A minimal, bounds-checked reader of FlexBuffers (the schemaless format of
 * flatbuffers that custom ops' custom_options use): the root, map lookup by
 * key, vectors (untyped and typed), and numbers read as int64 or double.
 * Every access checks that it stays inside the buffer, so a corrupt option
 * blob gives an error, never a read out of bounds. No allocation. */
#ifndef TFLACCEL_FACTS_FLEXBUFFER_H
#define TFLACCEL_FACTS_FLEXBUFFER_H

#include <stddef.h>
#include <stdint.h>

/* FlexBuffers value types (the format's own numbering). */
enum {
  FLEX_NULL = 0,
  FLEX_INT = 1,
  FLEX_UINT = 2,
  FLEX_FLOAT = 3,
  FLEX_KEY = 4,
  FLEX_STRING = 5,
  FLEX_INDIRECT_INT = 6,
  FLEX_INDIRECT_UINT = 7,
  FLEX_INDIRECT_FLOAT = 8,
  FLEX_MAP = 9,
  FLEX_VECTOR = 10,
  FLEX_VECTOR_INT = 11,
  FLEX_VECTOR_UINT = 12,
  FLEX_VECTOR_FLOAT = 13,
  FLEX_VECTOR_KEY = 14,
  FLEX_BOOL = 26,
  FLEX_VECTOR_BOOL = 36,
};

/* One value: where it is stored (inline, with its parent's width) and its
 * packed type byte. */
typedef struct flex_ref {
  const uint8_t *buffer;
  size_t size;
  size_t offset;        /* of the value's slot in its parent (or the root slot) */
  uint8_t parent_width; /* bytes of that slot: 1, 2, 4 or 8 */
  uint8_t type;         /* FLEX_* */
  uint8_t byte_width;   /* of the pointed-to data for offset types */
} flex_ref;

/* The root value of a FlexBuffer of `size` bytes; 0 when malformed. */
int flex_root(const void *buffer, size_t size, flex_ref *root);
/* The value of `key` in a map; 0 when not a map, absent, or malformed. */
int flex_map_get(const flex_ref *map, const char *key, flex_ref *value);
/* Element count of a vector, typed vector or map; 0 when not one. */
int flex_vector_size(const flex_ref *vector, size_t *size);
/* Element `index` of a vector or typed vector; 0 when out of range. */
int flex_vector_at(const flex_ref *vector, size_t index, flex_ref *element);
/* A number (int, uint, float, bool, or indirect ones) as int64 (floats
 * truncated toward zero) or double; 0 when the value is not a number. */
int flex_as_int64(const flex_ref *value, int64_t *result);
int flex_as_double(const flex_ref *value, double *result);
/* The map's entry key as an int32 / a float; 0 when absent, of another
 * type or out of int32's range. */
int flex_map_int32(const flex_ref *map, const char *key, int32_t *value);
int flex_map_float(const flex_ref *map, const char *key, float *value);

#endif
