/* A small JSON reader for tests (flatc's --strict-json dumps). Values under
 * a key listed in skip_key are parsed but not kept, so that megabytes of
 * buffer bytes cost no memory. */
#ifndef TFLACCEL_TESTS_MODEL_JSON_VALUE_H
#define TFLACCEL_TESTS_MODEL_JSON_VALUE_H

#include <stddef.h>

typedef enum json_type {
  JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT, JSON_SKIPPED
} json_type;

typedef struct json_value {
  json_type type;
  double number;            /* JSON_NUMBER, JSON_BOOL (0/1) */
  char *string;             /* JSON_STRING */
  size_t count;             /* JSON_ARRAY, JSON_OBJECT */
  size_t capacity;          /* allocated entries of items (and keys) */
  struct json_value *items; /* elements, or member values */
  char **keys;              /* JSON_OBJECT member names */
} json_value;

/* NULL when text is not valid JSON. */
json_value *json_parse(const char *text, size_t length, const char *skip_key);
void json_free(json_value *value);

/* Member `key` of an object, NULL when absent or not an object. */
const json_value *json_get(const json_value *object, const char *key);
/* Element of an array, NULL when out of range or not an array. */
const json_value *json_at(const json_value *array, size_t index);

#endif
