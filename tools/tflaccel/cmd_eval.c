/* tflaccel eval: task evaluation as LiteRT's run_eval for image
 * classification. Every labelled photo in a directory (sorted by file name,
 * .jpg/.jpeg/.png) is decoded, preprocessed for the model's input
 * (image_preprocess.h) and classified; the figures are the top-1 to top-K
 * accuracy over the images, printed as run_eval prints them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/bench_tensor_values.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/delegate_flag.h"
#include "tools/tflaccel/foreign_flags.h"
#include "tools/tflaccel/image_decode.h"
#include "tools/tflaccel/image_preprocess.h"
#include "tools/tflaccel/stats.h"
#include "tools/tflaccel/terminal_progress.h"
#include "tools/tflaccel/text_lines.h"

#define COMMAND "tflaccel eval"
#define DEFAULT_NUM_RANKS 10
#define PROGRESS_DELAY_US 1000000

typedef struct eval_options {
  cli_compile_flags compile;
  delegate_choice delegate;
  const char *model_path;
  const char *images_path, *ground_truth_labels, *model_output_labels;
  const char *output_file_path, *denylist_path;
  long num_images, num_ranks;
} eval_options;

/* The evaluation's inputs, read and checked before any image is decoded. */
typedef struct eval_data {
  text_lines images;       /* full paths, sorted by file name, denylisted ones removed */
  text_lines truth;        /* one label per image */
  text_lines model_labels; /* one per model output class */
  uint32_t *truth_class;   /* per image: index into model_labels */
} eval_data;

static void print_help(void) {
  printf("usage: tflaccel eval [--model_file=]MODEL --ground_truth_images_path=DIR\n"
         "                     --ground_truth_labels=FILE --model_output_labels=FILE [options]\n"
         "Image classification accuracy like LiteRT's run_eval: every .jpg/.jpeg/.png in DIR,\n"
         "in file-name order, is cropped to its central 87.5%%, resized (bilinear) to the\n"
         "model's input, normalized to (x - 127.5) / 127.5 and quantized with the input's\n"
         "parameters, and classified. Prints Top-1 to Top-K accuracy.\n\n"
         "  --model_file MODEL           the .tflite classifier (or give it as an argument)\n"
         "  --ground_truth_images_path DIR  the labelled images\n"
         "  --ground_truth_labels FILE   one label per image, in sorted file-name order\n"
         "  --model_output_labels FILE   one label per model output class, in order\n"
         "  --output_file_path FILE      also write the figures to FILE (text, as printed)\n"
         "  --num_images N               evaluate the first N images (default 0: all)\n"
         "  --num_ranks K                report Top-1 to Top-K (default 10)\n"
         "  --denylist_file_path FILE    1-based image indices to leave out, one per line\n"
         "                               (--blacklist_file_path is the old name)\n"
         "  --num_interpreter_threads N  CPU threads (same as --threads)\n"
         "  --num_threads N              run_eval's dataset shards: accepted, images run in turn\n"
         "  --delegate gpu|xnnpack|none  gpu,cpu_ref; cpu_xnnpack,cpu_ref; cpu_ref\n"
         "  --use_gpu, --use_xnnpack     the same as switches\n"
         "%s",
         cli_compile_flags_help());
}

static int parse_eval_flag(int argc, char **argv, int *index, void *untyped_options) {
  eval_options *options = untyped_options;
  const char *value = NULL;
  int match;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--model_file", &value)) != 0)
    return match < 0 || !bench_set_model(COMMAND, &options->model_path, value) ? -1 : 1;
  static const struct {
    const char *name;
    size_t offset;
  } text_flags[] = {
      {"--ground_truth_images_path", offsetof(eval_options, images_path)},
      {"--ground_truth_labels", offsetof(eval_options, ground_truth_labels)},
      {"--model_output_labels", offsetof(eval_options, model_output_labels)},
      {"--output_file_path", offsetof(eval_options, output_file_path)},
      {"--denylist_file_path", offsetof(eval_options, denylist_path)},
      {"--blacklist_file_path", offsetof(eval_options, denylist_path)},
  };
  for (size_t i = 0; i < sizeof text_flags / sizeof text_flags[0]; ++i)
    if ((match = cli_match_value(COMMAND, argc, argv, index, text_flags[i].name, &value)) != 0) {
      if (match > 0) *(const char **)((char *)options + text_flags[i].offset) = value;
      return match;
    }
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_images", &value)) != 0)
    return match < 0 || !cli_parse_int(COMMAND, "--num_images", value, 0, 1000000000L,
                                       &options->num_images)
               ? -1
               : 1;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_ranks", &value)) != 0)
    return match < 0 || !cli_parse_int(COMMAND, "--num_ranks", value, 1, 1000000L,
                                       &options->num_ranks)
               ? -1
               : 1;
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_interpreter_threads", &value)) !=
      0) {
    long threads;
    if (match < 0 ||
        !cli_parse_int(COMMAND, "--num_interpreter_threads", value, -1, 1024, &threads))
      return -1;
    options->compile.thread_count = threads > 0 ? (int32_t)threads : 0;
    return 1;
  }
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--num_threads", &value)) != 0) {
    /* run_eval's dataset sharding: accepted and checked; images are
     * evaluated one after another. */
    long shards;
    return match < 0 || !cli_parse_int(COMMAND, "--num_threads", value, 1, 1024, &shards) ? -1 : 1;
  }
  if ((match = delegate_flag_match(COMMAND, argc, argv, index, &options->delegate)) != 0)
    return match;
  return foreign_flag_match(COMMAND, argc, argv, index);
}

