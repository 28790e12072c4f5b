/* A minimal FlatBuffers writer for tests: build a tree of tables, vectors and
 * strings, then serialize it front to back (every uoffset points forward,
 * each vtable sits right before its table). Test-only; never shared. */
#ifndef TFLACCEL_TESTS_MODEL_FLATBUFFER_WRITER_H
#define TFLACCEL_TESTS_MODEL_FLATBUFFER_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct fbw fbw;
typedef struct fbw_node fbw_node;

fbw *fbw_create(void);
void fbw_destroy(fbw *writer);

fbw_node *fbw_table(fbw *writer);
/* Scalar field of 1, 2, 4 or 8 bytes (little-endian from `value`). */
void fbw_scalar(fbw_node *table, unsigned slot, unsigned size, uint64_t value);
void fbw_f32(fbw_node *table, unsigned slot, float value);
/* Field referring to a table, vector or string. */
void fbw_ref(fbw_node *table, unsigned slot, fbw_node *child);

/* Vector of count scalars of element_size bytes, data copied; its elements
 * start at a multiple of alignment (>= element_size, a power of two). */
fbw_node *fbw_vector(fbw *writer, const void *data, uint32_t count, uint32_t element_size,
                     uint32_t alignment);
/* Vector of references (tables or strings). */
fbw_node *fbw_vector_of(fbw *writer, fbw_node *const *children, uint32_t count);
fbw_node *fbw_string(fbw *writer, const char *text);

/* The serialized buffer (malloc'ed; the caller frees it), NULL when out of
 * memory. A node serialized twice is written twice. */
uint8_t *fbw_finish(fbw *writer, fbw_node *root, const char identifier[4], size_t *size);
/* Where a node landed in the last fbw_finish: a table's soffset, a vector's
 * or string's length field. */
size_t fbw_position(const fbw_node *node);

#endif
