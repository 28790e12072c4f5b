/* Flag values bench and diff take beyond cli_options' whole numbers:
 * seconds, real numbers and TFLite-style booleans. Each prints
 * "<command>: <problem>" and returns 0 on a bad value. */
#ifndef TFLACCEL_TOOLS_BENCH_FLAGS_H
#define TFLACCEL_TOOLS_BENCH_FLAGS_H

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

#endif