static int parse_arguments(int argc, char **argv, eval_options *options, int *exit_code) {
  const bench_command_line line = {COMMAND,
                                   "tflaccel eval [--model_file=]MODEL "
                                   "--ground_truth_images_path=DIR --ground_truth_labels=FILE "
                                   "--model_output_labels=FILE",
                                   print_help,
                                   parse_eval_flag,
                                   options,
                                   &options->compile,
                                   &options->model_path};
  if (!bench_parse_command_line(&line, argc, argv, exit_code)) return 0;
  const char *missing = !options->images_path           ? "--ground_truth_images_path"
                        : !options->ground_truth_labels ? "--ground_truth_labels"
                        : !options->model_output_labels ? "--model_output_labels"
                                                        : NULL;
  if (missing != NULL) {
    fprintf(stderr, COMMAND ": %s is required (try --help)\n", missing);
    return 0;
  }
  int resolved = delegate_choice_resolve(COMMAND, &options->delegate, &options->compile);
  if (resolved < 0) *exit_code = 1;
  return resolved > 0;
}

static int has_image_extension(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot != NULL && (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg") ||
                         !strcasecmp(dot, ".png"));
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The image files of dir, as full paths sorted by name. */
static tflaccel_status list_images(const char *dir, text_lines *images) {
  images->lines = NULL;
  images->count = 0;
  DIR *stream = opendir(dir);
  if (stream == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "--ground_truth_images_path: cannot read %s: %s",
                                dir, strerror(errno));
  size_t capacity = 0;
  tflaccel_status status = NULL;
  struct dirent *entry;
  while ((entry = readdir(stream)) != NULL) {
    if (entry->d_name[0] == '.' || !has_image_extension(entry->d_name)) continue;
    if (images->count == capacity) {
      size_t grown = capacity ? capacity * 2 : 64;
      char **bigger = realloc(images->lines, grown * sizeof *bigger);
      if (bigger == NULL) {
        status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
        break;
      }
      images->lines = bigger;
      capacity = grown;
    }
    size_t length = strlen(dir) + strlen(entry->d_name) + 2;
    char *path = malloc(length);
    if (path == NULL) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
      break;
    }
    snprintf(path, length, "%s/%s", dir, entry->d_name);
    images->lines[images->count++] = path;
  }
  closedir(stream);
  if (status == NULL && images->count == 0)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--ground_truth_images_path: %s holds no .jpg, .jpeg or .png "
                                  "image",
                                  dir);
  if (status != NULL) {
    text_lines_free(images);
    return status;
  }
  qsort(images->lines, images->count, sizeof *images->lines, compare_names);
  return NULL;
}

/* Removes the denylisted images (1-based indices) and their labels. */
static tflaccel_status apply_denylist(const char *path, eval_data *data) {
  text_lines denylist;
  tflaccel_status status = text_lines_read(path, &denylist);
  if (status != NULL) return tflaccel_status_annotate(status, "--denylist_file_path");
  uint8_t *denied = calloc(data->images.count + 1, 1);
  if (denied == NULL) {
    text_lines_free(&denylist);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < denylist.count && status == NULL; ++i) {
    char *end = NULL;
    long index = strtol(denylist.lines[i], &end, 10);
    if (end == denylist.lines[i] || *end != '\0' || index < 1 || (size_t)index > data->images.count)
      status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                    "--denylist_file_path: %s:%zu: '%s' is not an image index "
                                    "from 1 to %zu",
                                    path, i + 1, denylist.lines[i], data->images.count);
    else
      denied[index - 1] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; status == NULL && i < data->images.count; ++i) {
    if (denied[i]) {
      free(data->images.lines[i]);
      free(data->truth.lines[i]);
      continue;
    }
    data->images.lines[kept] = data->images.lines[i];
    data->truth.lines[kept] = data->truth.lines[i];
    ++kept;
  }
  if (status == NULL) data->images.count = data->truth.count = kept;
  free(denied);
  text_lines_free(&denylist);
  return status;
}

