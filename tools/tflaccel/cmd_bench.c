/* tflaccel bench MODEL: latency, start-up cost and memory of one model on
 * one accelerator selection, printed the way TFLite's benchmark_model prints
 * them, so that scripts and eyes used to it read it the same. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_device_io.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_memory.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/foreign_flags.h"
#include "tools/tflaccel/input_layers.h"
#include "tools/tflaccel/json_writer.h"
#include "tools/tflaccel/op_profile.h"
#include "tools/tflaccel/peak_memory_monitor.h"
#include "tools/tflaccel/stats.h"
#include "tools/tflaccel/tensor_state.h"
#include "tools/tflaccel/terminal_progress.h"

#define COMMAND "tflaccel bench"
/* Runs shorter than this show no progress line. */
#define PROGRESS_DELAY_US 3000000
#define XNNPACK_PLUGIN "cpu_xnnpack"

typedef struct bench_options {
  cli_compile_flags compile;
  const char *model_path;
  long num_runs, warmup_runs;
  double min_secs, max_secs, warmup_min_secs;
  const char *json_path;
  int use_gpu;                /* -1: not given */
  const char *gpu_backend;    /* NULL: not given */
  int precision_loss_allowed; /* -1: not given */
  char accelerators[64];      /* what --use_gpu/--gpu_backend/--use_xnnpack ask for */
  int use_xnnpack;            /* -1: not given */
  int xnnpack_force_fp16;
  /* Profiling and state listings. */
  int enable_op_profiling;
  const char *op_profiling_output_mode; /* "stdout" or "csv" */
  const char *profiling_output_csv_file;
  long max_profiling_buffer_entries;    /* accepted: the profile has no fixed buffer */
  int allow_dynamic_profiling_buffer_increase;
  int print_preinvoke_state, print_postinvoke_state;
  tensor_state_widths widths;
  int report_peak_memory_footprint;
  long memory_footprint_check_interval_ms;
  double run_delay, run_frequency; /* seconds, runs per second; <= 0: none */
  int dry_run, verbose;
  input_layer_flags input_layers;
  const char *delegate_serialize_dir, *delegate_serialize_token;
  const char *output_filepath;
  /* Accepted for scripts; tflaccel behaves this way anyway. */
  int gpu_experimental_enable_quant, gpu_inference_for_sustained_speed;
  const char *gpu_wait_type;
  int release_dynamic_tensors;
  long optimize_memory_for_large_tensors;
  const char *benchmark_name, *output_prefix;
  /* Device buffers and asynchronous runs (bench_device_io.h). */
  int io_device;      /* --io=device */
  int async;          /* --async */
  double cpu_work_us; /* --cpu_work_us: CPU work per frame */
} bench_options;

typedef struct bench_results {
  double model_size_mb; /* < 0 when the file size is unknown */
  int64_t init_us;
  int64_t load_us; /* of init: reading and preparing the model */
  run_stats warmup, inference;
  int memory_known;
  process_memory at_start, after_init, at_end;
  op_placement placement;
  const char *selection;
  int32_t precision;    /* as compiled, config defaults applied */
  int32_t thread_count;
} bench_results;

static void print_help(void) {
  printf("usage: tflaccel bench [--graph=]MODEL [options]\n"
         "Times MODEL like TFLite's benchmark_model: start-up, first run, warm-up and timed\n"
         "runs, memory footprint, and where its ops run. Inputs come from the xorshift32\n"
         "generator (seed 1). Each timed run returns only when the outputs are ready.\n\n"
         "  --graph MODEL                the .tflite file (or give it as an argument)\n"
         "  --num_runs N                 timed runs, at least (default 50)\n"
         "  --min_secs S                 keep running until S seconds have passed (default 1)\n"
         "  --max_secs S                 start no run after S seconds (default 150)\n"
         "  --warmup_runs N              untimed runs first, at least (default 1)\n"
         "  --warmup_min_secs S          warm up for at least S seconds (default 0.5)\n"
         "  --num_threads N              CPU threads (same as --threads; -1: config)\n"
         "  --use_gpu=true|false         true: accelerators gpu,cpu_ref; false: cpu_ref\n"
         "  --gpu_backend=cl|gl|vk       one GPU plugin (gpu_cl, gpu_gl, gpu_vk), then cpu_ref\n"
         "  --gpu_precision_loss_allowed=true|false  fp16 or fp32 (default: config, fp32,\n"
         "                               where benchmark_model defaults to fp16 on the GPU)\n"
         "  --use_xnnpack=true|false     true: the cpu_xnnpack plugin for what the GPU does not run\n"
         "  --xnnpack_force_fp16         with --use_xnnpack: fp16 arithmetic\n"
         "  --json FILE                  also write every figure to FILE as JSON\n"
         "  --run_delay S                sleep S seconds between runs (default -1: none)\n"
         "  --run_frequency F            start F runs a second, overriding --run_delay\n"
         "  --enable_op_profiling        after the timings, TFLite's per-node tables: each cpu_ref op\n"
         "                               and each accelerator partition is a node; beneath a\n"
         "                               partition its ops, and a GPU plugin's kernels with their\n"
         "                               GPU times (the plugins' timers are switched on)\n"
         "  --op_profiling_output_mode stdout|csv  how the tables are printed\n"
         "  --profiling_output_csv_file FILE  write the tables to FILE as CSV\n"
         "  --print_preinvoke_state      list tensors, sizes and where they live before the runs\n"
         "  --print_postinvoke_state     the same after the runs\n"
         "  --tensor_name_display_length N, --tensor_type_display_length N,\n"
         "  --alloc_type_display_length N  column widths of those listings\n"
         "  --report_peak_memory_footprint  sample resident memory in a thread, report the peak\n"
         "  --memory_footprint_check_interval_ms N  its interval (default 50)\n"
         "  --input_layer A,B            names of all inputs, in order\n"
         "  --input_layer_shape 1,2:3    their shapes (must be the stored ones)\n"
         "  --input_layer_value_range A,LOW,HIGH:...  uniform integers in [LOW, HIGH]\n"
         "  --input_layer_value_files A:FILE,...  raw input bytes ('::' for ':' in a name)\n"
         "  --output_filepath FILE       write the last run's outputs to FILE, raw, in order\n"
         "  --io=host|device             device: inputs and outputs in the accelerator's own\n"
         "                               buffers (no host copy in the timed runs); an input or\n"
         "                               output that takes host buffers only is an error\n"
         "  --async                      queue frames with run_async back to back, each frame's\n"
         "                               output events waited on one frame later; a run's time is\n"
         "                               then the frame period\n"
         "  --cpu_work_us N              keep the CPU busy N us per frame (between queueing and\n"
         "                               waiting with --async), as a pipeline's own work would\n"
         "  --min_nodes_per_partition N  smallest accelerator partition (min_partition_ops)\n"
         "  --delegate_serialize_dir DIR  compiled-model cache directory (cache_dir)\n"
         "  --delegate_serialize_token T  the model's token in it (default: SHA-256 of the model)\n"
         "  --dry_run                    load and compile, but run no op\n"
         "  --verbose                    print every parameter, given or not\n"
         "  --gpu_experimental_enable_quant, --gpu_inference_for_sustained_speed, --gpu_wait_type,\n"
         "  --release_dynamic_tensors, --optimize_memory_for_large_tensors,\n"
         "  --max_profiling_buffer_entries, --allow_dynamic_profiling_buffer_increase,\n"
         "  --benchmark_name, --output_prefix  accepted; tflaccel already behaves that way\n"
         "NNAPI, Hexagon, Core ML and external-delegate flags get one line saying what to use.\n"
         "%s",
         cli_compile_flags_help());
}

