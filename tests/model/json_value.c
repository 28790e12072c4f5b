/* Recursive-descent JSON parsing for tests. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/model/json_value.h"

#define JSON_MAX_DEPTH 64

typedef struct json_parser {
  const char *text, *end;
  const char *skip_key;
  int failed;
} json_parser;

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

/* A string literal; keeps it when out != NULL (escapes \uXXXX as '?'). */
static int parse_string(json_parser *p, char **out) {
  if (!take(p, '"')) return 0;
  const char *start = p->text;
  size_t length = 0;
  char *copy = NULL;
  for (int pass = 0; pass < (out ? 2 : 1); ++pass) {
    p->text = start;
    length = 0;
    while (p->text < p->end && *p->text != '"') {
      char c = *p->text++;
      if (c == '\\') {
        if (p->text >= p->end) return 0;
        char e = *p->text++;
        switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'u':
          if (p->end - p->text < 4) return 0;
          p->text += 4;
          c = '?';
          break;
        default: c = e;
        }
      }
      if (copy) copy[length] = c;
      ++length;
    }
    if (p->text >= p->end) {
      free(copy);
      return 0;
    }
    if (out && pass == 0) {
      copy = malloc(length + 1);
      if (copy == NULL) return 0;
    }
  }
  ++p->text; /* closing quote */
  if (out) {
    copy[length] = '\0';
    *out = copy;
  }
  return 1;
}

static int parse_value(json_parser *p, json_value *value, int keep, int depth);
static void free_contents(json_value *value);

/* Grows geometrically: dumps have arrays of many thousand numbers. */
static int append(json_value *container, json_value *item, char *key) {
  if (container->count == container->capacity) {
    size_t capacity = container->capacity ? 2 * container->capacity : 8;
    json_value *items = realloc(container->items, capacity * sizeof *items);
    if (items == NULL) return 0;
    container->items = items;
    if (container->type == JSON_OBJECT) {
      char **keys = realloc(container->keys, capacity * sizeof *keys);
      if (keys == NULL) return 0;
      container->keys = keys;
    }
    container->capacity = capacity;
  }
  if (container->type == JSON_OBJECT) container->keys[container->count] = key;
  container->items[container->count++] = *item;
  return 1;
}

static int parse_container(json_parser *p, json_value *value, int keep, int depth, int object) {
  char close = object ? '}' : ']';
  value->type = keep ? (object ? JSON_OBJECT : JSON_ARRAY) : JSON_SKIPPED;
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
      free_contents(&item);
      return 0;
    }
    if (keep && !append(value, &item, key)) {
      free(key);
      free_contents(&item);
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
    value->type = keep ? JSON_STRING : JSON_SKIPPED;
    return parse_string(p, keep ? &value->string : NULL);
  }
  static const struct { const char *word; json_type type; double number; } words[] = {
    {"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0},
  };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i) {
    size_t length = strlen(words[i].word);
    if ((size_t)(p->end - p->text) >= length && memcmp(p->text, words[i].word, length) == 0) {
      p->text += length;
      value->type = keep ? words[i].type : JSON_SKIPPED;
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
  value->type = keep ? JSON_NUMBER : JSON_SKIPPED;
  value->number = number;
  return 1;
}

json_value *json_parse(const char *text, size_t length, const char *skip_key) {
  char *copy = malloc(length + 1);
  json_value *value = calloc(1, sizeof *value);
  if (copy == NULL || value == NULL) {
    free(copy);
    free(value);
    return NULL;
  }
  memcpy(copy, text, length);
  copy[length] = '\0';
  json_parser parser = {copy, copy + length, skip_key, 0};
  int ok = parse_value(&parser, value, 1, 0);
  skip_space(&parser);
  if (!ok || parser.text != parser.end) {
    json_free(value);
    value = NULL;
  }
  free(copy);
  if (value == NULL) return NULL;
  return value;
}

static void free_contents(json_value *value) {
  free(value->string);
  for (size_t i = 0; i < value->count; ++i) {
    free_contents(&value->items[i]);
    if (value->keys) free(value->keys[i]);
  }
  free(value->items);
  free(value->keys);
  value->items = NULL;
  value->keys = NULL;
  value->string = NULL;
  value->count = value->capacity = 0;
}

void json_free(json_value *value) {
  if (value == NULL) return;
  free_contents(value);
  free(value);
}

const json_value *json_get(const json_value *object, const char *key) {
  if (object == NULL || object->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; ++i)
    if (strcmp(object->keys[i], key) == 0) return &object->items[i];
  return NULL;
}

const json_value *json_at(const json_value *array, size_t index) {
  if (array == NULL || array->type != JSON_ARRAY || index >= array->count) return NULL;
  return &array->items[index];
}
