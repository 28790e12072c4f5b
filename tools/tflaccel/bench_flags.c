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

int bench_set_model(const char *command, const char **model_path, const char *model) {
  if (*model_path != NULL && strcmp(*model_path, model) != 0) {
    fprintf(stderr, "%s: one model at a time ('%s' and '%s')\n", command, *model_path, model);
    return 0;
  }
  *model_path = model;
  return 1;
}

int bench_match_num_threads(const char *command, int argc, char **argv, int *index,
                            int32_t *thread_count) {
  const char *value = NULL;
  long number;
  int match = cli_match_value(command, argc, argv, index, "--num_threads", &value);
  if (match <= 0) return match;
  if (!cli_parse_int(command, "--num_threads", value, -1, 1024, &number)) return -1;
  *thread_count = number > 0 ? (int32_t)number : 0;
  return 1;
}

int bench_parse_command_line(const bench_command_line *line, int argc, char **argv,
                             int *exit_code) {
  *exit_code = 2;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      line->print_help();
      *exit_code = 0;
      return 0;
    }
    int match = cli_parse_compile_flag(line->command, argc, argv, &i, line->compile);
    if (match == 0) match = line->parse_flag(argc, argv, &i, line->options);
    if (match < 0) return 0;
    if (match > 0) continue;
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "%s: unknown option '%s' (try --help)\n", line->command, argv[i]);
      return 0;
    }
    if (!bench_set_model(line->command, line->model_path, argv[i])) return 0;
  }
  if (*line->model_path == NULL) {
    fprintf(stderr, "%s: no model given (usage: %s)\n", line->command, line->usage);
    return 0;
  }
  return 1;
}
