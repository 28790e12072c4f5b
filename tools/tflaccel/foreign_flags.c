#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/foreign_flags.h"

typedef struct foreign_flag {
  const char *name;     /* without the leading "--" */
  int is_switch;        /* a use_* boolean: "=false" is accepted */
  const char *instead;  /* what to do here */
} foreign_flag;

#define NNAPI_INSTEAD "NNAPI is Android's; use --accelerator=gpu (or --use_gpu=true) or cpu_ref"
#define HEXAGON_INSTEAD "the Hexagon DSP delegate is Android's; use --accelerator=gpu or cpu_ref"
#define COREML_INSTEAD "Core ML is Apple's; use --accelerator=gpu or cpu_ref"
#define EXTERNAL_INSTEAD \
  "tflaccel loads accelerator plugins, not TFLite delegates; list the plugin in tflaccel.ini and " \
  "pick it with --accelerator"

static const foreign_flag foreign_flags[] = {
    {"use_nnapi", 1, NNAPI_INSTEAD},
    {"use_legacy_nnapi", 1, NNAPI_INSTEAD},
    {"nnapi_execution_preference", 0, NNAPI_INSTEAD},
    {"nnapi_execution_priority", 0, NNAPI_INSTEAD},
    {"nnapi_accelerator_name", 0, NNAPI_INSTEAD},
    {"disable_nnapi_cpu", 0, NNAPI_INSTEAD},
    {"nnapi_allow_fp16", 0, NNAPI_INSTEAD},
    {"nnapi_allow_dynamic_dimensions", 0, NNAPI_INSTEAD},
    {"nnapi_use_burst_mode", 0, NNAPI_INSTEAD},
    {"nnapi_support_library_path", 0, NNAPI_INSTEAD},
    {"use_hexagon", 1, HEXAGON_INSTEAD},
    {"hexagon_profiling", 0, HEXAGON_INSTEAD},
    {"hexagon_lib_path", 0, HEXAGON_INSTEAD},
    {"use_coreml", 1, COREML_INSTEAD},
    {"coreml_version", 0, COREML_INSTEAD},
    {"external_delegate_path", 0, EXTERNAL_INSTEAD},
    {"external_delegate_options", 0, EXTERNAL_INSTEAD},
    {"stable_delegate_loader_settings", 0, EXTERNAL_INSTEAD},
    {"stable_delegate_settings_file", 0, EXTERNAL_INSTEAD},
    {"enable_platform_tracing", 1,
     "Android's systrace/Perfetto tracing; use --enable_op_profiling for per-partition times"},
    {"first_delegate_node_index", 0,
     "tflaccel partitions by support and cost; use --max_delegated_partitions or "
     "--min_nodes_per_partition"},
    {"last_delegate_node_index", 0,
     "tflaccel partitions by support and cost; use --max_delegated_partitions or "
     "--min_nodes_per_partition"},
};

int foreign_flag_match(const char *command, int argc, char **argv, int *index) {
  const char *argument = argv[*index];
  if (strncmp(argument, "--", 2) != 0) return 0;
  for (size_t i = 0; i < sizeof foreign_flags / sizeof foreign_flags[0]; ++i) {
    const foreign_flag *flag = &foreign_flags[i];
    size_t length = strlen(flag->name);
    if (strncmp(argument + 2, flag->name, length) != 0) continue;
    char end = argument[2 + length];
    if (end != '\0' && end != '=') continue;
    const char *value = end == '=' ? argument + 3 + length : NULL;
    if (value == NULL && *index + 1 < argc && argv[*index + 1][0] != '-') value = argv[*index + 1];
    if (flag->is_switch && value != NULL && (!strcmp(value, "false") || !strcmp(value, "0"))) {
      if (end != '=') ++*index;
      return 1;
    }
    fprintf(stderr, "%s: --%s is not supported here: %s\n", command, flag->name, flag->instead);
    return -1;
  }
  return 0;
}
