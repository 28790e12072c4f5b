/* Bounds-checked FlatBuffers access. Layout reminders (little-endian):
 *   uoffset: uint32 at P, pointing forward to P + value.
 *   table at T: int32 soffset; its vtable is at T - soffset.
 *   vtable: uint16 vtable size, uint16 table inline size, then one uint16
 *           per field slot: the field's offset from T, 0 = absent.
 *   vector / string at V: uint32 length, then the elements (a string also
 *           has a NUL after its bytes). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/tflite/flatbuffer.h"

uint16_t fb_load_u16(const uint8_t *bytes) {
  return (uint16_t)(bytes[0] | (uint16_t)bytes[1] << 8);
}

uint32_t fb_load_u32(const uint8_t *bytes) {
  return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
         (uint32_t)bytes[3] << 24;
}

uint64_t fb_load_u64(const uint8_t *bytes) {
  return (uint64_t)fb_load_u32(bytes) | (uint64_t)fb_load_u32(bytes + 4) << 32;
}

static tflaccel_status invalid(const char *format, ...) __attribute__((format(printf, 1, 2)));

static tflaccel_status invalid(const char *format, ...) {
  va_list args;
  va_start(args, format);
  tflaccel_status status = tflaccel_status_make_v(TFLACCEL_INVALID_MODEL, format, args);
  va_end(args);
  return status;
}

/* True when [position, position + length) lies inside the file. */
static int in_file(const fb_file *file, uint64_t position, uint64_t length) {
  return position <= file->size && length <= file->size - position;
}

void fb_file_init(fb_file *file, const uint8_t *bytes, size_t size) {
  file->bytes = bytes;
  file->size = size;
  file->read_budget = 4 * (uint64_t)size + 4096;
}

static tflaccel_status spend(fb_file *file, uint64_t reads) {
  if (reads > file->read_budget)
    return invalid("offsets make the reader visit the same data over and over (more reads than "
                   "a %zu-byte file can hold)", file->size);
  file->read_budget -= reads;
  return NULL;
}

/* Follows the uoffset stored at `position`. */
static tflaccel_status follow(const fb_file *file, size_t position, size_t *target) {
  *target = 0;
  if (!in_file(file, position, 4))
    return invalid("offset at byte %zu lies past the end of the file (%zu bytes)", position,
                   file->size);
  uint32_t offset = fb_load_u32(file->bytes + position);
  if (offset == 0) return invalid("offset at byte %zu is 0", position);
  if (!in_file(file, (uint64_t)position + offset, 1))
    return invalid("offset at byte %zu points to byte %llu, past the end of the file (%zu bytes)",
                   position, (unsigned long long)position + offset, file->size);
  *target = position + offset;
  return NULL;
}

static tflaccel_status open_table(fb_file *file, size_t position, fb_table *table) {
  tflaccel_status status = spend(file, 1);
  if (status) return status;
  if (!in_file(file, position, 4))
    return invalid("table at byte %zu lies past the end of the file (%zu bytes)", position,
                   file->size);
  int32_t soffset = (int32_t)fb_load_u32(file->bytes + position);
  int64_t vtable = (int64_t)position - soffset;
  if (vtable < 0 || !in_file(file, (uint64_t)vtable, 4))
    return invalid("table at byte %zu: its vtable (byte %lld) lies outside the file (%zu bytes)",
                   position, (long long)vtable, file->size);
  uint32_t vtable_size = fb_load_u16(file->bytes + vtable);
  uint32_t inline_size = fb_load_u16(file->bytes + vtable + 2);
  if (vtable_size < 4 || vtable_size % 2 != 0 || !in_file(file, (uint64_t)vtable, vtable_size))
    return invalid("table at byte %zu: vtable at byte %lld has an invalid size %u", position,
                   (long long)vtable, vtable_size);
  if (inline_size < 4 || !in_file(file, position, inline_size))
    return invalid("table at byte %zu: its size %u runs past the end of the file (%zu bytes)",
                   position, inline_size, file->size);
  table->file = file;
  table->position = position;
  table->vtable = (size_t)vtable;
  table->vtable_size = vtable_size;
  table->inline_size = inline_size;
  return NULL;
}