/* "--name N" as a count of runs: 1 matched, 0 another flag, -1 bad (printed). */
static int match_count(int argc, char **argv, int *index, const char *name, long *out) {
  const char *value = NULL;
  int match = cli_match_value(COMMAND, argc, argv, index, name, &value);
  if (match <= 0) return match;
  return cli_parse_int(COMMAND, name, value, 0, 1000000000L, out) ? 1 : -1;
}

/* "--name S" as seconds, >= 0; returns like match_count. */
static int match_seconds(int argc, char **argv, int *index, const char *name, double *out) {
  const char *value = NULL;
  int match = cli_match_value(COMMAND, argc, argv, index, name, &value);
  if (match <= 0) return match;
  return bench_parse_number(COMMAND, name, value, 1, out) ? 1 : -1;
}

/* "--name VALUE" as text; returns like match_count. */
static int match_text(int argc, char **argv, int *index, const char *name, const char **out) {
  int match = cli_match_value(COMMAND, argc, argv, index, name, out);
  return match;
}

/* "--name VALUE" where VALUE is one of `choices` (NULL-terminated). */
static int match_choice(int argc, char **argv, int *index, const char *name,
                        const char *const *choices, const char **out) {
  const char *value = NULL;
  int match = cli_match_value(COMMAND, argc, argv, index, name, &value);
  if (match <= 0) return match;
  for (const char *const *choice = choices; *choice; ++choice)
    if (!strcmp(value, *choice)) {
      *out = value;
      return 1;
    }
  fprintf(stderr, COMMAND ": %s must be one of", name);
  for (const char *const *choice = choices; *choice; ++choice)
    fprintf(stderr, "%s %s", choice == choices ? "" : ",", *choice);
  fprintf(stderr, ", not '%s'\n", value);
  return -1;
}

/* "--name N" as a whole number in [minimum, maximum]. */
static int match_int(int argc, char **argv, int *index, const char *name, long minimum,
                     long maximum, long *out) {
  const char *value = NULL;
  int match = cli_match_value(COMMAND, argc, argv, index, name, &value);
  if (match <= 0) return match;
  return cli_parse_int(COMMAND, name, value, minimum, maximum, out) ? 1 : -1;
}

/* "--name X" as a number (negative allowed: TFLite's "-1 = off"). */
static int match_real(int argc, char **argv, int *index, const char *name, double *out) {
  const char *value = NULL;
  int match = cli_match_value(COMMAND, argc, argv, index, name, &value);
  if (match <= 0) return match;
  return bench_parse_number(COMMAND, name, value, 0, out) ? 1 : -1;
}

