/* tflaccel diff MODEL: how far an accelerator's outputs stray from cpu_ref
 * on one thread in fp32, printed the way TFLite's inference_diff prints it.
 * Each run draws new random inputs, runs both, and takes per output the
 * mean absolute difference; the figures are the average and the population
 * standard deviation of that per-run error over the runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/bench_random_inputs.h"
#include "tools/tflaccel/bench_tensor_values.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/delegate_flag.h"
#include "tools/tflaccel/foreign_flags.h"
#include "tools/tflaccel/stats.h"

#define COMMAND "tflaccel diff"
#define REFERENCE_ACCELERATOR "cpu_ref"

typedef struct diff_options {
  cli_compile_flags compile;
  const char *model_path;
  long num_runs, seed;
  int has_max_error;
  double max_error;
  const char *output_file_path; /* NULL: stdout only */
  delegate_choice delegate;
} diff_options;

/* One compiled model with its buffers: the test side or the reference. */
typedef struct diff_side {
  tflaccel_compiled_model *compiled;
  model_buffers buffers;
  run_stats latency_us;
} diff_side;

/* Per output: the error figures and the NaN/Inf seen in the test outputs. */
typedef struct output_diff {
  run_stats error;
  size_t non_finite;
  long first_non_finite_run;
} output_diff;

static void print_help(void) {
  printf("usage: tflaccel diff [--model_file=]MODEL [options]\n"
         "Compares MODEL on the accelerators under test with cpu_ref (one thread, fp32),\n"
         "like TFLite's inference_diff: every run draws new inputs (floats Gaussian, mean 0,\n"
         "standard deviation 1; integers uniform over their type), runs both, and takes each\n"
         "output's mean absolute difference. One untimed warm-up run of each comes first.\n"
         "Exits 1 when a test output holds NaN or Inf, or an avg_error exceeds --max_error.\n\n"
         "  --model_file MODEL           the .tflite file (or give it as an argument)\n"
         "  --num_runs N                 evaluation runs (default 50)\n"
         "  --num_threads N              CPU threads of the test side (same as --threads)\n"
         "  --max_error X                fail when an output's avg_error exceeds X\n"
         "  --seed N                     random input seed (default 1)\n"
         "  --num_interpreter_threads N  CPU threads of the test side (inference_diff's name)\n"
         "  --output_file_path FILE      also write the figures to FILE (text, as printed)\n"
         "  --delegate gpu|xnnpack|none  test side: gpu,cpu_ref; cpu_xnnpack,cpu_ref; cpu_ref\n"
         "  --use_gpu, --use_xnnpack     the same as switches\n"
         "%s"
         "Without --accelerator the test side uses the environment's selection.\n",
         cli_compile_flags_help());
}

/* 1: handled, 0: not diff's own flag, -1: bad (message printed). */
static int parse_diff_flag(int argc, char **argv, int *index, void *untyped_options) {
  diff_options *options = untyped_options;
  const char *value = NULL;
  int match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--model_file", &value)) != 0)
    return match < 0 || !bench_set_model(COMMAND, &options->model_path, value) ? -1 : 1;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_runs", &value)) != 0) {
    if (match < 0 ||
        !cli_parse_int(COMMAND, "--num_runs", value, 1, 100000000L, &options->num_runs))
      return -1;
    return 1;
  }
  if ((match = bench_match_num_threads(COMMAND, argc, argv, index,
                                       &options->compile.thread_count)) != 0)
    return match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--seed", &value)) != 0) {
    if (match < 0 || !cli_parse_int(COMMAND, "--seed", value, 0, 4294967295L, &options->seed))
      return -1;
    return 1;
  }
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_interpreter_threads", &value)) !=
      0) {
    long threads;
    if (match < 0 ||
        !cli_parse_int(COMMAND, "--num_interpreter_threads", value, -1, 1024, &threads))
      return -1;
    options->compile.thread_count = threads > 0 ? (int32_t)threads : 0;
    return 1;
  }
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--output_file_path", &value)) != 0) {
    if (match < 0) return -1;
    options->output_file_path = value;
    return 1;
  }
  if ((match = delegate_flag_match(COMMAND, argc, argv, index, &options->delegate)) != 0)
    return match;
  if ((match = foreign_flag_match(COMMAND, argc, argv, index)) != 0) return match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--max_error", &value)) != 0) {
    if (match < 0 || !bench_parse_number(COMMAND, "--max_error", value, 0, &options->max_error))
      return -1;
    options->has_max_error = 1;
    return 1;
  }
  return 0;
}