tflaccel_status fb_root(fb_file *file, const char identifier[4], fb_table *root) {
  if (file->size < 8)
    return invalid("file is too short (%zu bytes) to be a FlatBuffer", file->size);
  if (memcmp(file->bytes + 4, identifier, 4) != 0) {
    char shown[4 * 4 + 1];
    size_t used = 0;
    for (int i = 0; i < 4; ++i) {
      unsigned char c = file->bytes[4 + i];
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') shown[used++] = (char)c;
      else used += (size_t)snprintf(shown + used, sizeof shown - used, "\\x%02x", c);
    }
    shown[used] = '\0';
    return invalid("file identifier is \"%s\", expected \"%.4s\" (not a TFLite model)", shown,
                   identifier);
  }
  size_t position;
  tflaccel_status status = follow(file, 0, &position);
  if (status) return tflaccel_status_annotate(status, "root table");
  return open_table(file, position, root);
}

/* Position of field `slot` of `size` bytes, 0 when absent. */
static tflaccel_status field_position(const fb_table *table, unsigned slot, size_t size,
                                      size_t *position) {
  *position = 0;
  size_t entry = 4 + 2 * (size_t)slot;
  if (entry + 2 > table->vtable_size) return NULL; /* written by an older schema: absent */
  uint32_t offset = fb_load_u16(table->file->bytes + table->vtable + entry);
  if (offset == 0) return NULL;
  if (offset < 4 || offset + size > table->inline_size)
    return invalid("table at byte %zu: field %u (offset %u, %zu bytes) lies outside the "
                   "table's %u bytes", table->position, slot, offset, size, table->inline_size);
  *position = table->position + offset;
  return NULL;
}

static tflaccel_status read_scalar(const fb_table *table, unsigned slot, size_t size,
                                   const uint8_t **bytes) {
  size_t position;
  tflaccel_status status = field_position(table, slot, size, &position);
  *bytes = (status == NULL && position != 0) ? table->file->bytes + position : NULL;
  return status;
}

tflaccel_status fb_read_u8(const fb_table *table, unsigned slot, uint8_t default_value,
                           uint8_t *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 1, &bytes);
  *value = bytes ? bytes[0] : default_value;
  return status;
}

tflaccel_status fb_read_i8(const fb_table *table, unsigned slot, int8_t default_value,
                           int8_t *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 1, &bytes);
  *value = bytes ? (int8_t)bytes[0] : default_value;
  return status;
}

tflaccel_status fb_read_bool(const fb_table *table, unsigned slot, int default_value,
                             int32_t *value) {
  uint8_t byte;
  tflaccel_status status = fb_read_u8(table, slot, (uint8_t)(default_value != 0), &byte);
  *value = byte != 0;
  return status;
}

tflaccel_status fb_read_i32(const fb_table *table, unsigned slot, int32_t default_value,
                            int32_t *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 4, &bytes);
  *value = bytes ? (int32_t)fb_load_u32(bytes) : default_value;
  return status;
}

tflaccel_status fb_read_u32(const fb_table *table, unsigned slot, uint32_t default_value,
                            uint32_t *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 4, &bytes);
  *value = bytes ? fb_load_u32(bytes) : default_value;
  return status;
}

tflaccel_status fb_read_u64(const fb_table *table, unsigned slot, uint64_t default_value,
                            uint64_t *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 8, &bytes);
  *value = bytes ? fb_load_u64(bytes) : default_value;
  return status;
}

tflaccel_status fb_read_f32(const fb_table *table, unsigned slot, float default_value,
                            float *value) {
  const uint8_t *bytes;
  tflaccel_status status = read_scalar(table, slot, 4, &bytes);
  if (bytes) {
    uint32_t bits = fb_load_u32(bytes);
    memcpy(value, &bits, sizeof *value);
  } else {
    *value = default_value;
  }
  return status;
}

/* Position the uoffset field `slot` points to; 0 when absent. */
static tflaccel_status reference(const fb_table *table, unsigned slot, size_t *target) {
  size_t position;
  *target = 0;
  tflaccel_status status = field_position(table, slot, 4, &position);
  if (status || position == 0) return status;
  return follow(table->file, position, target);
}

