/* Recursive-descent JSON parsing for tests. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/json.h"

#define JSON_MAX_DEPTH 64

typedef struct json_parser {
  const char *text, *end;
  const char *skip_key;
} json_parser;

/* A string being decoded; grows geometrically. */
typedef struct string_builder {
  char *text;
  size_t length, capacity;
} string_builder;

static void skip_space(json_parser *p) {
  while (p->text < p->end && (*p->text == ' ' || *p->text == '\n' || *p->text == '\r' ||
                              *p->text == '\t'))
    ++p->text;
}

static int take(json_parser *p, char c) {
  skip_space(p);
  if (p->text < p->end && *p->text == c) {
    ++p->text;
    return 1;
  }
  return 0;
}

/* Appends bytes; a NULL builder (a skipped string) keeps nothing. */
static int append_bytes(string_builder *builder, const char *bytes, size_t count) {
  if (builder == NULL) return 1;
  if (builder->length + count + 1 > builder->capacity) {
    size_t capacity = builder->capacity ? builder->capacity : 16;
    while (builder->length + count + 1 > capacity) capacity *= 2;
    char *grown = realloc(builder->text, capacity);
    if (grown == NULL) return 0;
    builder->text = grown;
    builder->capacity = capacity;
  }
  memcpy(builder->text + builder->length, bytes, count);
  builder->length += count;
  builder->text[builder->length] = '\0';
  return 1;
}

