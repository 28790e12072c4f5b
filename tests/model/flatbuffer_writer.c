/* Front-to-back FlatBuffers serialization for tests. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/model/flatbuffer_writer.h"

#define FBW_MAX_SLOTS 32

typedef enum node_kind { NODE_TABLE, NODE_VECTOR, NODE_VECTOR_OF, NODE_STRING } node_kind;

typedef struct fbw_field {
  int used;
  unsigned size;       /* scalar bytes; 4 for references */
  uint64_t value;
  fbw_node *child;     /* reference fields */
} fbw_field;

struct fbw_node {
  node_kind kind;
  fbw_node *next_allocated;
  fbw_field fields[FBW_MAX_SLOTS];
  uint8_t *data;       /* vector bytes, string text */
  uint32_t count, element_size, alignment;
  fbw_node **children;
  size_t position;
};

struct fbw {
  fbw_node *nodes;
  uint8_t *bytes;
  size_t size, capacity;
  int failed;
};

fbw *fbw_create(void) { return calloc(1, sizeof(fbw)); }

void fbw_destroy(fbw *writer) {
  if (writer == NULL) return;
  fbw_node *node = writer->nodes;
  while (node) {
    fbw_node *next = node->next_allocated;
    free(node->data);
    free(node->children);
    free(node);
    node = next;
  }
  free(writer->bytes);
  free(writer);
}

static fbw_node *new_node(fbw *writer, node_kind kind) {
  fbw_node *node = calloc(1, sizeof *node);
  if (node == NULL) {
    writer->failed = 1;
    return NULL;
  }
  node->kind = kind;
  node->next_allocated = writer->nodes;
  writer->nodes = node;
  return node;
}

fbw_node *fbw_table(fbw *writer) { return new_node(writer, NODE_TABLE); }

void fbw_scalar(fbw_node *table, unsigned slot, unsigned size, uint64_t value) {
  if (table == NULL || slot >= FBW_MAX_SLOTS) return;
  table->fields[slot] = (fbw_field){1, size, value, NULL};
}

void fbw_f32(fbw_node *table, unsigned slot, float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  fbw_scalar(table, slot, 4, bits);
}

void fbw_ref(fbw_node *table, unsigned slot, fbw_node *child) {
  if (table == NULL || slot >= FBW_MAX_SLOTS || child == NULL) return;
  table->fields[slot] = (fbw_field){1, 4, 0, child};
}

fbw_node *fbw_vector(fbw *writer, const void *data, uint32_t count, uint32_t element_size,
                     uint32_t alignment) {
  fbw_node *node = new_node(writer, NODE_VECTOR);
  if (node == NULL) return NULL;
  node->count = count;
  node->element_size = element_size;
  node->alignment = alignment < 4 ? 4 : alignment;
  size_t bytes = (size_t)count * element_size;
  node->data = malloc(bytes ? bytes : 1);
  if (node->data == NULL) {
    writer->failed = 1;
    return NULL;
  }
  if (bytes) memcpy(node->data, data, bytes);
  return node;
}

fbw_node *fbw_vector_of(fbw *writer, fbw_node *const *children, uint32_t count) {
  fbw_node *node = new_node(writer, NODE_VECTOR_OF);
  if (node == NULL) return NULL;
  node->count = count;
  node->children = malloc((count ? count : 1) * sizeof *node->children);
  if (node->children == NULL) {
    writer->failed = 1;
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) {
    node->children[i] = children[i];
    if (children[i] == NULL) writer->failed = 1;
  }
  return node;
}

fbw_node *fbw_string(fbw *writer, const char *text) {
  fbw_node *node = new_node(writer, NODE_STRING);
  if (node == NULL) return NULL;
  node->count = (uint32_t)strlen(text);
  node->data = (uint8_t *)strdup(text);
  if (node->data == NULL) writer->failed = 1;
  return node;
}

/* ---- Serialization -------------------------------------------------------- */

static void reserve(fbw *writer, size_t more) {
  if (writer->failed || writer->size + more <= writer->capacity) return;
  size_t capacity = writer->capacity ? writer->capacity : 1024;
  while (capacity < writer->size + more) capacity *= 2;
  uint8_t *grown = realloc(writer->bytes, capacity);
  if (grown == NULL) {
    writer->failed = 1;
    return;
  }
  memset(grown + writer->capacity, 0, capacity - writer->capacity);
  writer->bytes = grown;
  writer->capacity = capacity;
}

static void pad_to(fbw *writer, size_t alignment, size_t offset) {
  /* Pads so that (size + offset) is a multiple of alignment. */
  while ((writer->size + offset) % alignment != 0) {
    reserve(writer, 1);
    if (writer->failed) return;
    writer->bytes[writer->size++] = 0;
  }
}

