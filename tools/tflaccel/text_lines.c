#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/text_lines.h"

void text_lines_free(text_lines *lines) {
  for (size_t i = 0; lines->lines != NULL && i < lines->count; ++i) free(lines->lines[i]);
  free(lines->lines);
  lines->lines = NULL;
  lines->count = 0;
}

tflaccel_status text_lines_read(const char *path, text_lines *lines) {
  lines->lines = NULL;
  lines->count = 0;
  FILE *file = fopen(path, "r");
  if (file == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read %s: %s", path, strerror(errno));
  size_t capacity = 0;
  char *line = NULL;
  size_t line_capacity = 0;
  ssize_t length;
  tflaccel_status status = NULL;
  while ((length = getline(&line, &line_capacity, file)) >= 0) {
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    if (lines->count == capacity) {
      size_t grown = capacity ? capacity * 2 : 64;
      char **bigger = realloc(lines->lines, grown * sizeof *bigger);
      if (bigger == NULL) {
        status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", path);
        break;
      }
      lines->lines = bigger;
      capacity = grown;
    }
    if ((lines->lines[lines->count] = strdup(line)) == NULL) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", path);
      break;
    }
    ++lines->count;
  }
  if (status == NULL && ferror(file))
    status = tflaccel_status_make(TFLACCEL_IO_ERROR, "reading %s failed", path);
  free(line);
  fclose(file);
  if (status == NULL && lines->count > 0 && lines->lines[lines->count - 1][0] == '\0') {
    free(lines->lines[--lines->count]);
  }
  if (status != NULL) text_lines_free(lines);
  return status;
}