/* benchmark_model's flags beyond the timing loop and the GPU choice. */
static int parse_tflite_flag(int argc, char **argv, int *index, bench_options *options) {
  static const char *const output_modes[] = {"stdout", "csv", NULL};
  static const char *const wait_types[] = {"passive", "active", "do_not_wait", "aggressive", NULL};
  int match;
  long number;
#define BOOL_FLAG(name, field) \
  if ((match = bench_match_bool(COMMAND, argc, argv, index, name, &options->field)) != 0) return match
#define TEXT_FLAG(name, field) \
  if ((match = match_text(argc, argv, index, name, &options->field)) != 0) return match
#define INT_FLAG(name, minimum, maximum, field) \
  if ((match = match_int(argc, argv, index, name, minimum, maximum, &options->field)) != 0) \
    return match
  BOOL_FLAG("--enable_op_profiling", enable_op_profiling);
  if ((match = match_choice(argc, argv, index, "--op_profiling_output_mode", output_modes,
                            &options->op_profiling_output_mode)) != 0)
    return match;
  TEXT_FLAG("--profiling_output_csv_file", profiling_output_csv_file);
  INT_FLAG("--max_profiling_buffer_entries", 0, 1000000000L, max_profiling_buffer_entries);
  BOOL_FLAG("--allow_dynamic_profiling_buffer_increase", allow_dynamic_profiling_buffer_increase);
  BOOL_FLAG("--print_preinvoke_state", print_preinvoke_state);
  BOOL_FLAG("--print_postinvoke_state", print_postinvoke_state);
  if ((match = match_int(argc, argv, index, "--tensor_name_display_length", 1, 1000, &number)) != 0) {
    if (match > 0) options->widths.name = (int)number;
    return match;
  }
  if ((match = match_int(argc, argv, index, "--tensor_type_display_length", 1, 1000, &number)) != 0) {
    if (match > 0) options->widths.type = (int)number;
    return match;
  }
  if ((match = match_int(argc, argv, index, "--alloc_type_display_length", 1, 1000, &number)) != 0) {
    if (match > 0) options->widths.storage = (int)number;
    return match;
  }
  BOOL_FLAG("--report_peak_memory_footprint", report_peak_memory_footprint);
  INT_FLAG("--memory_footprint_check_interval_ms", 1, 3600000L, memory_footprint_check_interval_ms);
  if ((match = match_real(argc, argv, index, "--run_delay", &options->run_delay)) != 0) return match;
  if ((match = match_real(argc, argv, index, "--run_frequency", &options->run_frequency)) != 0)
    return match;
  BOOL_FLAG("--dry_run", dry_run);
  BOOL_FLAG("--verbose", verbose);
  TEXT_FLAG("--input_layer", input_layers.names);
  TEXT_FLAG("--input_layer_shape", input_layers.shapes);
  TEXT_FLAG("--input_layer_value_range", input_layers.value_ranges);
  TEXT_FLAG("--input_layer_value_files", input_layers.value_files);
  TEXT_FLAG("--output_filepath", output_filepath);
  if ((match = match_int(argc, argv, index, "--min_nodes_per_partition", 0, 1000000, &number)) != 0) {
    if (match > 0) options->compile.min_partition_ops = number > 0 ? (int32_t)number : 1;
    return match;
  }
  TEXT_FLAG("--delegate_serialize_dir", delegate_serialize_dir);
  TEXT_FLAG("--delegate_serialize_token", delegate_serialize_token);
  BOOL_FLAG("--use_xnnpack", use_xnnpack);
  BOOL_FLAG("--xnnpack_force_fp16", xnnpack_force_fp16);
  BOOL_FLAG("--gpu_experimental_enable_quant", gpu_experimental_enable_quant);
  BOOL_FLAG("--gpu_inference_for_sustained_speed", gpu_inference_for_sustained_speed);
  if ((match = match_choice(argc, argv, index, "--gpu_wait_type", wait_types,
                            &options->gpu_wait_type)) != 0)
    return match;
  BOOL_FLAG("--release_dynamic_tensors", release_dynamic_tensors);
  INT_FLAG("--optimize_memory_for_large_tensors", 0, 1000000000L, optimize_memory_for_large_tensors);
  TEXT_FLAG("--benchmark_name", benchmark_name);
  TEXT_FLAG("--output_prefix", output_prefix);
#undef BOOL_FLAG
#undef TEXT_FLAG
#undef INT_FLAG
  return foreign_flag_match(COMMAND, argc, argv, index);
}

/* 1: handled, 0: not one of bench's own flags, -1: bad (message printed). */
static int parse_bench_flag(int argc, char **argv, int *index, void *untyped_options) {
  bench_options *options = untyped_options;
  const char *value = NULL;
  int match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--graph", &value)) != 0)
    return match < 0 || !bench_set_model(COMMAND, &options->model_path, value) ? -1 : 1;
  if ((match = match_count(argc, argv, index, "--num_runs", &options->num_runs)) != 0) return match;
  if ((match = match_count(argc, argv, index, "--warmup_runs", &options->warmup_runs)) != 0)
    return match;
  if ((match = match_seconds(argc, argv, index, "--min_secs", &options->min_secs)) != 0)
    return match;
  if ((match = match_seconds(argc, argv, index, "--max_secs", &options->max_secs)) != 0)
    return match;
  if ((match = match_seconds(argc, argv, index, "--warmup_min_secs", &options->warmup_min_secs)) !=
      0)
    return match;
  if ((match = bench_match_num_threads(COMMAND, argc, argv, index,
                                       &options->compile.thread_count)) != 0)
    return match;
  if ((match = bench_match_bool(COMMAND, argc, argv, index, "--use_gpu", &options->use_gpu)) != 0)
    return match;
  if ((match = bench_match_bool(COMMAND, argc, argv, index, "--gpu_precision_loss_allowed",
                                &options->precision_loss_allowed)) != 0)
    return match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--gpu_backend", &value)) != 0) {
    if (match < 0) return -1;
    if (strcmp(value, "cl") != 0 && strcmp(value, "gl") != 0 && strcmp(value, "vk") != 0) {
      fprintf(stderr, COMMAND ": --gpu_backend must be cl, gl or vk, not '%s'\n", value);
      return -1;
    }
    options->gpu_backend = value;
    return 1;
  }
  if ((match = bench_match_io(COMMAND, argc, argv, index, &options->io_device)) != 0) return match;
  if ((match = bench_match_bool(COMMAND, argc, argv, index, "--async", &options->async)) != 0)
    return match;
  if ((match = match_seconds(argc, argv, index, "--cpu_work_us", &options->cpu_work_us)) != 0)
    return match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--json", &value)) != 0) {
    if (match < 0) return -1;
    options->json_path = value;
    return 1;
  }
  return parse_tflite_flag(argc, argv, index, options);
}

/* TFLite's serialization flags on tflaccel's compiled-model cache:
 * --delegate_serialize_dir is the cache_dir (made when its parent exists;
 * an unusable one turns the cache off with a warning, as the ini's does),
 * --delegate_serialize_token the model token the cache keys the model's
 * entries by (instead of the SHA-256 of its bytes). */
static int resolve_cache_dir(bench_options *options) {
  if (options->delegate_serialize_token != NULL && options->delegate_serialize_dir == NULL) {
    fprintf(stderr, COMMAND ": --delegate_serialize_token needs --delegate_serialize_dir\n");
    return 0;
  }
  if (options->delegate_serialize_dir == NULL) return 1;
  options->compile.cache_dir = options->delegate_serialize_dir;
  options->compile.model_token = options->delegate_serialize_token;
  return 1;
}