static void eval_data_free(eval_data *data) {
  text_lines_free(&data->images);
  text_lines_free(&data->truth);
  text_lines_free(&data->model_labels);
  free(data->truth_class);
}

/* Reads the images' names and both label files, and checks they agree with
 * one another and with the model's class count. */
static tflaccel_status load_eval_data(const eval_options *options, uint32_t class_count,
                                      eval_data *data) {
  tflaccel_status status = list_images(options->images_path, &data->images);
  if (status != NULL) return status;
  if ((status = text_lines_read(options->ground_truth_labels, &data->truth)) != NULL)
    return tflaccel_status_annotate(status, "--ground_truth_labels");
  if ((status = text_lines_read(options->model_output_labels, &data->model_labels)) != NULL)
    return tflaccel_status_annotate(status, "--model_output_labels");
  if (data->truth.count != data->images.count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "--ground_truth_labels: %s has %zu labels for %zu images in %s",
                                options->ground_truth_labels, data->truth.count,
                                data->images.count, options->images_path);
  if (data->model_labels.count != class_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "--model_output_labels: %s has %zu labels, the model's output "
                                "has %u classes",
                                options->model_output_labels, data->model_labels.count,
                                class_count);
  if (options->denylist_path != NULL &&
      (status = apply_denylist(options->denylist_path, data)) != NULL)
    return status;
  if (options->num_images > 0 && (size_t)options->num_images < data->images.count) {
    for (size_t i = (size_t)options->num_images; i < data->images.count; ++i) {
      free(data->images.lines[i]);
      free(data->truth.lines[i]);
    }
    data->images.count = data->truth.count = (size_t)options->num_images;
  }
  data->truth_class = calloc(data->images.count + 1, sizeof *data->truth_class);
  if (data->truth_class == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < data->images.count; ++i) {
    size_t c = 0;
    while (c < data->model_labels.count && strcmp(data->model_labels.lines[c], data->truth.lines[i]))
      ++c;
    if (c == data->model_labels.count)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--ground_truth_labels: '%s' (for %s) is not one of the model's "
                                  "labels in %s",
                                  data->truth.lines[i], data->images.lines[i],
                                  options->model_output_labels);
    data->truth_class[i] = (uint32_t)c;
  }
  return NULL;
}

/* The model must take one image and give one score per class. */
static tflaccel_status check_model(const tflaccel_compiled_model *compiled,
                                   tflaccel_tensor_info *input, uint32_t *class_count) {
  if (tflaccel_compiled_model_input_count(compiled) != 1 ||
      tflaccel_compiled_model_output_count(compiled) < 1)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "not an image classifier: the model has %u inputs and %u outputs",
                                tflaccel_compiled_model_input_count(compiled),
                                tflaccel_compiled_model_output_count(compiled));
  input->struct_size = sizeof *input;
  tflaccel_status status = tflaccel_compiled_model_input_info(compiled, 0, input);
  if (status != NULL) return status;
  const char *why = NULL;
  if (!image_input_supported(input, &why))
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "not an image classifier: %s", why);
  tflaccel_tensor_info output = {.struct_size = sizeof output};
  if ((status = tflaccel_compiled_model_output_info(compiled, 0, &output)) != NULL) return status;
  uint64_t classes = 1;
  for (uint32_t d = 0; d < output.rank; ++d) classes *= (uint64_t)(output.shape[d] > 0 ? output.shape[d] : 0);
  if (output.rank == 0 || output.rank > 2 || (output.rank == 2 && output.shape[0] != 1) ||
      classes == 0 || classes > UINT32_MAX || !tensor_dtype_is_numeric(output.dtype))
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "not an image classifier: output 0 is not one score per class "
                                "([1, classes])");
  *class_count = (uint32_t)classes;
  return NULL;
}

/* Where the true class ranks among the scores: 0 = highest. Equal scores
 * rank the lower class index first. */
static uint32_t true_class_rank(const tflaccel_tensor_buffer *scores, uint32_t true_class) {
  const void *data = tflaccel_tensor_buffer_data((tflaccel_tensor_buffer *)scores);
  int32_t dtype = tflaccel_tensor_buffer_dtype(scores);
  size_t count = model_buffer_element_count(scores);
  double truth = tensor_value_at(data, dtype, true_class);
  uint32_t rank = 0;
  for (size_t c = 0; c < count; ++c) {
    double score = tensor_value_at(data, dtype, c);
    if (score > truth || (score == truth && c < true_class) || (isnan(truth) && !isnan(score)))
      ++rank;
  }
  return rank;
}

