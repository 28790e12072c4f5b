#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/delegate_flag.h"

void delegate_choice_init(delegate_choice *choice) {
  choice->delegate = NULL;
  choice->use_gpu = -1;
  choice->use_xnnpack = -1;
}

int delegate_flag_match(const char *command, int argc, char **argv, int *index,
                        delegate_choice *choice) {
  int match = cli_match_value(command, argc, argv, index, "--delegate", &choice->delegate);
  if (match != 0) return match;
  if ((match = bench_match_bool(command, argc, argv, index, "--use_gpu", &choice->use_gpu)) != 0)
    return match;
  return bench_match_bool(command, argc, argv, index, "--use_xnnpack", &choice->use_xnnpack);
}

int delegate_choice_resolve(const char *command, const delegate_choice *choice,
                            cli_compile_flags *flags) {
  const char *delegate = choice->delegate;
  int gpu = choice->use_gpu > 0, xnnpack = choice->use_xnnpack > 0;
  if (delegate != NULL) {
    if (!strcmp(delegate, "gpu")) {
      gpu = 1;
    } else if (!strcmp(delegate, "xnnpack")) {
      xnnpack = 1;
    } else if (!strcmp(delegate, "nnapi") || !strcmp(delegate, "hexagon") ||
               !strcmp(delegate, "coreml")) {
      fprintf(stderr, "%s: --delegate=%s is not supported here: that delegate belongs to another "
                      "platform; use --delegate=gpu, --delegate=xnnpack or --accelerator\n",
              command, delegate);
      return 0;
    } else if (strcmp(delegate, "none") != 0 && *delegate != '\0') {
      fprintf(stderr, "%s: --delegate must be gpu, xnnpack or none, not '%s'\n", command,
              delegate);
      return 0;
    }
  }
  int given = delegate != NULL || choice->use_gpu >= 0 || choice->use_xnnpack >= 0;
  if (!given) return 1;
  if (flags->accelerators != NULL) {
    fprintf(stderr, "%s: give --accelerator or --delegate/--use_gpu/--use_xnnpack, not both\n",
            command);
    return 0;
  }
  if (gpu && xnnpack)
    flags->accelerators = "gpu," DELEGATE_XNNPACK_PLUGIN ",cpu_ref";
  else if (gpu)
    flags->accelerators = "gpu,cpu_ref";
  else if (xnnpack)
    flags->accelerators = DELEGATE_XNNPACK_PLUGIN ",cpu_ref";
  else
    flags->accelerators = "cpu_ref";
  if (xnnpack &&
      !cli_require_plugin(command, delegate && !strcmp(delegate, "xnnpack") ? "--delegate=xnnpack"
                                                                            : "--use_xnnpack",
                          flags, DELEGATE_XNNPACK_PLUGIN))
    return -1;
  return 1;
}