/* Turns the TFLite spellings into tflaccel's accelerator list and precision. */
static int resolve_tflite_flags(bench_options *options) {
  int gpu_flags = options->use_gpu >= 0 || options->gpu_backend != NULL;
  if ((gpu_flags || options->use_xnnpack >= 0) && options->compile.accelerators != NULL) {
    fprintf(stderr, COMMAND ": give --accelerator or --use_gpu/--gpu_backend/--use_xnnpack, not "
                    "both\n");
    return 0;
  }
  if (options->gpu_experimental_enable_quant == 0) {
    fprintf(stderr, COMMAND ": --gpu_experimental_enable_quant=false is not supported: the GPU "
                    "plugins run every quantized op they support; use --accelerator=cpu_ref to "
                    "keep quantized models on the CPU\n");
    return 0;
  }
  if (options->profiling_output_csv_file != NULL && !options->enable_op_profiling) {
    fprintf(stderr, COMMAND ": --profiling_output_csv_file needs --enable_op_profiling\n");
    return 0;
  }
  if (!resolve_cache_dir(options)) return 0;
  /* Each cpu_ref op its own partition, so that the profile times each op. */
  if (options->enable_op_profiling) options->compile.split_fallback_ops = 1;
  /* And accelerators time their kernels, listed beneath their partition. */
  if (options->enable_op_profiling) options->compile.profile_kernels = 1;
  if (options->gpu_backend != NULL) {
    if (options->use_gpu == 0) {
      fprintf(stderr, COMMAND ": --gpu_backend=%s needs the GPU, but --use_gpu=false\n",
              options->gpu_backend);
      return 0;
    }
    snprintf(options->accelerators, sizeof options->accelerators, "gpu_%s,cpu_ref",
             options->gpu_backend);
    options->compile.accelerators = options->accelerators;
  } else if (options->use_gpu >= 0) {
    options->compile.accelerators = options->use_gpu ? "gpu,cpu_ref" : "cpu_ref";
  }
  if (options->use_xnnpack > 0) {
    /* XNNPACK takes what the GPU (if asked for) does not; cpu_ref the rest. */
    const char *gpu = options->gpu_backend ? options->accelerators
                      : options->use_gpu > 0 ? "gpu,cpu_ref" : "cpu_ref";
    char list[sizeof options->accelerators];
    snprintf(list, sizeof list, "%.*s" XNNPACK_PLUGIN ",cpu_ref",
             (int)(strlen(gpu) - strlen("cpu_ref")), gpu);
    memcpy(options->accelerators, list, sizeof list);
    options->compile.accelerators = options->accelerators;
    if (options->xnnpack_force_fp16) {
      if (options->compile.precision == TFLACCEL_PRECISION_FP32 ||
          options->precision_loss_allowed == 0) {
        fprintf(stderr, COMMAND ": --xnnpack_force_fp16 and fp32 precision disagree\n");
        return 0;
      }
      options->compile.precision = TFLACCEL_PRECISION_FP16;
    }
  } else if (options->xnnpack_force_fp16) {
    fprintf(stderr, COMMAND ": --xnnpack_force_fp16 needs --use_xnnpack=true\n");
    return 0;
  }
  if (options->precision_loss_allowed >= 0) {
    int32_t wanted =
        options->precision_loss_allowed ? TFLACCEL_PRECISION_FP16 : TFLACCEL_PRECISION_FP32;
    if (options->compile.precision >= 0 && options->compile.precision != wanted) {
      fprintf(stderr, COMMAND ": --precision and --gpu_precision_loss_allowed=%s disagree\n",
              options->precision_loss_allowed ? "true" : "false");
      return 0;
    }
    options->compile.precision = wanted;
  }
  return 1;
}

/* 1: go on; 0: end with *exit_code (0 after --help, 2 on bad usage). */
static int parse_arguments(int argc, char **argv, bench_options *options, int *exit_code) {
  const bench_command_line line = {COMMAND,
                                   "tflaccel bench [--graph=]MODEL [options]",
                                   print_help,
                                   parse_bench_flag,
                                   options,
                                   &options->compile,
                                   &options->model_path};
  if (!bench_parse_command_line(&line, argc, argv, exit_code)) return 0;
  if (!resolve_tflite_flags(options)) return 0;
  if (options->use_xnnpack > 0 &&
      !cli_require_plugin(COMMAND, "--use_xnnpack", &options->compile, XNNPACK_PLUGIN)) {
    *exit_code = 1;
    return 0;
  }
  return 1;
}

static const char *precision_name(int32_t precision) {
  if (precision == TFLACCEL_PRECISION_FP32) return "fp32";
  if (precision == TFLACCEL_PRECISION_FP16) return "fp16";
  return NULL;
}

