#include "config.h"

#include "tools/tflaccel/json_writer.h"

/* Length of the valid UTF-8 sequence starting at c, 0 if it is invalid. */
static size_t utf8_sequence_length(const unsigned char *c) {
  size_t length;
  if (*c < 0x80) return 1;
  if ((*c & 0xE0) == 0xC0 && *c >= 0xC2) length = 2;
  else if ((*c & 0xF0) == 0xE0) length = 3;
  else if ((*c & 0xF8) == 0xF0 && *c <= 0xF4) length = 4;
  else return 0;
  for (size_t i = 1; i < length; ++i)
    if ((c[i] & 0xC0) != 0x80) return 0;
  /* Overlong three-byte forms and UTF-16 surrogates are invalid too. */
  if (length == 3 && ((*c == 0xE0 && c[1] < 0xA0) || (*c == 0xED && c[1] >= 0xA0))) return 0;
  if (length == 4 && ((*c == 0xF0 && c[1] < 0x90) || (*c == 0xF4 && c[1] >= 0x90))) return 0;
  return length;
}

void json_write_string(FILE *stream, const char *text) {
  if (text == NULL) {
    fputs("null", stream);
    return;
  }
  fputc('"', stream);
  for (const unsigned char *c = (const unsigned char *)text; *c; ++c) {
    if (*c >= 0x80) {
      /* Names in a model file are bytes; JSON must be UTF-8. Invalid bytes
       * become U+FFFD so the output always parses. */
      size_t length = utf8_sequence_length(c);
      if (length == 0) {
        fputs("\\ufffd", stream);
      } else {
        fwrite(c, 1, length, stream);
        c += length - 1;
      }
      continue;
    }
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
