/* A small JSON reader for test data (expected.json, manifest.json). */
#ifndef TFLACCEL_TESTS_SUPPORT_JSON_H
#define TFLACCEL_TESTS_SUPPORT_JSON_H

#include <stddef.h>

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_value {
  json_kind kind;
  double number;             /* JSON_NUMBER, JSON_BOOL (0/1) */
  char *string;              /* JSON_STRING */
  struct json_value *items;  /* JSON_ARRAY values, JSON_OBJECT values */
  char **keys;               /* JSON_OBJECT keys */
  size_t count;
} json_value;

/* Parses a whole file; NULL on any error (message on stderr). */
json_value *json_parse_file(const char *path);
/* Frees what value holds (not value itself). */
void json_free(json_value *value);
/* Frees a root returned by json_parse_file. */
void json_destroy(json_value *root);
/* Member of an object, NULL when absent or not an object. */
const json_value *json_get(const json_value *object, const char *key);

#endif
