/* A small, bounds-checked reader of FlatBuffers binaries (written from the
 * FlatBuffers binary format description, for the TFLite schema).
 *
 * Every position is checked against the file before it is read: uoffsets,
 * vtables, field offsets, vector lengths (length x element size is computed in
 * 64 bits), strings (which must end in a NUL inside the file). Reads go
 * through memcpy, so nothing depends on the alignment of the file's contents.
 *
 * Errors are one-line statuses (TFLACCEL_INVALID_MODEL) naming the byte
 * position; callers prefix them with where in the schema they were reading. */
#ifndef TFLACCEL_CORE_TFLITE_FLATBUFFER_H
#define TFLACCEL_CORE_TFLITE_FLATBUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/status.h"

typedef struct fb_file {
  const uint8_t *bytes;
  size_t size;
  /* Reads left: every table opened and every vector element costs one. A
   * well-formed file is read about once, so running out means offsets that
   * make the reader visit the same data over and over. */
  uint64_t read_budget;
} fb_file;

typedef struct fb_table {
  fb_file *file;
  size_t position;     /* of the table's soffset */
  size_t vtable;       /* position of its vtable */
  uint32_t vtable_size;
  uint32_t inline_size;
} fb_table;

typedef struct fb_vector {
  fb_file *file;
  size_t position;     /* of element 0 */
  uint32_t length;
  uint32_t element_size;
} fb_vector;

/* Prepares file for reading bytes[0, size). */
void fb_file_init(fb_file *file, const uint8_t *bytes, size_t size);

/* The root table, after checking the 4-byte file identifier. */
tflaccel_status fb_root(fb_file *file, const char identifier[4], fb_table *root);

/* Scalar field `slot`; absent fields read as default_value. */
tflaccel_status fb_read_u8(const fb_table *table, unsigned slot, uint8_t default_value,
                           uint8_t *value);
tflaccel_status fb_read_i8(const fb_table *table, unsigned slot, int8_t default_value,
                           int8_t *value);
tflaccel_status fb_read_i32(const fb_table *table, unsigned slot, int32_t default_value,
                            int32_t *value);
tflaccel_status fb_read_u32(const fb_table *table, unsigned slot, uint32_t default_value,
                            uint32_t *value);
tflaccel_status fb_read_u64(const fb_table *table, unsigned slot, uint64_t default_value,
                            uint64_t *value);
tflaccel_status fb_read_f32(const fb_table *table, unsigned slot, float default_value,
                            float *value);
/* A bool field, as 0 or 1. */
tflaccel_status fb_read_bool(const fb_table *table, unsigned slot, int default_value,
                             int32_t *value);

/* Sub-table field; *present = 0 (and *child untouched) when absent. */
tflaccel_status fb_read_table(const fb_table *table, unsigned slot, fb_table *child,
                              int *present);
/* Vector field of element_size-byte scalars or of uoffsets (element_size 4);
 * an absent vector reads as length 0. *present (may be NULL) tells which. */
tflaccel_status fb_read_vector(const fb_table *table, unsigned slot, uint32_t element_size,
                               fb_vector *vector, int *present);
/* String field: *text points into the file (NUL-terminated), NULL when absent. */
tflaccel_status fb_read_string(const fb_table *table, unsigned slot, const char **text,
                               uint32_t *length);

/* Elements of a vector of tables / strings. index must be < length. */
tflaccel_status fb_vector_table(const fb_vector *vector, uint32_t index, fb_table *child);
tflaccel_status fb_vector_string(const fb_vector *vector, uint32_t index, const char **text);

/* Scalar elements; index must be < length (checked when the vector was read). */
uint8_t fb_vector_u8(const fb_vector *vector, uint32_t index);
uint16_t fb_vector_u16(const fb_vector *vector, uint32_t index);
int32_t fb_vector_i32(const fb_vector *vector, uint32_t index);
uint32_t fb_vector_u32(const fb_vector *vector, uint32_t index);
int64_t fb_vector_i64(const fb_vector *vector, uint32_t index);
float fb_vector_f32(const fb_vector *vector, uint32_t index);
/* The elements' bytes in place. */
const uint8_t *fb_vector_data(const fb_vector *vector);

/* Little-endian loads from any address. */
uint16_t fb_load_u16(const uint8_t *bytes);
uint32_t fb_load_u32(const uint8_t *bytes);
uint64_t fb_load_u64(const uint8_t *bytes);

#endif
