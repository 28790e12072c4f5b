/* Minimal JSON output for the CLI's --json modes. */
#ifndef TFLACCEL_TOOLS_JSON_WRITER_H
#define TFLACCEL_TOOLS_JSON_WRITER_H

#include <stdio.h>

/* Writes text as a JSON string literal, quotes included. NULL → null. */
void json_write_string(FILE *stream, const char *text);

#endif
