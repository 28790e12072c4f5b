#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/json.h"

typedef struct json_parser {
  const char *cursor;
  const char *end;
} json_parser;

static void skip_space(json_parser *parser) {
  while (parser->cursor < parser->end &&
         (*parser->cursor == ' ' || *parser->cursor == '\n' || *parser->cursor == '\r' ||
          *parser->cursor == '\t'))
    ++parser->cursor;
}

static int parse_value(json_parser *parser, json_value *out, int depth);

static char *parse_string(json_parser *parser) {
  if (parser->cursor >= parser->end || *parser->cursor != '"') return NULL;
  ++parser->cursor;
  size_t capacity = 16, length = 0;
  char *text = malloc(capacity);
  if (text == NULL) return NULL;
  while (parser->cursor < parser->end && *parser->cursor != '"') {
    char c = *parser->cursor++;
    if (c == '\\' && parser->cursor < parser->end) {
      char escaped = *parser->cursor++;
      switch (escaped) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'u': /* test data is ASCII: keep the code point's low byte */
        if (parser->end - parser->cursor < 4) { free(text); return NULL; }
        c = (char)strtol((char[]){parser->cursor[2], parser->cursor[3], 0}, NULL, 16);
        parser->cursor += 4;
        break;
      default: c = escaped;
      }
    }
    if (length + 2 > capacity) {
      capacity *= 2;
      char *grown = realloc(text, capacity);
      if (grown == NULL) { free(text); return NULL; }
      text = grown;
    }
    text[length++] = c;
  }
  if (parser->cursor >= parser->end) { free(text); return NULL; }
  ++parser->cursor; /* closing quote */
  text[length] = '\0';
  return text;
}

static int append(json_value *container, json_value *item, char *key) {
  json_value *items = realloc(container->items, sizeof *items * (container->count + 1));
  if (items == NULL) return 0;
  container->items = items;
  if (container->kind == JSON_OBJECT) {
    char **keys = realloc(container->keys, sizeof *keys * (container->count + 1));
    if (keys == NULL) return 0;
    container->keys = keys;
    keys[container->count] = key;
  }
  items[container->count++] = *item;
  return 1;
}

static int parse_container(json_parser *parser, json_value *out, int depth, int object) {
  out->kind = object ? JSON_OBJECT : JSON_ARRAY;
  ++parser->cursor;
  skip_space(parser);
  if (parser->cursor < parser->end && *parser->cursor == (object ? '}' : ']')) {
    ++parser->cursor;
    return 1;
  }
  for (;;) {
    char *key = NULL;
    skip_space(parser);
    if (object) {
      key = parse_string(parser);
      if (key == NULL) return 0;
      skip_space(parser);
      if (parser->cursor >= parser->end || *parser->cursor != ':') { free(key); return 0; }
      ++parser->cursor;
    }
    json_value item;
    memset(&item, 0, sizeof item);
    if (!parse_value(parser, &item, depth + 1)) {
      free(key);
      json_free(&item);
      return 0;
    }
    if (!append(out, &item, key)) {
      free(key);
      json_free(&item);
      return 0;
    }
    skip_space(parser);
    if (parser->cursor < parser->end && *parser->cursor == ',') {
      ++parser->cursor;
      continue;
    }
    if (parser->cursor < parser->end && *parser->cursor == (object ? '}' : ']')) {
      ++parser->cursor;
      return 1;
    }
    return 0;
  }
}

static int parse_value(json_parser *parser, json_value *out, int depth) {
  if (depth > 64) return 0;
  skip_space(parser);
  if (parser->cursor >= parser->end) return 0;
  char c = *parser->cursor;
  if (c == '{') return parse_container(parser, out, depth, 1);
  if (c == '[') return parse_container(parser, out, depth, 0);
  if (c == '"') {
    out->kind = JSON_STRING;
    out->string = parse_string(parser);
    return out->string != NULL;
  }
  if (!strncmp(parser->cursor, "true", 4) || !strncmp(parser->cursor, "false", 5)) {
    out->kind = JSON_BOOL;
    out->number = c == 't';
    parser->cursor += c == 't' ? 4 : 5;
    return 1;
  }
  if (!strncmp(parser->cursor, "null", 4)) {
    out->kind = JSON_NULL;
    parser->cursor += 4;
    return 1;
  }
  char *end = NULL;
  out->kind = JSON_NUMBER;
  out->number = strtod(parser->cursor, &end);
  if (end == parser->cursor) return 0;
  parser->cursor = end;
  return 1;
}

static void free_children(json_value *value) {
  for (size_t i = 0; i < value->count; ++i) {
    free_children(&value->items[i]);
    if (value->keys) free(value->keys[i]);
  }
  free(value->items);
  free(value->keys);
  free(value->string);
}

void json_free(json_value *value) {
  if (value == NULL) return;
  free_children(value);
  memset(value, 0, sizeof *value);
}

void json_destroy(json_value *root) {
  json_free(root);
  free(root);
}

json_value *json_parse_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return NULL;
  }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text == NULL || fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    fclose(file);
    return NULL;
  }
  fclose(file);
  text[size] = '\0';
  json_parser parser = {text, text + size};
  json_value *root = calloc(1, sizeof *root);
  int ok = root != NULL && parse_value(&parser, root, 0);
  free(text);
  if (!ok) {
    fprintf(stderr, "%s: malformed JSON\n", path);
    json_destroy(root);
    return NULL;
  }
  return root;
}

const json_value *json_get(const json_value *object, const char *key) {
  if (object == NULL || object->kind != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; ++i)
    if (!strcmp(object->keys[i], key)) return &object->items[i];
  return NULL;
}