tflaccel_status fb_read_table(const fb_table *table, unsigned slot, fb_table *child,
                              int *present) {
  size_t target;
  *present = 0;
  tflaccel_status status = reference(table, slot, &target);
  if (status || target == 0) return status;
  status = open_table(table->file, target, child);
  if (status == NULL) *present = 1;
  return status;
}

static tflaccel_status open_vector(fb_file *file, size_t position, uint32_t element_size,
                                   fb_vector *vector) {
  if (!in_file(file, position, 4))
    return invalid("vector at byte %zu lies past the end of the file (%zu bytes)", position,
                   file->size);
  uint32_t length = fb_load_u32(file->bytes + position);
  uint64_t bytes = (uint64_t)length * element_size;
  if (!in_file(file, (uint64_t)position + 4, bytes))
    return invalid("vector at byte %zu: %u elements of %u bytes run past the end of the file "
                   "(%zu bytes)", position, length, element_size, file->size);
  tflaccel_status status = spend(file, length);
  if (status) return status;
  vector->file = file;
  vector->position = position + 4;
  vector->length = length;
  vector->element_size = element_size;
  return NULL;
}

tflaccel_status fb_read_vector(const fb_table *table, unsigned slot, uint32_t element_size,
                               fb_vector *vector, int *present) {
  size_t target;
  vector->file = table->file;
  vector->position = 0;
  vector->length = 0;
  vector->element_size = element_size;
  if (present) *present = 0;
  tflaccel_status status = reference(table, slot, &target);
  if (status || target == 0) return status;
  status = open_vector(table->file, target, element_size, vector);
  if (status == NULL && present) *present = 1;
  return status;
}

static tflaccel_status open_string(const fb_file *file, size_t position, const char **text,
                                   uint32_t *length) {
  if (!in_file(file, position, 4))
    return invalid("string at byte %zu lies past the end of the file (%zu bytes)", position,
                   file->size);
  uint32_t count = fb_load_u32(file->bytes + position);
  if (!in_file(file, (uint64_t)position + 4, (uint64_t)count + 1))
    return invalid("string at byte %zu: %u bytes run past the end of the file (%zu bytes)",
                   position, count, file->size);
  if (file->bytes[position + 4 + count] != '\0')
    return invalid("string at byte %zu (%u bytes) is not NUL-terminated", position, count);
  *text = (const char *)file->bytes + position + 4;
  if (length) *length = count;
  return NULL;
}

tflaccel_status fb_read_string(const fb_table *table, unsigned slot, const char **text,
                               uint32_t *length) {
  size_t target;
  *text = NULL;
  if (length) *length = 0;
  tflaccel_status status = reference(table, slot, &target);
  if (status || target == 0) return status;
  return open_string(table->file, target, text, length);
}

tflaccel_status fb_vector_table(const fb_vector *vector, uint32_t index, fb_table *child) {
  size_t target;
  tflaccel_status status = follow(vector->file, vector->position + 4 * (size_t)index, &target);
  if (status) return status;
  return open_table(vector->file, target, child);
}

tflaccel_status fb_vector_string(const fb_vector *vector, uint32_t index, const char **text) {
  size_t target;
  tflaccel_status status = follow(vector->file, vector->position + 4 * (size_t)index, &target);
  if (status) return status;
  return open_string(vector->file, target, text, NULL);
}

static const uint8_t *element(const fb_vector *vector, uint32_t index) {
  return vector->file->bytes + vector->position + (size_t)index * vector->element_size;
}

uint8_t fb_vector_u8(const fb_vector *vector, uint32_t index) {
  return *element(vector, index);
}

uint16_t fb_vector_u16(const fb_vector *vector, uint32_t index) {
  return fb_load_u16(element(vector, index));
}

int32_t fb_vector_i32(const fb_vector *vector, uint32_t index) {
  return (int32_t)fb_load_u32(element(vector, index));
}

uint32_t fb_vector_u32(const fb_vector *vector, uint32_t index) {
  return fb_load_u32(element(vector, index));
}

int64_t fb_vector_i64(const fb_vector *vector, uint32_t index) {
  return (int64_t)fb_load_u64(element(vector, index));
}

float fb_vector_f32(const fb_vector *vector, uint32_t index) {
  uint32_t bits = fb_load_u32(element(vector, index));
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

const uint8_t *fb_vector_data(const fb_vector *vector) {
  return vector->file->bytes + vector->position;
}
