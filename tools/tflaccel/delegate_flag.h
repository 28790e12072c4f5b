/* The delegate choice of TFLite's evaluation tools (inference_diff,
 * run_eval): --delegate=gpu|xnnpack|none and the --use_gpu / --use_xnnpack
 * switches, mapped onto tflaccel accelerator lists. NNAPI, Hexagon and
 * Core ML get a one-line refusal naming what to use instead. */
#ifndef TFLACCEL_TOOLS_DELEGATE_FLAG_H
#define TFLACCEL_TOOLS_DELEGATE_FLAG_H

#include "tools/tflaccel/cli_options.h"

/* The plugin --delegate=xnnpack and --use_xnnpack stand for. */
#define DELEGATE_XNNPACK_PLUGIN "cpu_xnnpack"

typedef struct delegate_choice {
  const char *delegate; /* --delegate's value, NULL when not given */
  int use_gpu;          /* -1: not given */
  int use_xnnpack;      /* -1: not given */
} delegate_choice;

void delegate_choice_init(delegate_choice *choice);
/* Matches --delegate, --use_gpu and --use_xnnpack; returns like
 * bench_match_bool. */
int delegate_flag_match(const char *command, int argc, char **argv, int *index,
                        delegate_choice *choice);
/* Sets flags->accelerators from the choice (none given: unchanged) and
 * returns 1. Prints and returns 0 (bad usage) when the choice conflicts
 * with --accelerator or names a delegate tflaccel does not have; -1 when it
 * needs cpu_xnnpack where that plugin is not available. */
int delegate_choice_resolve(const char *command, const delegate_choice *choice,
                            cli_compile_flags *flags);

#endif
