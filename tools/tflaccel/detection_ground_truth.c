#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/detection_ground_truth.h"

typedef enum token_kind {
  TOKEN_END,
  TOKEN_NAME,   /* a field name */
  TOKEN_NUMBER,
  TOKEN_STRING, /* "..." (text: between the quotes, escapes left in) */
  TOKEN_OPEN,   /* { */
  TOKEN_CLOSE,  /* } */
  TOKEN_COLON,
} token_kind;

typedef struct token {
  token_kind kind;
  const char *text;
  size_t length;
  int line;
} token;

typedef struct lexer {
  const char *cursor;
  int line;
  const char *origin;
  token current; /* the token read last */
} lexer;

static tflaccel_status error_at(const lexer *lx, int line, const char *format, const char *detail) {
  return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s:%d: %s%s", lx->origin, line, format,
                              detail);
}

static int is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' ||
         c == 'f' || c == 'F' || c == 'x' || c == 'X' || (c >= 'a' && c <= 'd');
}

/* Reads the next token into lx->current. */
static tflaccel_status next(lexer *lx) {
  const char *p = lx->cursor;
  for (;;) {
    if (*p == '\n') {
      ++lx->line;
      ++p;
    } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == ',' || *p == ';') {
      ++p;
    } else if (*p == '#') {
      while (*p != '\0' && *p != '\n') ++p;
    } else {
      break;
    }
  }
  token *t = &lx->current;
  t->text = p;
  t->line = lx->line;
  t->length = 1;
  if (*p == '\0') {
    t->kind = TOKEN_END;
    t->length = 0;
  } else if (*p == '{' || *p == '<') {
    t->kind = TOKEN_OPEN;
  } else if (*p == '}' || *p == '>') {
    t->kind = TOKEN_CLOSE;
  } else if (*p == ':') {
    t->kind = TOKEN_COLON;
  } else if (*p == '"' || *p == '\'') {
    char quote = *p;
    const char *q = p + 1;
    while (*q != '\0' && *q != quote && *q != '\n') q += (*q == '\\' && q[1] != '\0') ? 2 : 1;
    if (*q != quote) return error_at(lx, lx->line, "a string is not closed", "");
    t->kind = TOKEN_STRING;
    t->text = p + 1;
    t->length = (size_t)(q - p - 1);
    lx->cursor = q + 1;
    return NULL;
  } else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_') {
    const char *q = p;
    while (is_name_char(*q)) ++q;
    t->kind = TOKEN_NAME;
    t->length = (size_t)(q - p);
  } else if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.') {
    const char *q = p;
    while (is_number_char(*q)) ++q;
    t->kind = TOKEN_NUMBER;
    t->length = (size_t)(q - p);
  } else {
    char what[8];
    snprintf(what, sizeof what, "'%c'", *p);
    return error_at(lx, lx->line, "unexpected character ", what);
  }
  lx->cursor = p + t->length;
  return NULL;
}

static int token_is(const token *t, const char *name) {
  return t->kind == TOKEN_NAME && strlen(name) == t->length && !strncmp(t->text, name, t->length);
}

/* A copy of the token's text (for messages and names). */
static char *token_copy(const token *t) {
  char *copy = malloc(t->length + 1);
  if (copy != NULL) {
    memcpy(copy, t->text, t->length);
    copy[t->length] = '\0';
  }
  return copy;
}

static tflaccel_status unexpected(const lexer *lx, const char *wanted) {
  const token *t = &lx->current;
  if (t->kind == TOKEN_END)
    return error_at(lx, t->line, "the file ends where it needs ", wanted);
  char found[48];
  snprintf(found, sizeof found, "%.*s", (int)(t->length > 40 ? 40 : t->length), t->text);
  char message[160];
  snprintf(message, sizeof message, "'%s' where it needs %s", found, wanted);
  return error_at(lx, t->line, message, "");
}

/* After a field name: "{" opens a message (a ':' before it is allowed). */
static tflaccel_status open_message(lexer *lx) {
  tflaccel_status status = next(lx);
  if (status == NULL && lx->current.kind == TOKEN_COLON) status = next(lx);
  if (status == NULL && lx->current.kind != TOKEN_OPEN) status = unexpected(lx, "'{'");
  return status;
}