/* 1: go on; 0: end with *exit_code (0 after --help, 2 on bad usage). */
static int parse_arguments(int argc, char **argv, diff_options *options, int *exit_code) {
  const bench_command_line line = {COMMAND,
                                   "tflaccel diff [--model_file=]MODEL [options]",
                                   print_help,
                                   parse_diff_flag,
                                   options,
                                   &options->compile,
                                   &options->model_path};
  if (!bench_parse_command_line(&line, argc, argv, exit_code)) return 0;
  int resolved = delegate_choice_resolve(COMMAND, &options->delegate, &options->compile);
  if (resolved <= 0) {
    *exit_code = resolved < 0 ? 1 : 2;
    return 0;
  }
  return 1;
}

static tflaccel_status compile_reference(tflaccel_environment *environment,
                                         const tflaccel_model *model,
                                         tflaccel_compiled_model **compiled) {
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.accelerators = REFERENCE_ACCELERATOR;
  options.precision = TFLACCEL_PRECISION_FP32;
  options.thread_count = 1;
  options.require_full_delegation = 0;
  return tflaccel_status_annotate(
      tflaccel_compiled_model_create(environment, model, &options, compiled),
      "reference (" REFERENCE_ACCELERATOR ", 1 thread, fp32)");
}

/* Both sides must take the same inputs and give comparable outputs. */
static tflaccel_status check_sides_match(const diff_side *test, const diff_side *reference) {
  const model_buffers *a = &test->buffers, *b = &reference->buffers;
  if (a->input_count != b->input_count || a->output_count != b->output_count)
    return tflaccel_status_make(TFLACCEL_INTERNAL,
                                "test side has %u inputs and %u outputs, the reference %u and %u",
                                a->input_count, a->output_count, b->input_count, b->output_count);
  for (uint32_t i = 0; i < a->input_count; ++i)
    if (tflaccel_tensor_buffer_byte_size(a->inputs[i]) !=
        tflaccel_tensor_buffer_byte_size(b->inputs[i]))
      return tflaccel_status_make(TFLACCEL_INTERNAL, "input %u has a different size on each side",
                                  i);
  for (uint32_t i = 0; i < a->output_count; ++i) {
    int32_t dtype = tflaccel_tensor_buffer_dtype(a->outputs[i]);
    if (dtype != tflaccel_tensor_buffer_dtype(b->outputs[i]) ||
        model_buffer_element_count(a->outputs[i]) != model_buffer_element_count(b->outputs[i]))
      return tflaccel_status_make(TFLACCEL_INTERNAL,
                                  "output %u differs in type or size between the sides", i);
    if (!tensor_dtype_is_numeric(dtype))
      return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "output %u is %s: cannot compare it", i,
                                  tflaccel_dtype_name(dtype));
  }
  return NULL;
}

/* New random inputs on the test side, copied to the reference. */
static tflaccel_status draw_inputs(random_inputs *random, diff_side *test, diff_side *reference) {
  for (uint32_t i = 0; i < test->buffers.input_count; ++i) {
    tflaccel_tensor_buffer *input = test->buffers.inputs[i];
    int32_t dtype = tflaccel_tensor_buffer_dtype(input);
    void *data = tflaccel_tensor_buffer_data(input);
    if (!random_inputs_fill(random, dtype, data, model_buffer_element_count(input)))
      return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                  "cannot generate random %s values for input %u",
                                  tflaccel_dtype_name(dtype), i);
    tflaccel_status status = tflaccel_tensor_buffer_write(reference->buffers.inputs[i], data,
                                                          tflaccel_tensor_buffer_byte_size(input));
    if (status != NULL) return status;
  }
  return NULL;
}