static void print_parameters(const bench_options *options) {
  int all = options->verbose;
  printf("Graph: [%s]\n", options->model_path);
  if (all || options->compile.accelerators)
    printf("Accelerators: [%s]\n", options->compile.accelerators ? options->compile.accelerators : "");
  if (all || options->compile.precision >= 0)
    printf("Precision: [%s]\n", options->compile.precision >= 0
                                     ? precision_name(options->compile.precision)
                                     : "");
  if (all || options->compile.thread_count > 0)
    printf("Num threads: [%d]\n", (int)options->compile.thread_count);
  printf("Min num runs: [%ld]\n", options->num_runs);
  printf("Min runs duration (seconds): [%g]\n", options->min_secs);
  printf("Max runs duration (seconds): [%g]\n", options->max_secs);
  printf("Min warmup runs: [%ld]\n", options->warmup_runs);
  printf("Min warmup runs duration (seconds): [%g]\n", options->warmup_min_secs);
  if (all) printf("Log parameter values verbosely: [1]\n");
#define SHOW_BOOL(label, value, given) \
  if (all || (given)) printf(label ": [%d]\n", (value) > 0)
#define SHOW_TEXT(label, value) \
  if (all || (value) != NULL) printf(label ": [%s]\n", (value) ? (value) : "")
#define SHOW_REAL(label, value, given) \
  if (all || (given)) printf(label ": [%g]\n", (value))
  SHOW_REAL("Inter-run delay (seconds)", options->run_delay, options->run_delay != -1.0);
  SHOW_REAL("Number of prorated runs per second", options->run_frequency,
            options->run_frequency != -1.0);
  SHOW_BOOL("Enable op profiling", options->enable_op_profiling, options->enable_op_profiling);
  SHOW_TEXT("Op profiling output mode", options->op_profiling_output_mode);
  SHOW_TEXT("CSV File to export profiling data to", options->profiling_output_csv_file);
  SHOW_BOOL("Print pre-invoke interpreter state", options->print_preinvoke_state,
            options->print_preinvoke_state);
  SHOW_BOOL("Print post-invoke interpreter state", options->print_postinvoke_state,
            options->print_postinvoke_state);
  SHOW_BOOL("Report the peak memory footprint", options->report_peak_memory_footprint,
            options->report_peak_memory_footprint);
  if (all || options->report_peak_memory_footprint)
    printf("Memory footprint check interval (ms): [%ld]\n",
           options->memory_footprint_check_interval_ms);
  SHOW_BOOL("Run w/o invoking kernels", options->dry_run, options->dry_run);
  SHOW_TEXT("Input layers", options->input_layers.names);
  SHOW_TEXT("Input shapes", options->input_layers.shapes);
  SHOW_TEXT("Input value ranges", options->input_layers.value_ranges);
  SHOW_TEXT("Input value files", options->input_layers.value_files);
  SHOW_TEXT("File path to export outputs layer to", options->output_filepath);
  if (all || options->compile.min_partition_ops >= 0)
    printf("Min nodes per partition: [%d]\n", (int)options->compile.min_partition_ops);
  SHOW_TEXT("Delegate serialize directory", options->delegate_serialize_dir);
  SHOW_TEXT("Delegate serialize token", options->delegate_serialize_token);
  SHOW_BOOL("Use xnnpack", options->use_xnnpack, options->use_xnnpack >= 0);
  SHOW_BOOL("Force fp16 inference with xnnpack", options->xnnpack_force_fp16,
            options->xnnpack_force_fp16);
  SHOW_BOOL("Enable running quant models in GPU delegate",
            options->gpu_experimental_enable_quant, options->gpu_experimental_enable_quant >= 0);
  SHOW_BOOL("Prefer maximizing the throughput in GPU delegate",
            options->gpu_inference_for_sustained_speed,
            options->gpu_inference_for_sustained_speed > 0);
  SHOW_TEXT("GPU delegate wait type (every tflaccel run waits for its outputs)",
            options->gpu_wait_type);
  SHOW_TEXT("Benchmark name", options->benchmark_name);
  SHOW_TEXT("Output prefix", options->output_prefix);
  if (all) {
    printf("Max profiling buffer entries: [%ld]\n", options->max_profiling_buffer_entries);
    printf("Allow dynamic increase on profiling buffer entries: [%d]\n",
           options->allow_dynamic_profiling_buffer_increase > 0);
    printf("Release dynamic tensor memory: [%d]\n", options->release_dynamic_tensors > 0);
    printf("Optimize memory usage for large tensors: [%ld]\n",
           options->optimize_memory_for_large_tensors);
    printf("Use gpu: [%d]\n", options->use_gpu > 0);
    printf("GPU backend: [%s]\n", options->gpu_backend ? options->gpu_backend : "");
    printf("Config file: [%s]\n", options->compile.config_path ? options->compile.config_path : "");
    printf("Max number of delegated partitions: [%d]\n",
           (int)options->compile.max_delegated_partitions);
    printf("Require full delegation: [%d]\n", options->compile.require_full_delegation > 0);
    printf("JSON output file: [%s]\n", options->json_path ? options->json_path : "");
  }
#undef SHOW_BOOL
#undef SHOW_TEXT
#undef SHOW_REAL
}

/* How one phase runs: the loop's bounds and what happens between runs. */
typedef struct phase_plan {
  const char *name; /* "warmup" or "timed" */
  long min_runs;
  double min_secs, max_secs;
  double run_delay, run_frequency; /* seconds, runs a second; <= 0: none */
  int dry_run;                     /* time the loop, run nothing */
  op_profile *profile;             /* NULL: not profiled */
  int async;                       /* frames through run_async (bench_async_frame) */
  double cpu_work_us;              /* CPU work per frame */
  double wall_us;                  /* out: the phase's duration */
} phase_plan;

static void sleep_microseconds(int64_t microseconds) {
  if (microseconds <= 0) return;
  struct timespec pause = {.tv_sec = (time_t)(microseconds / 1000000),
                           .tv_nsec = (long)(microseconds % 1000000) * 1000};
  while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}

/* benchmark_model's loop: at least min_runs runs and min_secs seconds, but
 * no run starts after max_secs. With --run_frequency, run k starts at
 * k/frequency seconds (at once when behind); else --run_delay sleeps
 * between runs. A failed run ends it with that status. */