/* After a field name: ':' then a number. */
static tflaccel_status read_number(lexer *lx, const char *field, double *value) {
  tflaccel_status status = next(lx);
  if (status == NULL && lx->current.kind != TOKEN_COLON) return unexpected(lx, "':'");
  if (status == NULL) status = next(lx);
  if (status != NULL) return status;
  if (lx->current.kind != TOKEN_NUMBER) return unexpected(lx, "a number");
  char text[64];
  snprintf(text, sizeof text, "%.*s", (int)(lx->current.length < 63 ? lx->current.length : 63),
           lx->current.text);
  size_t length = strlen(text);
  if (length > 0 && (text[length - 1] == 'f' || text[length - 1] == 'F')) text[--length] = '\0';
  char *end = NULL;
  errno = 0;
  *value = strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !isfinite(*value) ||
      lx->current.length >= 63) {
    char message[128];
    snprintf(message, sizeof message, "%s: '%s' is not a number", field, text);
    return error_at(lx, lx->current.line, message, "");
  }
  return NULL;
}

static tflaccel_status read_box(lexer *lx, detection_box *box) {
  static const char *const sides[4] = {"normalized_top", "normalized_bottom", "normalized_left",
                                       "normalized_right"};
  int seen[4] = {0, 0, 0, 0};
  int line = lx->current.line;
  tflaccel_status status = NULL;
  for (;;) {
    if ((status = next(lx)) != NULL) return status;
    if (lx->current.kind == TOKEN_CLOSE) break;
    int side = 0;
    while (side < 4 && !token_is(&lx->current, sides[side])) ++side;
    if (side == 4) return unexpected(lx, "a normalized_top, _bottom, _left or _right field");
    double value;
    if ((status = read_number(lx, sides[side], &value)) != NULL) return status;
    float *slot = side == 0 ? &box->top : side == 1 ? &box->bottom : side == 2 ? &box->left
                                                                               : &box->right;
    *slot = (float)value;
    seen[side] = 1;
  }
  for (int side = 0; side < 4; ++side)
    if (!seen[side]) return error_at(lx, line, "bounding_box lacks ", sides[side]);
  if (box->bottom < box->top || box->right < box->left)
    return error_at(lx, line, "bounding_box has its bottom above its top or its right left of its left",
                    "");
  return NULL;
}

static tflaccel_status read_object(lexer *lx, detection_object *object) {
  int line = lx->current.line;
  int has_class = 0, has_box = 0;
  object->score = 1.0f;
  tflaccel_status status = NULL;
  for (;;) {
    if ((status = next(lx)) != NULL) return status;
    if (lx->current.kind == TOKEN_CLOSE) break;
    double value;
    if (token_is(&lx->current, "class_id")) {
      if ((status = read_number(lx, "class_id", &value)) != NULL) return status;
      if (value != floor(value) || value < 0 || value > INT32_MAX)
        return error_at(lx, lx->current.line, "class_id is not a whole number from 0", "");
      object->class_id = (int32_t)value;
      has_class = 1;
    } else if (token_is(&lx->current, "score")) {
      if ((status = read_number(lx, "score", &value)) != NULL) return status;
      object->score = (float)value;
    } else if (token_is(&lx->current, "bounding_box")) {
      if ((status = open_message(lx)) != NULL || (status = read_box(lx, &object->box)) != NULL)
        return status;
      has_box = 1;
    } else {
      return unexpected(lx, "a class_id, bounding_box or score field");
    }
  }
  if (!has_class) return error_at(lx, line, "an object lacks class_id", "");
  if (!has_box) return error_at(lx, line, "an object lacks bounding_box", "");
  return NULL;
}

