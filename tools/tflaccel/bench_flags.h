/* The command lines of bench and diff, which take TFLite's benchmark_model
 * and inference_diff spellings: flag values beyond cli_options' whole
 * numbers (seconds, real numbers, TFLite-style booleans), the model given
 * by flag or as an argument, and the loop over the arguments. Each prints
 * "<command>: <problem>" on a bad value. */
#ifndef TFLACCEL_TOOLS_BENCH_FLAGS_H
#define TFLACCEL_TOOLS_BENCH_FLAGS_H

#include <stdint.h>

#include "tools/tflaccel/cli_options.h"

/* A finite number; with nonnegative set, also >= 0. */
int bench_parse_number(const char *command, const char *flag, const char *text, int nonnegative,
                       double *out);
/* true/false/1/0, as TFLite's flag parser takes them. */
int bench_parse_bool(const char *command, const char *flag, const char *text, int *out);

/* Matches a boolean flag "--name", "--name=BOOL" or "--name BOOL"; a bare
 * --name means true and consumes the next argument only when that argument
 * is a boolean word. Returns 1 on a match, -1 after printing a bad value,
 * 0 when argv[*index] is another flag. */
int bench_match_bool(const char *command, int argc, char **argv, int *index, const char *name,
                     int *out);

/* Takes `model` as the model to run: 1, or 0 after printing when another
 * model was given already (one model at a time). */
int bench_set_model(const char *command, const char **model_path, const char *model);

/* benchmark_model's "--num_threads N" (N from -1 to 1024; -1 and 0 leave
 * the choice to the runtime). Returns like bench_match_bool. */
int bench_match_num_threads(const char *command, int argc, char **argv, int *index,
                            int32_t *thread_count);

/* One command's side of bench_parse_command_line. */
typedef struct bench_command_line {
  const char *command; /* "tflaccel bench": the prefix of every message */
  const char *usage;   /* "tflaccel bench [--graph=]MODEL [options]" */
  void (*print_help)(void);
  /* The command's own flags, given `options`: returns like bench_match_bool. */
  int (*parse_flag)(int argc, char **argv, int *index, void *options);
  void *options;
  cli_compile_flags *compile; /* where the shared flags go */
  const char **model_path;    /* where the model goes */
} bench_command_line;

/* Reads argv[1..argc): --help, the shared compile flags, the command's own
 * flags, and the model as the one argument that is not a flag. Returns 1 to
 * go on; 0 to end with *exit_code (0 after --help, 2 on bad usage, with a
 * message printed). */
int bench_parse_command_line(const bench_command_line *line, int argc, char **argv,
                             int *exit_code);

#endif
