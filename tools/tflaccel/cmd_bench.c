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

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_memory.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/input_generator.h"
#include "tools/tflaccel/json_writer.h"
#include "tools/tflaccel/stats.h"

#define COMMAND "tflaccel bench"
#define PROGRESS_INTERVAL_US 2000000

typedef struct bench_options {
  cli_compile_flags compile;
  const char *model_path;
  long num_runs, warmup_runs;
  double min_secs, max_secs, warmup_min_secs;
  const char *json_path;
  int use_gpu;                /* -1: not given */
  const char *gpu_backend;    /* NULL: not given */
  int precision_loss_allowed; /* -1: not given */
  char accelerators[32];      /* what --use_gpu/--gpu_backend ask for */
} bench_options;

typedef struct bench_results {
  double model_size_mb; /* < 0 when the file size is unknown */
  int64_t init_us;
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
         "  --json FILE                  also write every figure to FILE as JSON\n"
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
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--json", &value)) != 0) {
    if (match < 0) return -1;
    options->json_path = value;
    return 1;
  }
  return 0;
}

/* Turns the TFLite spellings into tflaccel's accelerator list and precision. */
static int resolve_tflite_flags(bench_options *options) {
  int gpu_flags = options->use_gpu >= 0 || options->gpu_backend != NULL;
  if (gpu_flags && options->compile.accelerators != NULL) {
    fprintf(stderr, COMMAND ": give --accelerator or --use_gpu/--gpu_backend, not both\n");
    return 0;
  }
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
  return resolve_tflite_flags(options);
}

static const char *precision_name(int32_t precision) {
  if (precision == TFLACCEL_PRECISION_FP32) return "fp32";
  if (precision == TFLACCEL_PRECISION_FP16) return "fp16";
  return NULL;
}

static void print_parameters(const bench_options *options) {
  printf("Graph: [%s]\n", options->model_path);
  if (options->compile.accelerators) printf("Accelerators: [%s]\n", options->compile.accelerators);
  if (options->compile.precision >= 0)
    printf("Precision: [%s]\n", precision_name(options->compile.precision));
  if (options->compile.thread_count > 0)
    printf("Num threads: [%d]\n", (int)options->compile.thread_count);
  printf("Min num runs: [%ld]\n", options->num_runs);
  printf("Min runs duration (seconds): [%g]\n", options->min_secs);
  printf("Max runs duration (seconds): [%g]\n", options->max_secs);
  printf("Min warmup runs: [%ld]\n", options->warmup_runs);
  printf("Min warmup runs duration (seconds): [%g]\n", options->warmup_min_secs);
}

/* benchmark_model's loop: at least min_runs runs and min_secs seconds, but
 * no run starts after max_secs. A failed run ends it with that status. */
static tflaccel_status run_phase(const char *phase, tflaccel_compiled_model *compiled,
                                 const model_buffers *buffers, long min_runs, double min_secs,
                                 double max_secs, run_stats *stats) {
  printf("Running benchmark for at least %ld iterations and at least %g seconds but terminate "
         "if exceeding %g seconds.\n",
         min_runs, min_secs, max_secs);
  fflush(stdout);
  int64_t now = bench_clock_microseconds();
  int64_t min_finish = now + (int64_t)(min_secs * 1e6);
  int64_t max_finish = now + (int64_t)(max_secs * 1e6);
  int64_t last_progress = now;
  for (long run = 0; (run < min_runs || now < min_finish) && now <= max_finish; ++run) {
    int64_t start = bench_clock_microseconds();
    tflaccel_status status = model_buffers_run(compiled, buffers);
    int64_t end = bench_clock_microseconds();
    if (status != NULL) return tflaccel_status_annotate(status, "%s run %ld", phase, run + 1);
    status = run_stats_add(stats, (double)(end - start));
    if (status != NULL) return status;
    now = end;
    if (now - last_progress >= PROGRESS_INTERVAL_US) {
      if (run + 1 <= min_runs)
        fprintf(stderr, COMMAND ": %s run %ld/%ld\n", phase, run + 1, min_runs);
      else
        fprintf(stderr, COMMAND ": %s run %ld (past the %ld asked for, until %g s have passed)\n",
                phase, run + 1, min_runs, min_secs);
      last_progress = now;
    }
  }
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
  fprintf(out, ",\n  \"init_us\": %lld, \"first_us\": ", (long long)results->init_us);
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

static tflaccel_status fill_inputs(const model_buffers *buffers) {
  input_generator generator;
  input_generator_init(&generator, 1);
  for (uint32_t i = 0; i < buffers->input_count; ++i) {
    tflaccel_tensor_buffer *input = buffers->inputs[i];
    int32_t dtype = tflaccel_tensor_buffer_dtype(input);
    if (!input_generator_fill(&generator, dtype, tflaccel_tensor_buffer_data(input),
                              model_buffer_element_count(input)))
      return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "cannot generate %s input %u",
                                  tflaccel_dtype_name(dtype), i);
  }
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
  exit_code = 1;
  status = tflaccel_model_load_file(options.model_path, &model);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
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

  status = fill_inputs(&buffers);
  if (status == NULL)
    status = run_phase("warmup", compiled, &buffers, options.warmup_runs, options.warmup_min_secs,
                       options.max_secs, &results.warmup);
  if (status == NULL)
    status = run_phase("timed", compiled, &buffers, options.num_runs, options.min_secs,
                       options.max_secs, &results.inference);
  if (status != NULL) {
    fflush(stdout);
    report_status(status);
    goto cleanup;
  }
  if (results.memory_known && (status = process_memory_read(&results.at_end)) != NULL) {
    results.memory_known = 0;
    tflaccel_status_free(status);
  }
  print_summary(&results);
  op_placement_print(stdout, &results.placement);
  fflush(stdout);
  exit_code = 0;
  if (options.json_path != NULL &&
      (status = write_json(options.json_path, &options, &results)) != NULL)
    exit_code = report_status(status);

cleanup:
  op_placement_free(&results.placement);
  run_stats_free(&results.warmup);
  run_stats_free(&results.inference);
  model_buffers_destroy(&buffers);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