/* Four hex digits of a \u escape; -1 when they are not. */
static long parse_hex4(json_parser *p) {
  if (p->end - p->text < 4) return -1;
  long value = 0;
  for (int i = 0; i < 4; ++i) {
    char c = p->text[i];
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  p->text += 4;
  return value;
}

/* The code point of a \u escape (after "\u"), a surrogate pair joined; a
 * lone surrogate becomes U+FFFD. -1 when malformed. */
static long parse_unicode_escape(json_parser *p) {
  long code = parse_hex4(p);
  if (code < 0xD800 || code > 0xDFFF) return code;
  if (code >= 0xDC00) return 0xFFFD;
  if (p->end - p->text >= 6 && p->text[0] == '\\' && p->text[1] == 'u') {
    json_parser ahead = *p;
    ahead.text += 2;
    long low = parse_hex4(&ahead);
    if (low >= 0xDC00 && low <= 0xDFFF) {
      *p = ahead;
      return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
  }
  return 0xFFFD;
}

static int append_utf8(string_builder *builder, long code) {
  char bytes[4];
  size_t count;
  if (code < 0x80) {
    bytes[0] = (char)code;
    count = 1;
  } else if (code < 0x800) {
    bytes[0] = (char)(0xC0 | (code >> 6));
    bytes[1] = (char)(0x80 | (code & 0x3F));
    count = 2;
  } else if (code < 0x10000) {
    bytes[0] = (char)(0xE0 | (code >> 12));
    bytes[1] = (char)(0x80 | ((code >> 6) & 0x3F));
    bytes[2] = (char)(0x80 | (code & 0x3F));
    count = 3;
  } else {
    bytes[0] = (char)(0xF0 | (code >> 18));
    bytes[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    bytes[2] = (char)(0x80 | ((code >> 6) & 0x3F));
    bytes[3] = (char)(0x80 | (code & 0x3F));
    count = 4;
  }
  return append_bytes(builder, bytes, count);
}

/* A string literal; keeps it in *out when out != NULL. */
static int parse_string(json_parser *p, char **out) {
  if (!take(p, '"')) return 0;
  string_builder builder = {NULL, 0, 0};
  string_builder *keep = out ? &builder : NULL;
  int ok = append_bytes(keep, "", 0);
  while (ok && p->text < p->end && *p->text != '"') {
    const char *run = p->text;
    while (p->text < p->end && *p->text != '"' && *p->text != '\\') ++p->text;
    ok = append_bytes(keep, run, (size_t)(p->text - run));
    if (!ok || p->text >= p->end || *p->text != '\\') continue;
    ++p->text;
    if (p->text >= p->end) {
      ok = 0;
      break;
    }
    char c = *p->text++;
    switch (c) {
    case 'n': c = '\n'; break;
    case 't': c = '\t'; break;
    case 'r': c = '\r'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'u': {
      long code = parse_unicode_escape(p);
      ok = code >= 0 && append_utf8(keep, code);
      continue;
    }
    default: break; /* \" \\ \/ stand for themselves */
    }
    ok = append_bytes(keep, &c, 1);
  }
  if (!ok || p->text >= p->end) {
    free(builder.text);
    return 0;
  }
  ++p->text; /* closing quote */
  if (out) *out = builder.text;
  return 1;
}

static int parse_value(json_parser *p, json_value *value, int keep, int depth);

/* Grows geometrically: dumps have arrays of many thousand numbers. */
static int append_item(json_value *container, json_value *item, char *key) {
  if (container->count == container->capacity) {
    size_t capacity = container->capacity ? 2 * container->capacity : 8;
    json_value *items = realloc(container->items, capacity * sizeof *items);
    if (items == NULL) return 0;
    container->items = items;
    if (container->kind == JSON_OBJECT) {
      char **keys = realloc(container->keys, capacity * sizeof *keys);
      if (keys == NULL) return 0;
      container->keys = keys;
    }
    container->capacity = capacity;
  }
  if (container->kind == JSON_OBJECT) container->keys[container->count] = key;
  container->items[container->count++] = *item;
  return 1;
}

static int parse_container(json_parser *p, json_value *value, int keep, int depth, int object) {
  char close = object ? '}' : ']';
  value->kind = keep ? (object ? JSON_OBJECT : JSON_ARRAY) : JSON_SKIPPED;
  if (take(p, close)) return 1;
  do {
    char *key = NULL;
    int keep_item = keep;
    if (object) {
      if (!parse_string(p, keep ? &key : NULL) || !take(p, ':')) {
        free(key);
        return 0;
      }
      if (key && p->skip_key && strcmp(key, p->skip_key) == 0) keep_item = 0;
    }
    json_value item = {0};
    if (!parse_value(p, &item, keep_item, depth + 1)) {
      free(key);
      json_free(&item);
      return 0;
    }
    if (keep && !append_item(value, &item, key)) {
      free(key);
      json_free(&item);
      return 0;
    }
  } while (take(p, ','));
  return take(p, close);
}

static int parse_value(json_parser *p, json_value *value, int keep, int depth) {
  if (depth > JSON_MAX_DEPTH) return 0;
  skip_space(p);
  if (p->text >= p->end) return 0;
  char c = *p->text;
  if (c == '{' || c == '[') {
    ++p->text;
    return parse_container(p, value, keep, depth, c == '{');
  }
  if (c == '"') {
    value->kind = keep ? JSON_STRING : JSON_SKIPPED;
    return parse_string(p, keep ? &value->string : NULL);
  }
  static const struct {
    const char *word;
    json_kind kind;
    double number;
  } words[] = {
      {"true", JSON_BOOL, 1},
      {"false", JSON_BOOL, 0},
      {"null", JSON_NULL, 0},
  };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i) {
    size_t length = strlen(words[i].word);
    if ((size_t)(p->end - p->text) >= length && memcmp(p->text, words[i].word, length) == 0) {
      p->text += length;
      value->kind = keep ? words[i].kind : JSON_SKIPPED;
      value->number = words[i].number;
      return 1;
    }
  }
  /* Numbers, and the nan/inf some writers print. The text is NUL-terminated
   * (json_parse copies it), so strtod cannot run past the end. */
  char *after;
  double number = strtod(p->text, &after);
  if (after == p->text) return 0;
  p->text = after;
  value->kind = keep ? JSON_NUMBER : JSON_SKIPPED;
  value->number = number;
  return 1;
}

json_value *json_parse(const char *text, size_t length, const char *skip_key) {
  char *copy = malloc(length + 1);
  json_value *root = calloc(1, sizeof *root);
  if (copy == NULL || root == NULL) {
    free(copy);
    free(root);
    return NULL;
  }
  memcpy(copy, text, length);
  copy[length] = '\0';
  json_parser parser = {copy, copy + length, skip_key};
  int ok = parse_value(&parser, root, 1, 0);
  skip_space(&parser);
  free(copy);
  if (!ok || parser.text != parser.end) {
    json_destroy(root);
    return NULL;
  }
  return root;
}

json_value *json_parse_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return NULL;
  }
  long size = -1;
  if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
  char *text = size >= 0 && fseek(file, 0, SEEK_SET) == 0 ? malloc((size_t)size + 1) : NULL;
  if (text == NULL || fread(text, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "cannot read %s\n", path);
    free(text);
    fclose(file);
    return NULL;
  }
  fclose(file);
  json_value *root = json_parse(text, (size_t)size, NULL);
  free(text);
  if (root == NULL) fprintf(stderr, "%s: malformed JSON\n", path);
  return root;
}

void json_free(json_value *value) {
  if (value == NULL) return;
  free(value->string);
  for (size_t i = 0; i < value->count; ++i) {
    json_free(&value->items[i]);
    if (value->keys) free(value->keys[i]);
  }
  free(value->items);
  free(value->keys);
  memset(value, 0, sizeof *value);
}

void json_destroy(json_value *root) {
  json_free(root);
  free(root);
}

const json_value *json_get(const json_value *object, const char *key) {
  if (object == NULL || object->kind != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; ++i)
    if (strcmp(object->keys[i], key) == 0) return &object->items[i];
  return NULL;
}

const json_value *json_at(const json_value *array, size_t index) {
  if (array == NULL || array->kind != JSON_ARRAY || index >= array->count) return NULL;
  return &array->items[index];
}
