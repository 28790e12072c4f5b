/* A text file read as lines (labels files): trailing '\r' and '\n' are
 * dropped; a final line without a newline counts; a trailing empty line
 * does not. */
#ifndef TFLACCEL_TOOLS_TEXT_LINES_H
#define TFLACCEL_TOOLS_TEXT_LINES_H

#include <stddef.h>

#include "tflaccel/status.h"

typedef struct text_lines {
  char **lines;
  size_t count;
} text_lines;

tflaccel_status text_lines_read(const char *path, text_lines *lines);
void text_lines_free(text_lines *lines);

#endif