static tflaccel_status run_phase(phase_plan *plan, tflaccel_compiled_model *compiled,
                                 const model_buffers *buffers, run_stats *stats) {
  printf("Running benchmark for at least %ld iterations and at least %g seconds but terminate "
         "if exceeding %g seconds.\n",
         plan->min_runs, plan->min_secs, plan->max_secs);
  fflush(stdout);
  int64_t begin = bench_clock_microseconds(), now = begin;
  int64_t min_finish = now + (int64_t)(plan->min_secs * 1e6);
  int64_t max_finish = now + (int64_t)(plan->max_secs * 1e6);
  terminal_progress progress;
  terminal_progress_start(&progress, PROGRESS_DELAY_US);
  char label[64];
  snprintf(label, sizeof label, COMMAND ": %s runs", plan->name);
  /* --async: the previous frame's output events, waited on one frame later. */
  tflaccel_tensor_event *pending[BENCH_ASYNC_MAX_OUTPUTS] = {0};
  for (long run = 0; (run < plan->min_runs || now < min_finish) && now <= max_finish; ++run) {
    if (run > 0 && plan->run_frequency > 0)
      sleep_microseconds(begin + (int64_t)((double)run * 1e6 / plan->run_frequency) -
                         bench_clock_microseconds());
    else if (run > 0 && plan->run_delay > 0)
      sleep_microseconds((int64_t)(plan->run_delay * 1e6));
    int64_t start = bench_clock_microseconds();
    tflaccel_status status = NULL;
    if (plan->async && !plan->dry_run) {
      status = bench_async_frame(compiled, buffers, plan->cpu_work_us, pending, 0);
    } else {
      bench_cpu_work(plan->cpu_work_us);
      if (!plan->dry_run) status = model_buffers_run(compiled, buffers);
    }
    int64_t end = bench_clock_microseconds();
    if (status == NULL && plan->profile != NULL && !plan->dry_run)
      status = op_profile_add_run(plan->profile, compiled);
    if (status != NULL) {
      terminal_progress_finish(&progress);
      if (plan->async) tflaccel_status_free(bench_async_frame(compiled, buffers, 0, pending, 1));
      return tflaccel_status_annotate(status, "%s run %ld", plan->name, run + 1);
    }
    status = run_stats_add(stats, (double)(end - start));
    if (status != NULL) {
      terminal_progress_finish(&progress);
      if (plan->async) tflaccel_status_free(bench_async_frame(compiled, buffers, 0, pending, 1));
      return status;
    }
    now = end;
    /* The bar counts the runs asked for; past them it counts on. */
    terminal_progress_update(&progress, label, run + 1, run + 1 <= plan->min_runs ? plan->min_runs : 0);
  }
  if (plan->async && !plan->dry_run) {
    tflaccel_status status = bench_async_frame(compiled, buffers, 0, pending, 1);
    if (status != NULL) {
      terminal_progress_finish(&progress);
      return tflaccel_status_annotate(status, "%s: the last frame", plan->name);
    }
  }
  plan->wall_us = (double)(bench_clock_microseconds() - begin);
  terminal_progress_finish(&progress);
  run_stats_print_line(stdout, stats);
  fputs("\n\n", stdout);
  return NULL;
}

static double kb_to_mb(int64_t kb) { return (double)kb / 1024.0; }

static void print_summary(bench_results *results) {
  printf("Inference timings in us: Init: %lld, First inference: %.0f, Warmup (avg): %g, "
         "Inference (avg): %g\n",
         (long long)results->init_us, results->warmup.count ? results->warmup.first : 0.0,
         run_stats_average(&results->warmup), run_stats_average(&results->inference));
  if (!results->memory_known) return;
  printf("Note: the tool's own allocations count too, so the memory figures only approximate "
         "the model's footprint.\n");
  /* Like benchmark_model, deltas of the peak resident size (ru_maxrss). */
  printf("Memory footprint delta from the start of the tool (MB): init=%g overall=%g\n",
         kb_to_mb(results->after_init.peak_resident_kb - results->at_start.peak_resident_kb),
         kb_to_mb(results->at_end.peak_resident_kb - results->at_start.peak_resident_kb));
  printf("Peak resident memory (MB): %g\n", kb_to_mb(results->at_end.peak_resident_kb));
}

static void json_number(FILE *out, double value) {
  if (isfinite(value))
    fprintf(out, "%.17g", value);
  else
    fputs("null", out);
}

static void json_stats(FILE *out, run_stats *stats) {
  fprintf(out, "{\"count\": %zu, \"first\": ", stats->count);
  json_number(out, stats->count ? stats->first : NAN);
  fputs(", \"curr\": ", out);
  json_number(out, stats->count ? stats->newest : NAN);
  fputs(", \"min\": ", out);
  json_number(out, stats->count ? stats->minimum : NAN);
  fputs(", \"max\": ", out);
  json_number(out, stats->count ? stats->maximum : NAN);
  fputs(", \"avg\": ", out);
  json_number(out, run_stats_average(stats));
  fputs(", \"std\": ", out);
  json_number(out, run_stats_std_deviation(stats));
  fputs(", \"median\": ", out);
  json_number(out, run_stats_median(stats));
  fputs(", \"samples\": [", out);
  for (size_t i = 0; i < stats->count; ++i)
    fprintf(out, "%s%.0f", i ? ", " : "", stats->samples[i]);
  fputs("]}", out);
}

static void json_memory(FILE *out, const bench_results *results) {
  if (!results->memory_known) {
    fputs("null", out);
    return;
  }
  fputs("{\"init_mb\": ", out);
  json_number(out,
              kb_to_mb(results->after_init.peak_resident_kb - results->at_start.peak_resident_kb));
  fputs(", \"overall_mb\": ", out);
  json_number(out, kb_to_mb(results->at_end.peak_resident_kb - results->at_start.peak_resident_kb));
  fputs(", \"peak_rss_mb\": ", out);
  json_number(out, kb_to_mb(results->at_end.peak_resident_kb));
  fputs(", \"start_rss_mb\": ", out);
  json_number(out, kb_to_mb(results->at_start.resident_kb));
  fputs(", \"final_rss_mb\": ", out);
  json_number(out, kb_to_mb(results->at_end.resident_kb));
  fputs("}", out);
}

static void json_placement(FILE *out, const op_placement *placement) {
  fprintf(out, "\"op_count\": %u, \"ops_delegated\": %u, \"partition_count\": %u,\n",
          placement->op_count, op_placement_delegated_ops(placement), placement->partition_count);
  fputs("  \"ops_per_accelerator\": [", out);
  for (uint32_t i = 0; i < placement->share_count; ++i) {
    fputs(i ? ", {\"accelerator\": " : "{\"accelerator\": ", out);
    json_write_string(out, placement->shares[i].accelerator);
    fprintf(out, ", \"ops\": %u, \"partitions\": %u}", placement->shares[i].op_count,
            placement->shares[i].partition_count);
  }
  fputs("],\n  \"partitions\": [", out);
  for (uint32_t i = 0; i < placement->partition_count; ++i) {
    fputs(i ? ", {\"accelerator\": " : "{\"accelerator\": ", out);
    json_write_string(out, placement->partition_accelerators[i]);
    fprintf(out, ", \"ops\": %u}", placement->partition_op_counts[i]);
  }
  fputs("]", out);
}

