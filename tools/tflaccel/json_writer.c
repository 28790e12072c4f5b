#include "config.h"

#include "tools/tflaccel/json_writer.h"

void json_write_string(FILE *stream, const char *text) {
  if (text == NULL) {
    fputs("null", stream);
    return;
  }
  fputc('"', stream);
  for (const unsigned char *c = (const unsigned char *)text; *c; ++c) {
    switch (*c) {
    case '"': fputs("\\\"", stream); break;
    case '\\': fputs("\\\\", stream); break;
    case '\n': fputs("\\n", stream); break;
    case '\r': fputs("\\r", stream); break;
    case '\t': fputs("\\t", stream); break;
    default:
      if (*c < 0x20) fprintf(stream, "\\u%04x", *c);
      else fputc(*c, stream);
    }
  }
  fputc('"', stream);
}