static tflaccel_status timed_run(diff_side *side, const char *name, long run) {
  int64_t start = bench_clock_microseconds();
  tflaccel_status status = model_buffers_run(side->compiled, &side->buffers);
  int64_t end = bench_clock_microseconds();
  if (status != NULL) return tflaccel_status_annotate(status, "%s run %ld", name, run);
  return run_stats_add(&side->latency_us, (double)(end - start));
}

/* Mean absolute difference of one output; counts the test side's NaN/Inf. */
static tflaccel_status compare_output(diff_side *test, diff_side *reference, uint32_t index,
                                      long run, output_diff *diff) {
  tflaccel_tensor_buffer *test_buffer = test->buffers.outputs[index];
  int32_t dtype = tflaccel_tensor_buffer_dtype(test_buffer);
  const void *test_data = tflaccel_tensor_buffer_data(test_buffer);
  const void *reference_data = tflaccel_tensor_buffer_data(reference->buffers.outputs[index]);
  size_t count = model_buffer_element_count(test_buffer);
  double error = 0.0;
  for (size_t i = 0; i < count; ++i) {
    double value = tensor_value_at(test_data, dtype, i);
    if (!isfinite(value)) {
      if (diff->non_finite++ == 0) diff->first_non_finite_run = run;
    }
    error += fabs(value - tensor_value_at(reference_data, dtype, i));
  }
  return run_stats_add(&diff->error, count ? error / (double)count : 0.0);
}

static void print_latency(FILE *out, const char *label, const run_stats *stats) {
  /* inference_diff keeps latency in whole microseconds: std truncated. */
  fprintf(out, "%s run latency: avg=%g(us), std_dev=%.0f(us)\n", label, run_stats_average(stats),
          trunc(run_stats_std_deviation(stats)));
}

static void print_figures(FILE *out, const diff_options *options, const diff_side *test,
                          const diff_side *reference, const output_diff *diffs,
                          uint32_t output_count) {
  fprintf(out, "Num evaluation runs: %ld\n", options->num_runs);
  print_latency(out, "Reference", &reference->latency_us);
  print_latency(out, "Test", &test->latency_us);
  for (uint32_t i = 0; i < output_count; ++i)
    fprintf(out, "OutputDiff[%u]: avg_error=%g, std_dev=%g\n", i,
            run_stats_average(&diffs[i].error), run_stats_std_deviation(&diffs[i].error));
}

/* --output_file_path: the figures as printed. */
static tflaccel_status write_figures(const char *path, const diff_options *options,
                                     const diff_side *test, const diff_side *reference,
                                     const output_diff *diffs, uint32_t output_count) {
  FILE *out = fopen(path, "w");
  if (out == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot write %s: %s", path, strerror(errno));
  print_figures(out, options, test, reference, diffs, output_count);
  int failed = ferror(out);
  if (fclose(out) != 0 || failed)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "writing %s failed", path);
  return NULL;
}

/* Prints the figures; returns 1 when an output fails (NaN/Inf, --max_error). */
static int report(const diff_options *options, const tflaccel_compiled_model *compiled,
                  const diff_side *test, const diff_side *reference, output_diff *diffs,
                  uint32_t output_count) {
  print_figures(stdout, options, test, reference, diffs, output_count);
  fflush(stdout);
  int failed = 0;
  if (options->output_file_path != NULL) {
    tflaccel_status status = write_figures(options->output_file_path, options, test, reference,
                                           diffs, output_count);
    if (status != NULL) {
      fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
      tflaccel_status_free(status);
      failed = 1;
    }
  }
  for (uint32_t i = 0; i < output_count; ++i) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_output_info(compiled, i, &info);
    const char *name = status == NULL && info.name ? info.name : "?";
    tflaccel_status_free(status);
    double average = run_stats_average(&diffs[i].error);
    if (diffs[i].non_finite) {
      fprintf(stderr,
              COMMAND ": output %u (%s) held %zu NaN or Inf values on the test side, "
                      "first in run %ld\n",
              i, name, diffs[i].non_finite, diffs[i].first_non_finite_run);
      failed = 1;
    } else if (options->has_max_error && !(average <= options->max_error)) {
      fprintf(stderr, COMMAND ": OutputDiff[%u] (%s): avg_error=%g exceeds --max_error=%g\n", i,
              name, average, options->max_error);
      failed = 1;
    }
  }
  return failed;
}