tflaccel_status detection_image_add(detection_image *image, const detection_object *object) {
  if (image->object_count == image->object_capacity) {
    size_t capacity = image->object_capacity ? image->object_capacity * 2 : 8;
    detection_object *grown = realloc(image->objects, capacity * sizeof *grown);
    if (grown == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
    image->objects = grown;
    image->object_capacity = capacity;
  }
  image->objects[image->object_count++] = *object;
  return NULL;
}

static tflaccel_status read_result(lexer *lx, detection_image *image) {
  int line = lx->current.line;
  tflaccel_status status = NULL;
  for (;;) {
    if ((status = next(lx)) != NULL) return status;
    if (lx->current.kind == TOKEN_CLOSE) break;
    if (token_is(&lx->current, "image_name")) {
      if ((status = next(lx)) != NULL) return status;
      if (lx->current.kind != TOKEN_COLON) return unexpected(lx, "':'");
      if ((status = next(lx)) != NULL) return status;
      if (lx->current.kind != TOKEN_STRING) return unexpected(lx, "a quoted image name");
      free(image->name);
      if ((image->name = token_copy(&lx->current)) == NULL)
        return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
      if (image->name[0] == '\0' || strchr(image->name, '\\') != NULL)
        return error_at(lx, lx->current.line, "image_name is empty or has escapes", "");
    } else if (token_is(&lx->current, "image_id")) {
      double id;
      if ((status = read_number(lx, "image_id", &id)) != NULL) return status;
    } else if (token_is(&lx->current, "objects")) {
      detection_object object;
      memset(&object, 0, sizeof object);
      if ((status = open_message(lx)) != NULL || (status = read_object(lx, &object)) != NULL ||
          (status = detection_image_add(image, &object)) != NULL)
        return status;
    } else {
      return unexpected(lx, "an image_name, image_id or objects field");
    }
  }
  if (image->name == NULL) return error_at(lx, line, "a detection_results entry lacks image_name", "");
  return NULL;
}

void detection_ground_truth_free(detection_ground_truth *truth) {
  for (size_t i = 0; truth->images != NULL && i < truth->image_count; ++i) {
    free(truth->images[i].name);
    free(truth->images[i].objects);
  }
  free(truth->images);
  memset(truth, 0, sizeof *truth);
}

tflaccel_status detection_ground_truth_parse(const char *text, const char *origin,
                                             detection_ground_truth *truth) {
  memset(truth, 0, sizeof *truth);
  lexer lx = {.cursor = text, .line = 1, .origin = origin};
  tflaccel_status status = NULL;
  while (status == NULL) {
    if ((status = next(&lx)) != NULL || lx.current.kind == TOKEN_END) break;
    if (!token_is(&lx.current, "detection_results")) {
      status = unexpected(&lx, "a detection_results field");
      break;
    }
    if ((status = open_message(&lx)) != NULL) break;
    if (truth->image_count == truth->image_capacity) {
      size_t capacity = truth->image_capacity ? truth->image_capacity * 2 : 16;
      detection_image *grown = realloc(truth->images, capacity * sizeof *grown);
      if (grown == NULL) {
        status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
        break;
      }
      truth->images = grown;
      truth->image_capacity = capacity;
    }
    detection_image *image = &truth->images[truth->image_count++];
    memset(image, 0, sizeof *image);
    status = read_result(&lx, image);
  }
  if (status == NULL && truth->image_count == 0)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: no detection_results", origin);
  if (status != NULL) detection_ground_truth_free(truth);
  return status;
}

tflaccel_status detection_ground_truth_read(const char *path, detection_ground_truth *truth) {
  memset(truth, 0, sizeof *truth);
  FILE *file = fopen(path, "rb");
  if (file == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read %s: %s", path, strerror(errno));
  char *text = NULL;
  size_t size = 0, capacity = 0;
  tflaccel_status status = NULL;
  for (;;) {
    if (size + 4096 + 1 > capacity) {
      size_t grown = capacity ? capacity * 2 : 65536;
      char *bigger = realloc(text, grown);
      if (bigger == NULL) {
        status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", path);
        break;
      }
      text = bigger;
      capacity = grown;
    }
    size_t got = fread(text + size, 1, capacity - size - 1, file);
    size += got;
    if (got == 0) break;
  }
  if (status == NULL && ferror(file))
    status = tflaccel_status_make(TFLACCEL_IO_ERROR, "reading %s failed", path);
  fclose(file);
  if (status == NULL && memchr(text, '\0', size) != NULL)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "%s: not a text proto (binary data; decode a .pb with protoc "
                                  "--decode=tflite.evaluation.ObjectDetectionGroundTruth)",
                                  path);
  if (status == NULL) {
    text[size] = '\0';
    status = detection_ground_truth_parse(text, path, truth);
  }
  free(text);
  return status;
}
