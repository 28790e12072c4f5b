/* Options shared by run, inspect and bench: which accelerators, precision,
 * threads and the partitioning flags. */
#ifndef TFLACCEL_TOOLS_CLI_OPTIONS_H
#define TFLACCEL_TOOLS_CLI_OPTIONS_H

#include "tflaccel/tflaccel.h"

typedef struct cli_compile_flags {
  const char *config_path;
  const char *accelerators;
  int32_t precision;                /* -1: config */
  int32_t thread_count;             /* 0: config */
  int32_t max_delegated_partitions; /* -1: config */
  int32_t require_full_delegation;  /* -1: config */
  int32_t min_partition_ops;        /* -1: config */
  const char *cache_dir;            /* NULL: config */
  const char *model_token;          /* the model's cache token; NULL: its SHA-256 */
  int32_t split_fallback_ops;       /* 1: one partition per cpu_ref op (profiling) */
  int32_t profile_kernels;          /* 1: accelerators time their kernels (profiling) */
} cli_compile_flags;

void cli_compile_flags_init(cli_compile_flags *flags);

/* If argv[*index] is one of the shared flags, consumes it (and its value)
 * and returns 1; returns -1 after printing "<command>: <problem>" for a bad
 * value; 0 when it is not a shared flag. Accepts --flag VALUE and
 * --flag=VALUE. */
int cli_parse_compile_flag(const char *command, int argc, char **argv, int *index,
                           cli_compile_flags *flags);
/* The help lines of the shared flags. */
const char *cli_compile_flags_help(void);

/* Creates the environment and compiles the model with the flags. Prints
 * "<command>: <message>" on failure and returns 0. */
int cli_compile(const char *command, const cli_compile_flags *flags, const tflaccel_model *model,
                tflaccel_environment **environment, tflaccel_compiled_model **compiled);

/* 1 when plugin `name` is configured and available; otherwise prints
 * "<command>: <flag> needs the <name> plugin, which ...: <reason>" and
 * returns 0. */
int cli_require_plugin(const char *command, const char *flag, const cli_compile_flags *flags,
                       const char *name);

/* Matches "--name" or "--name=VALUE"; *value gets VALUE, or the next
 * argument (consumed) when there is no '='. Returns 1 on a match, -1 when
 * the value is missing (message printed), 0 otherwise. */
int cli_match_value(const char *command, int argc, char **argv, int *index, const char *name,
                    const char **value);
/* Parses a whole number in [minimum, maximum]; prints and returns 0 on error. */
int cli_parse_int(const char *command, const char *flag, const char *text, long minimum,
                  long maximum, long *out);

#endif
