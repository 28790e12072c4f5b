/* A small JSON reader for the tests: test data (expected.json,
 * manifest.json), what tflaccel prints with --json, and flatc's
 * --strict-json dumps of models. Values under a key named skip_key are
 * parsed but not kept, so that megabytes of buffer bytes cost no memory. */
#ifndef TFLACCEL_TESTS_SUPPORT_JSON_H
#define TFLACCEL_TESTS_SUPPORT_JSON_H

#include <stddef.h>

typedef enum json_kind {
  JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT, JSON_SKIPPED
} json_kind;

typedef struct json_value {
  json_kind kind;
  double number;            /* JSON_NUMBER, JSON_BOOL (0/1) */
  char *string;             /* JSON_STRING, UTF-8 */
  size_t count;             /* JSON_ARRAY, JSON_OBJECT */
  size_t capacity;          /* allocated entries of items (and keys) */
  struct json_value *items; /* elements, or member values */
  char **keys;              /* JSON_OBJECT member names */
} json_value;

/* Parses text[0..length) as one JSON value (whitespace around it allowed);
 * NULL when it is not valid JSON or memory runs out. Free with json_destroy.
 * skip_key may be NULL. */
json_value *json_parse(const char *text, size_t length, const char *skip_key);
/* Parses a whole file; NULL on any error (message on stderr). */
json_value *json_parse_file(const char *path);
/* Frees what value holds (not value itself). */
void json_free(json_value *value);
/* Frees a root returned by json_parse or json_parse_file. */
void json_destroy(json_value *root);

/* Member `key` of an object, NULL when absent or not an object. */
const json_value *json_get(const json_value *object, const char *key);
/* Element of an array, NULL when out of range or not an array. */
const json_value *json_at(const json_value *array, size_t index);

#endif
