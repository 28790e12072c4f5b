#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/cli_options.h"

void cli_compile_flags_init(cli_compile_flags *flags) {
  memset(flags, 0, sizeof *flags);
  flags->precision = -1;
  flags->thread_count = 0;
  flags->max_delegated_partitions = -1;
  flags->require_full_delegation = -1;
  flags->min_partition_ops = -1;
}

int cli_match_value(const char *command, int argc, char **argv, int *index, const char *name,
                    const char **value) {
  const char *argument = argv[*index];
  size_t length = strlen(name);
  if (strncmp(argument, name, length) != 0) return 0;
  if (argument[length] == '=') {
    *value = argument + length + 1;
    return 1;
  }
  if (argument[length] != '\0') return 0;
  if (*index + 1 >= argc) {
    fprintf(stderr, "%s: %s needs a value\n", command, name);
    return -1;
  }
  *value = argv[++*index];
  return 1;
}

int cli_parse_int(const char *command, const char *flag, const char *text, long minimum,
                  long maximum, long *out) {
  char *end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < minimum || value > maximum) {
    fprintf(stderr, "%s: %s must be a whole number from %ld to %ld, not '%s'\n", command, flag,
            minimum, maximum, text);
    return 0;
  }
  *out = value;
  return 1;
}

int cli_parse_compile_flag(const char *command, int argc, char **argv, int *index,
                           cli_compile_flags *flags) {
  const char *value = NULL;
  int match;
  long number;
  if ((match = cli_match_value(command, argc, argv, index, "--accelerator", &value)) != 0) {
    if (match < 0) return -1;
    flags->accelerators = value;
    return 1;
  }
  if ((match = cli_match_value(command, argc, argv, index, "--config", &value)) != 0) {
    if (match < 0) return -1;
    flags->config_path = value;
    return 1;
  }
  if ((match = cli_match_value(command, argc, argv, index, "--precision", &value)) != 0) {
    if (match < 0) return -1;
    if (!strcmp(value, "fp32")) flags->precision = TFLACCEL_PRECISION_FP32;
    else if (!strcmp(value, "fp16")) flags->precision = TFLACCEL_PRECISION_FP16;
    else {
      fprintf(stderr, "%s: --precision must be fp32 or fp16, not '%s'\n", command, value);
      return -1;
    }
    return 1;
  }
  if ((match = cli_match_value(command, argc, argv, index, "--threads", &value)) != 0) {
    if (match < 0 || !cli_parse_int(command, "--threads", value, 1, 1024, &number)) return -1;
    flags->thread_count = (int32_t)number;
    return 1;
  }
  if ((match = cli_match_value(command, argc, argv, index, "--max_delegated_partitions", &value)) != 0) {
    if (match < 0 ||
        !cli_parse_int(command, "--max_delegated_partitions", value, 0, 1000000, &number))
      return -1;
    flags->max_delegated_partitions = (int32_t)number;
    return 1;
  }
  if (!strcmp(argv[*index], "--require_full_delegation")) {
    flags->require_full_delegation = 1;
    return 1;
  }
  if (!strncmp(argv[*index], "--require_full_delegation=", 26)) {
    value = argv[*index] + 26;
    if (!strcmp(value, "true") || !strcmp(value, "1")) flags->require_full_delegation = 1;
    else if (!strcmp(value, "false") || !strcmp(value, "0")) flags->require_full_delegation = 0;
    else {
      fprintf(stderr, "%s: --require_full_delegation must be true or false, not '%s'\n", command,
              value);
      return -1;
    }
    return 1;
  }
  return 0;
}

const char *cli_compile_flags_help(void) {
  return "  --accelerator NAMES          accelerators in preference order (gpu_cl,cpu_ref; gpu, cpu; or auto)\n"
         "  --precision fp32|fp16        arithmetic precision (default: config, fp32)\n"
         "  --threads N                  CPU threads for cpu_ref's heavy ops\n"
         "  --max_delegated_partitions N keep at most N accelerator partitions (0 = no limit)\n"
         "  --require_full_delegation    fail, listing every op that would fall back to cpu_ref\n"
         "  --config FILE                tflaccel.ini to use\n";
}

int cli_compile(const char *command, const cli_compile_flags *flags, const tflaccel_model *model,
                tflaccel_environment **environment, tflaccel_compiled_model **compiled) {
  *environment = NULL;
  *compiled = NULL;
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options,
      .config_path = flags->config_path,
      .accelerators = flags->accelerators,
      .cache_dir = flags->cache_dir,
      .profile_kernels = flags->profile_kernels,
  };
  tflaccel_status status = tflaccel_environment_create(&environment_options, environment);
  if (status == NULL) {
    tflaccel_compilation_options options;
    tflaccel_compilation_options_init(&options);
    options.precision = flags->precision;
    options.thread_count = flags->thread_count;
    options.max_delegated_partitions = flags->max_delegated_partitions;
    options.require_full_delegation = flags->require_full_delegation;
    options.min_partition_ops = flags->min_partition_ops;
    options.split_fallback_ops = flags->split_fallback_ops;
    options.model_token = flags->model_token;
    status = tflaccel_compiled_model_create(*environment, model, &options, compiled);
  }
  if (status != NULL) {
    fprintf(stderr, "%s: %s\n", command, tflaccel_status_message(status));
    tflaccel_status_free(status);
    tflaccel_environment_destroy(*environment);
    *environment = NULL;
    return 0;
  }
  return 1;
}

int cli_require_plugin(const char *command, const char *flag, const cli_compile_flags *flags,
                       const char *name) {
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options,
      .config_path = flags->config_path,
      .accelerators = "cpu_ref",
  };
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&environment_options, &environment);
  if (status != NULL) {
    fprintf(stderr, "%s: %s\n", command, tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 0;
  }
  int found = 0, available = 0;
  char reason[256] = "it is not in the configuration";
  uint32_t count = tflaccel_environment_plugin_count(environment);
  for (uint32_t i = 0; i < count && !found; ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    tflaccel_status info_status = tflaccel_environment_plugin_info(environment, i, &info);
    if (info_status != NULL) {
      tflaccel_status_free(info_status);
      continue;
    }
    if (strcmp(info.name, name) != 0) continue;
    found = 1;
    available = info.available;
    snprintf(reason, sizeof reason, "%s", info.reason ? info.reason : "it has no device");
  }
  tflaccel_environment_destroy(environment);
  if (!available)
    fprintf(stderr, "%s: %s needs the %s plugin, which is not available here: %s\n", command,
            flag, name, reason);
  return available;
}