static int report_status(tflaccel_status status) {
  fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
  tflaccel_status_free(status);
  return 1;
}

int tflaccel_cmd_diff(int argc, char **argv) {
  diff_options options = {.num_runs = 50, .seed = 1};
  delegate_choice_init(&options.delegate);
  cli_compile_flags_init(&options.compile);
  int exit_code = 2;
  if (!parse_arguments(argc, argv, &options, &exit_code)) return exit_code;

  tflaccel_model *model = NULL;
  tflaccel_environment *environment = NULL;
  diff_side test = {0}, reference = {0};
  run_stats_init(&test.latency_us);
  run_stats_init(&reference.latency_us);
  output_diff *diffs = NULL;
  uint32_t output_count = 0;
  op_placement placement = {0};
  exit_code = 1;
  tflaccel_status status = tflaccel_model_load_file(options.model_path, &model);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  if (!cli_compile(COMMAND, &options.compile, model, &environment, &test.compiled)) goto cleanup;
  status = compile_reference(environment, model, &reference.compiled);
  if (status == NULL) status = model_buffers_create(test.compiled, &test.buffers);
  if (status == NULL) status = model_buffers_create(reference.compiled, &reference.buffers);
  if (status == NULL) status = check_sides_match(&test, &reference);
  if (status == NULL) status = op_placement_collect(test.compiled, &placement);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  output_count = test.buffers.output_count;
  diffs = calloc(output_count + 1, sizeof *diffs);
  if (diffs == NULL) {
    fprintf(stderr, COMMAND ": out of memory\n");
    goto cleanup;
  }
  for (uint32_t i = 0; i < output_count; ++i)
    run_stats_init(&diffs[i].error);
  const char *selection = tflaccel_environment_selection(environment);
  printf("Test accelerators: [%s]\n", selection ? selection : "");
  op_placement_print(stdout, &placement);

  random_inputs random;
  random_inputs_init(&random, (uint32_t)options.seed);
  /* The warm-up keeps first-run costs (kernel builds, caches) out of the
   * latency figures. */
  status = draw_inputs(&random, &test, &reference);
  if (status == NULL) status = model_buffers_run(test.compiled, &test.buffers);
  if (status == NULL) status = model_buffers_run(reference.compiled, &reference.buffers);
  if (status != NULL) status = tflaccel_status_annotate(status, "warm-up run");
  for (long run = 1; status == NULL && run <= options.num_runs; ++run) {
    status = draw_inputs(&random, &test, &reference);
    if (status == NULL) status = timed_run(&test, "test", run);
    if (status == NULL) status = timed_run(&reference, "reference", run);
    for (uint32_t i = 0; status == NULL && i < output_count; ++i)
      status = compare_output(&test, &reference, i, run, &diffs[i]);
  }
  if (status != NULL) {
    fflush(stdout);
    report_status(status);
    goto cleanup;
  }
  exit_code = report(&options, test.compiled, &test, &reference, diffs, output_count);

cleanup:
  for (uint32_t i = 0; diffs && i < output_count; ++i)
    run_stats_free(&diffs[i].error);
  free(diffs);
  op_placement_free(&placement);
  run_stats_free(&test.latency_us);
  run_stats_free(&reference.latency_us);
  model_buffers_destroy(&test.buffers);
  model_buffers_destroy(&reference.buffers);
  tflaccel_compiled_model_destroy(test.compiled);
  tflaccel_compiled_model_destroy(reference.compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