static void print_figures(FILE *out, size_t runs, const run_stats *preprocessing,
                          const run_stats *inference, const size_t *hits, long num_ranks) {
  fprintf(out, "Num evaluation runs: %zu\n", runs);
  fprintf(out, "Preprocessing latency: avg=%g(us), std_dev=%.0f(us)\n",
          run_stats_average(preprocessing), trunc(run_stats_std_deviation(preprocessing)));
  fprintf(out, "Inference latency: avg=%g(us), std_dev=%.0f(us)\n", run_stats_average(inference),
          trunc(run_stats_std_deviation(inference)));
  size_t cumulative = 0;
  for (long k = 0; k < num_ranks; ++k) {
    cumulative += hits[k];
    fprintf(out, "Top-%ld Accuracy: %g\n", k + 1, runs ? (double)cumulative / (double)runs : 0.0);
  }
}

static int report_status(tflaccel_status status) {
  fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
  tflaccel_status_free(status);
  return 1;
}

int tflaccel_cmd_eval(int argc, char **argv) {
  eval_options options = {.num_ranks = DEFAULT_NUM_RANKS};
  cli_compile_flags_init(&options.compile);
  delegate_choice_init(&options.delegate);
  int exit_code = 2;
  if (!parse_arguments(argc, argv, &options, &exit_code)) return exit_code;

  tflaccel_model *model = NULL;
  tflaccel_environment *environment = NULL;
  tflaccel_compiled_model *compiled = NULL;
  model_buffers buffers = {0};
  eval_data data = {0};
  op_placement placement = {0};
  run_stats preprocessing, inference;
  run_stats_init(&preprocessing);
  run_stats_init(&inference);
  size_t *hits = calloc((size_t)options.num_ranks + 1, sizeof *hits);
  rgb_image image = {0};
  terminal_progress progress = {0};
  exit_code = 1;
  tflaccel_status status = hits ? NULL : tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  if (status == NULL) status = tflaccel_model_load_file(options.model_path, &model);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  if (!cli_compile(COMMAND, &options.compile, model, &environment, &compiled)) goto cleanup;
  tflaccel_tensor_info input;
  uint32_t class_count = 0;
  status = check_model(compiled, &input, &class_count);
  if (status == NULL) status = load_eval_data(&options, class_count, &data);
  if (status == NULL) status = model_buffers_create(compiled, &buffers);
  if (status == NULL) status = op_placement_collect(compiled, &placement);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  const char *selection = tflaccel_environment_selection(environment);
  printf("Test accelerators: [%s]\n", selection ? selection : "");
  op_placement_print(stdout, &placement);
  fflush(stdout);

  terminal_progress_start(&progress, PROGRESS_DELAY_US);
  for (size_t i = 0; i < data.images.count; ++i) {
    int64_t start = bench_clock_microseconds();
    status = image_decode_file(data.images.lines[i], &image);
    if (status == NULL)
      status = image_preprocess(&image, &input, IMAGE_DEFAULT_MEAN, IMAGE_DEFAULT_STD,
                                tflaccel_tensor_buffer_data(buffers.inputs[0]),
                                tflaccel_tensor_buffer_byte_size(buffers.inputs[0]));
    rgb_image_free(&image);
    int64_t preprocessed = bench_clock_microseconds();
    if (status == NULL) status = model_buffers_run(compiled, &buffers);
    int64_t end = bench_clock_microseconds();
    if (status == NULL) status = run_stats_add(&preprocessing, (double)(preprocessed - start));
    if (status == NULL) status = run_stats_add(&inference, (double)(end - preprocessed));
    if (status != NULL) break;
    uint32_t rank = true_class_rank(buffers.outputs[0], data.truth_class[i]);
    if (rank < (uint32_t)options.num_ranks) ++hits[rank];
    terminal_progress_update(&progress, COMMAND, (long)i + 1, (long)data.images.count);
  }
  terminal_progress_finish(&progress);
  if (status != NULL) {
    fflush(stdout);
    report_status(status);
    goto cleanup;
  }
  print_figures(stdout, data.images.count, &preprocessing, &inference, hits, options.num_ranks);
  fflush(stdout);
  exit_code = 0;
  if (options.output_file_path != NULL) {
    FILE *out = fopen(options.output_file_path, "w");
    if (out == NULL) {
      fprintf(stderr, COMMAND ": cannot write %s: %s\n", options.output_file_path, strerror(errno));
      exit_code = 1;
    } else {
      print_figures(out, data.images.count, &preprocessing, &inference, hits, options.num_ranks);
      int failed = ferror(out);
      if (fclose(out) != 0 || failed) {
        fprintf(stderr, COMMAND ": writing %s failed\n", options.output_file_path);
        exit_code = 1;
      }
    }
  }

cleanup:
  rgb_image_free(&image);
  free(hits);
  run_stats_free(&preprocessing);
  run_stats_free(&inference);
  op_placement_free(&placement);
  eval_data_free(&data);
  model_buffers_destroy(&buffers);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