static void put(fbw *writer, size_t position, uint64_t value, unsigned size) {
  if (writer->failed) return;
  for (unsigned i = 0; i < size; ++i) writer->bytes[position + i] = (uint8_t)(value >> (8 * i));
}

static size_t append(fbw *writer, uint64_t value, unsigned size) {
  reserve(writer, size);
  size_t position = writer->size;
  if (writer->failed) return position;
  put(writer, position, value, size);
  writer->size += size;
  return position;
}

static size_t emit(fbw *writer, fbw_node *node);

static void patch_reference(fbw *writer, size_t field, fbw_node *child) {
  size_t target = emit(writer, child);
  put(writer, field, (uint64_t)(target - field), 4);
}

static size_t emit_table(fbw *writer, fbw_node *node) {
  unsigned slots = 0;
  for (unsigned s = 0; s < FBW_MAX_SLOTS; ++s)
    if (node->fields[s].used) slots = s + 1;
  /* Inline layout: soffset, then fields by decreasing size, each aligned. */
  uint16_t offsets[FBW_MAX_SLOTS] = {0};
  size_t inline_size = 4;
  for (unsigned size = 8; size >= 1; size /= 2) {
    for (unsigned s = 0; s < slots; ++s) {
      if (!node->fields[s].used || node->fields[s].size != size) continue;
      inline_size = (inline_size + size - 1) / size * size;
      offsets[s] = (uint16_t)inline_size;
      inline_size += size;
    }
  }
  pad_to(writer, 2, 0);
  size_t vtable = writer->size;
  append(writer, 4 + 2 * slots, 2);
  append(writer, inline_size, 2);
  for (unsigned s = 0; s < slots; ++s) append(writer, offsets[s], 2);
  pad_to(writer, 8, 0);
  size_t table = writer->size;
  reserve(writer, inline_size);
  if (writer->failed) return table;
  memset(writer->bytes + table, 0, inline_size);
  writer->size += inline_size;
  put(writer, table, (uint64_t)(uint32_t)(int32_t)(table - vtable), 4);
  for (unsigned s = 0; s < slots; ++s)
    if (node->fields[s].used && node->fields[s].child == NULL)
      put(writer, table + offsets[s], node->fields[s].value, node->fields[s].size);
  node->position = table;
  for (unsigned s = 0; s < slots; ++s)
    if (node->fields[s].used && node->fields[s].child)
      patch_reference(writer, table + offsets[s], node->fields[s].child);
  return table;
}

static size_t emit(fbw *writer, fbw_node *node) {
  if (writer->failed || node == NULL) {
    writer->failed = 1;
    return 0;
  }
  size_t position;
  switch (node->kind) {
  case NODE_TABLE: return emit_table(writer, node);
  case NODE_VECTOR: {
    pad_to(writer, node->alignment, 4);
    position = append(writer, node->count, 4);
    size_t bytes = (size_t)node->count * node->element_size;
    reserve(writer, bytes);
    if (writer->failed) return position;
    if (bytes) memcpy(writer->bytes + writer->size, node->data, bytes);
    writer->size += bytes;
    break;
  }
  case NODE_STRING:
    pad_to(writer, 4, 0);
    position = append(writer, node->count, 4);
    reserve(writer, node->count + 1);
    if (writer->failed) return position;
    memcpy(writer->bytes + writer->size, node->data, node->count + 1);
    writer->size += node->count + 1;
    break;
  default: { /* NODE_VECTOR_OF */
    pad_to(writer, 4, 0);
    position = append(writer, node->count, 4);
    size_t first = writer->size;
    for (uint32_t i = 0; i < node->count; ++i) append(writer, 0, 4);
    node->position = position;
    for (uint32_t i = 0; i < node->count; ++i)
      patch_reference(writer, first + 4 * (size_t)i, node->children[i]);
    return position;
  }
  }
  node->position = position;
  return position;
}

uint8_t *fbw_finish(fbw *writer, fbw_node *root, const char identifier[4], size_t *size) {
  free(writer->bytes);
  writer->bytes = NULL;
  writer->size = writer->capacity = 0;
  append(writer, 0, 4);
  for (int i = 0; i < 4; ++i) append(writer, (uint8_t)identifier[i], 1);
  size_t position = emit(writer, root);
  put(writer, 0, position, 4);
  pad_to(writer, 16, 0);
  if (writer->failed) return NULL;
  uint8_t *bytes = writer->bytes;
  *size = writer->size;
  writer->bytes = NULL;
  writer->size = writer->capacity = 0;
  return bytes;
}

size_t fbw_position(const fbw_node *node) { return node ? node->position : 0; }