static tflaccel_status write_json(const char *path, const bench_options *options,
                                  bench_results *results) {
  FILE *out = fopen(path, "w");
  if (out == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot write %s: %s", path, strerror(errno));
  fputs("{\n  \"tool\": \"tflaccel bench\", \"version\": ", out);
  json_write_string(out, tflaccel_version());
  fputs(",\n  \"model\": ", out);
  json_write_string(out, options->model_path);
  fputs(", \"model_size_mb\": ", out);
  json_number(out, results->model_size_mb >= 0 ? results->model_size_mb : NAN);
  fputs(",\n  \"accelerators_requested\": ", out);
  json_write_string(out, options->compile.accelerators);
  fputs(", \"accelerators_selected\": ", out);
  json_write_string(out, results->selection);
  fputs(",\n  \"precision\": ", out);
  json_write_string(out, precision_name(results->precision));
  fprintf(out, ", \"threads\": %d", (int)results->thread_count);
  fputs(", \"max_delegated_partitions\": ", out);
  if (options->compile.max_delegated_partitions >= 0)
    fprintf(out, "%d", (int)options->compile.max_delegated_partitions);
  else
    fputs("null", out);
  fputs(", \"require_full_delegation\": ", out);
  if (options->compile.require_full_delegation >= 0)
    fputs(options->compile.require_full_delegation ? "true" : "false", out);
  else
    fputs("null", out);
  fprintf(out, ",\n  \"num_runs\": %ld, \"warmup_runs\": %ld, \"min_secs\": ", options->num_runs,
          options->warmup_runs);
  json_number(out, options->min_secs);
  fputs(", \"max_secs\": ", out);
  json_number(out, options->max_secs);
  fputs(", \"warmup_min_secs\": ", out);
  json_number(out, options->warmup_min_secs);
  fprintf(out, ",\n  \"init_us\": %lld, \"load_us\": %lld, \"first_us\": ",
          (long long)results->init_us, (long long)results->load_us);
  json_number(out, results->warmup.count ? results->warmup.first : NAN);
  fputs(", \"warmup_avg_us\": ", out);
  json_number(out, run_stats_average(&results->warmup));
  fputs(", \"inference_avg_us\": ", out);
  json_number(out, run_stats_average(&results->inference));
  fputs(", \"inference_median_us\": ", out);
  json_number(out, run_stats_median(&results->inference));
  fputs(",\n  \"warmup_us\": ", out);
  json_stats(out, &results->warmup);
  fputs(",\n  \"inference_us\": ", out);
  json_stats(out, &results->inference);
  fputs(",\n  \"memory\": ", out);
  json_memory(out, results);
  fputs(",\n  ", out);
  json_placement(out, &results->placement);
  fputs("\n}\n", out);
  int failed = ferror(out);
  if (fclose(out) != 0) failed = 1;
  if (failed) return tflaccel_status_make(TFLACCEL_IO_ERROR, "writing %s failed", path);
  return NULL;
}

static int report_status(tflaccel_status status) {
  fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
  tflaccel_status_free(status);
  return 1;
}

/* --output_filepath: every output's bytes, in order, as benchmark_model. */
static tflaccel_status write_outputs(const char *path, const model_buffers *buffers) {
  FILE *out = fopen(path, "wb");
  if (out == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot write %s: %s", path, strerror(errno));
  int failed = 0;
  tflaccel_tensor_buffer **host = NULL; /* the outputs' bytes, wherever they are */
  tflaccel_status status = bench_outputs_to_host(buffers, &host);
  if (status != NULL) {
    fclose(out);
    return status;
  }
  for (uint32_t i = 0; i < buffers->output_count && !failed; ++i) {
    size_t size = tflaccel_tensor_buffer_byte_size(host[i]);
    failed = fwrite(tflaccel_tensor_buffer_data(host[i]), 1, size, out) != size;
  }
  for (uint32_t i = 0; i < buffers->output_count; ++i) tflaccel_tensor_buffer_destroy(host[i]);
  free(host);
  if (fclose(out) != 0) failed = 1;
  if (failed) return tflaccel_status_make(TFLACCEL_IO_ERROR, "writing %s failed", path);
  return NULL;
}

/* The op profile, on stdout (as a table or CSV) and/or in the CSV file. */
static tflaccel_status report_profile(const bench_options *options, op_profile *profile) {
  if (options->profiling_output_csv_file != NULL) {
    FILE *out = fopen(options->profiling_output_csv_file, "w");
    if (out == NULL)
      return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot write %s: %s",
                                  options->profiling_output_csv_file, strerror(errno));
    op_profile_print(out, profile, 1);
    int failed = ferror(out);
    if (fclose(out) != 0 || failed)
      return tflaccel_status_make(TFLACCEL_IO_ERROR, "writing %s failed",
                                  options->profiling_output_csv_file);
    return NULL;
  }
  int csv = options->op_profiling_output_mode && !strcmp(options->op_profiling_output_mode, "csv");
  op_profile_print(stdout, profile, csv);
  return NULL;
}

int tflaccel_cmd_bench(int argc, char **argv) {
  bench_options options = {
      .num_runs = 50,
      .warmup_runs = 1,
      .min_secs = 1.0,
      .max_secs = 150.0,
      .warmup_min_secs = 0.5,
      .use_gpu = -1,
      .precision_loss_allowed = -1,
      .use_xnnpack = -1,
      .gpu_experimental_enable_quant = -1,
      .gpu_inference_for_sustained_speed = -1,
      .max_profiling_buffer_entries = 1024,
      .widths = {25, 15, 18},
      .memory_footprint_check_interval_ms = 50,
      .run_delay = -1.0,
      .run_frequency = -1.0,
  };
  cli_compile_flags_init(&options.compile);
  int exit_code = 2;
  if (!parse_arguments(argc, argv, &options, &exit_code)) return exit_code;

  print_parameters(&options);
  fflush(stdout);
  bench_results results = {.model_size_mb = -1.0};
  run_stats_init(&results.warmup);
  run_stats_init(&results.inference);
  struct stat file_stat;
  if (stat(options.model_path, &file_stat) == 0)
    results.model_size_mb = (double)file_stat.st_size / 1e6;

  tflaccel_status status = process_memory_read(&results.at_start);
  results.memory_known = status == NULL;
  if (status != NULL) {
    fprintf(stderr, COMMAND ": no memory figures: %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
  }
  int64_t init_start = bench_clock_microseconds();
  tflaccel_model *model = NULL;
  tflaccel_environment *environment = NULL;
  tflaccel_compiled_model *compiled = NULL;
  model_buffers buffers = {0};
  op_profile profile = {0};
  peak_memory_monitor monitor = {0};
  exit_code = 1;
  status = tflaccel_model_load_file(options.model_path, &model);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  results.load_us = bench_clock_microseconds() - init_start;
  if (!cli_compile(COMMAND, &options.compile, model, &environment, &compiled)) goto cleanup;
  status = model_buffers_create(compiled, &buffers);
  if (status == NULL) status = op_placement_collect(compiled, &results.placement);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  results.init_us = bench_clock_microseconds() - init_start;
  if (results.memory_known && (status = process_memory_read(&results.after_init)) != NULL) {
    results.memory_known = 0;
    tflaccel_status_free(status);
  }
  results.selection = tflaccel_environment_selection(environment);
  results.precision = tflaccel_compiled_model_precision(compiled);
  results.thread_count = tflaccel_compiled_model_thread_count(compiled);

  if (results.model_size_mb >= 0)
    printf("The input model file size (MB): %g\n", results.model_size_mb);
  else
    printf("Failed to get the input model file size.\n");
  printf("Initialized session in %gms.\n", (double)results.init_us / 1e3);
  printf("Selected accelerators: [%s]\n", results.selection ? results.selection : "");

  status = input_layers_fill(&options.input_layers, compiled, &buffers);
  char device_io[160] = "";
  if (status == NULL && options.io_device)
    status = bench_buffers_to_device(compiled, &buffers, device_io, sizeof device_io);
  if (status == NULL)
    printf("Inputs and outputs: %s%s%s\n", options.io_device ? "device buffers (" : "host buffers",
           device_io, options.io_device ? ")" : "");
  if (status == NULL && (options.async || options.cpu_work_us > 0))
    printf("Frames: %s, CPU work per frame: %g us\n",
           options.async ? "queued with run_async, waited one frame later" : "synchronous runs",
           options.cpu_work_us);
  if (status == NULL && options.print_preinvoke_state) {
    printf("\n==== Pre-invoke state ====\n");
    status = tensor_state_print(stdout, compiled, &options.widths);
  }
  if (status == NULL && options.report_peak_memory_footprint)
    status = peak_memory_monitor_start(&monitor, options.memory_footprint_check_interval_ms);
  phase_plan warmup = {"warmup", options.warmup_runs, options.warmup_min_secs, options.max_secs,
                       options.run_delay, options.run_frequency, options.dry_run, NULL,
                       options.async, options.cpu_work_us, 0.0};
  phase_plan timed = {"timed", options.num_runs, options.min_secs, options.max_secs,
                      options.run_delay, options.run_frequency, options.dry_run, NULL,
                      options.async, options.cpu_work_us, 0.0};
  if (status == NULL) status = run_phase(&warmup, compiled, &buffers, &results.warmup);
  if (status == NULL && options.enable_op_profiling && (status = op_profile_create(compiled, &profile)) == NULL)
    timed.profile = &profile;
  if (status == NULL) status = run_phase(&timed, compiled, &buffers, &results.inference);
  int64_t peak_kb = peak_memory_monitor_stop(&monitor);
  if (status != NULL) {
    fflush(stdout);
    report_status(status);
    goto cleanup;
  }
  if (results.memory_known && (status = process_memory_read(&results.at_end)) != NULL) {
    results.memory_known = 0;
    tflaccel_status_free(status);
  }
  if (timed.profile != NULL && !options.dry_run)
    status = op_profile_read_kernels(&profile, compiled);
  if (status == NULL && timed.profile != NULL)
    status = report_profile(&options, &profile);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  print_summary(&results);
  if (!options.dry_run && timed.wall_us > 0)
    printf("Throughput: %.1f frames/s (%zu frames in %.3f s)\n",
           (double)results.inference.count * 1e6 / timed.wall_us, results.inference.count,
           timed.wall_us / 1e6);
  tflaccel_run_stats copies = {.struct_size = sizeof copies};
  if (!options.dry_run) {
    if ((status = tflaccel_compiled_model_last_run_stats(compiled, &copies)) == NULL)
      printf("Host copies per run: %u (%llu bytes)\n", copies.host_copies,
             (unsigned long long)copies.host_copy_bytes);
    tflaccel_status_free(status);
    status = NULL;
  }
  if (options.report_peak_memory_footprint) {
    if (peak_kb >= 0)
      printf("Overall peak memory footprint (MB) via periodic monitoring: %g\n", kb_to_mb(peak_kb));
    else
      printf("Overall peak memory footprint (MB) via periodic monitoring: unknown\n");
  }
  op_placement_print(stdout, &results.placement);
  if (options.print_postinvoke_state) {
    printf("\n==== Post-invoke state ====\n");
    if ((status = tensor_state_print(stdout, compiled, &options.widths)) != NULL) {
      report_status(status);
      goto cleanup;
    }
  }
  fflush(stdout);
  if (options.output_filepath != NULL && !options.dry_run &&
      (status = write_outputs(options.output_filepath, &buffers)) != NULL) {
    report_status(status);
    goto cleanup;
  }
  exit_code = 0;
  if (options.json_path != NULL &&
      (status = write_json(options.json_path, &options, &results)) != NULL)
    exit_code = report_status(status);

cleanup:
  peak_memory_monitor_stop(&monitor);
  op_profile_free(&profile);
  op_placement_free(&results.placement);
  run_stats_free(&results.warmup);
  run_stats_free(&results.inference);
  model_buffers_destroy(&buffers);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
