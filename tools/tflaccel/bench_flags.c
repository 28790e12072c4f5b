#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/bench_flags.h"

int bench_parse_number(const char *command, const char *flag, const char *text, int nonnegative,
                       double *out) {
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || (nonnegative && value < 0)) {
    fprintf(stderr, "%s: %s must be a%s number, not '%s'\n", command, flag,
            nonnegative ? " nonnegative" : "", text);
    return 0;
  }
  *out = value;
  return 1;
}

static int bool_word(const char *text, int *out) {
  if (!strcmp(text, "true") || !strcmp(text, "1"))
    *out = 1;
  else if (!strcmp(text, "false") || !strcmp(text, "0"))
    *out = 0;
  else
    return 0;
  return 1;
}

int bench_parse_bool(const char *command, const char *flag, const char *text, int *out) {
  if (bool_word(text, out)) return 1;
  fprintf(stderr, "%s: %s must be true or false, not '%s'\n", command, flag, text);
  return 0;
}

int bench_match_bool(const char *command, int argc, char **argv, int *index, const char *name,
                     int *out) {
  const char *argument = argv[*index];
  size_t length = strlen(name);
  if (strncmp(argument, name, length) != 0) return 0;
  if (argument[length] == '=')
    return bench_parse_bool(command, name, argument + length + 1, out) ? 1 : -1;
  if (argument[length] != '\0') return 0;
  *out = 1;
  if (*index + 1 < argc && bool_word(argv[*index + 1], out)) ++*index;
  return 1;
}
