/* tflaccel eval: task evaluation as LiteRT's run_eval, for image
 * classification here and for object detection in eval_detection.c
 * (--task object_detection, or --ground_truth_proto). Every labelled photo in a directory (sorted by file name,
 * .jpg/.jpeg/.png) is decoded, preprocessed for the model's input
 * (image_preprocess.h) and classified; the figures are the top-1 to top-K
 * accuracy over the images, printed as run_eval prints them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/bench_tensor_values.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/delegate_flag.h"
#include "tools/tflaccel/eval_common.h"
#include "tools/tflaccel/eval_detection.h"
#include "tools/tflaccel/foreign_flags.h"
#include "tools/tflaccel/image_decode.h"
#include "tools/tflaccel/image_list.h"
#include "tools/tflaccel/image_preprocess.h"
#include "tools/tflaccel/model_metadata.h"
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
  const char *task;               /* NULL: object_detection with --ground_truth_proto */
  const char *ground_truth_proto; /* object detection's ground truth */
  int debug_mode;                 /* object detection: print every image's detections */
} eval_options;

#define TASK_CLASSIFICATION "image_classification"
#define TASK_DETECTION "object_detection"

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
         "       tflaccel eval [--task=object_detection] [--model_file=]MODEL\n"
         "                     --ground_truth_images_path=DIR --ground_truth_proto=FILE\n"
         "                     --model_output_labels=FILE [options]\n"
         "Image classification accuracy like LiteRT's run_eval: every .jpg/.jpeg/.png in DIR,\n"
         "in file-name order, is cropped to its central 87.5%%, resized (bilinear) to the\n"
         "model's input, normalized to (x - mean) / std (the NormalizationOptions of the\n"
         "model's TFLite Metadata, else 127.5 and 127.5) and quantized with the input's\n"
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
         "  --task image_classification|object_detection  the task (default: object_detection\n"
         "                               with --ground_truth_proto, else image_classification)\n"
         "  --ground_truth_proto FILE    object detection: the ObjectDetectionGroundTruth text\n"
         "                               proto naming each image in DIR and its objects; the model\n"
         "                               gives SSD outputs (boxes, classes, scores, count); prints\n"
         "                               the AP at IoU 0.5 to 0.95 and the overall mAP\n"
         "  --debug_mode                 object detection: print every image's detections\n"
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
      {"--ground_truth_proto", offsetof(eval_options, ground_truth_proto)},
  };
  for (size_t i = 0; i < sizeof text_flags / sizeof text_flags[0]; ++i)
    if ((match = cli_match_value(COMMAND, argc, argv, index, text_flags[i].name, &value)) != 0) {
      if (match > 0) *(const char **)((char *)options + text_flags[i].offset) = value;
      return match;
    }
  if ((match = cli_match_value(COMMAND, argc, argv, index, "--task", &value)) != 0) {
    if (match < 0) return -1;
    if (strcmp(value, TASK_CLASSIFICATION) != 0 && strcmp(value, TASK_DETECTION) != 0) {
      fprintf(stderr, COMMAND ": --task must be " TASK_CLASSIFICATION " or " TASK_DETECTION
                              ", not '%s'\n",
              value);
      return -1;
    }
    options->task = value;
    return 1;
  }
  if ((match = bench_match_bool(COMMAND, argc, argv, index, "--debug_mode", &options->debug_mode)) != 0)
    return match;
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
  if (options->task == NULL)
    options->task = options->ground_truth_proto != NULL ? TASK_DETECTION : TASK_CLASSIFICATION;
  int detection = !strcmp(options->task, TASK_DETECTION);
  const char *wrong = detection && options->ground_truth_labels ? "--ground_truth_labels"
                      : detection && options->denylist_path     ? "--denylist_file_path"
                      : detection && options->num_ranks != DEFAULT_NUM_RANKS ? "--num_ranks"
                      : !detection && options->ground_truth_proto ? "--ground_truth_proto"
                      : !detection && options->debug_mode > 0    ? "--debug_mode"
                                                                 : NULL;
  if (wrong != NULL) {
    fprintf(stderr, COMMAND ": %s is not a flag of --task=%s\n", wrong, options->task);
    return 0;
  }
  const char *missing = !options->images_path                       ? "--ground_truth_images_path"
                        : detection && !options->ground_truth_proto ? "--ground_truth_proto"
                        : !detection && !options->ground_truth_labels ? "--ground_truth_labels"
                        : !options->model_output_labels               ? "--model_output_labels"
                                                                      : NULL;
  if (missing != NULL) {
    fprintf(stderr, COMMAND ": %s is required (try --help)\n", missing);
    return 0;
  }
  int resolved = delegate_choice_resolve(COMMAND, &options->delegate, &options->compile);
  if (resolved < 0) *exit_code = 1;
  return resolved > 0;
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
  tflaccel_status status = image_list_read(options->images_path, &data->images);
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

/* What print_figures prints. */
typedef struct classification_figures {
  size_t runs;
  const run_stats *preprocessing, *inference;
  const size_t *hits;
  long num_ranks;
} classification_figures;

static void print_figures(FILE *out, const void *context) {
  const classification_figures *figures = context;
  eval_print_latencies(out, figures->runs, figures->preprocessing, figures->inference);
  size_t cumulative = 0;
  for (long k = 0; k < figures->num_ranks; ++k) {
    cumulative += figures->hits[k];
    fprintf(out, "Top-%ld Accuracy: %g\n", k + 1,
            figures->runs ? (double)cumulative / (double)figures->runs : 0.0);
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
  if (!strcmp(options.task, TASK_DETECTION)) {
    eval_detection_options detection = {
        .compile = &options.compile,
        .command = COMMAND,
        .model_path = options.model_path,
        .images_path = options.images_path,
        .ground_truth_proto = options.ground_truth_proto,
        .model_output_labels = options.model_output_labels,
        .output_file_path = options.output_file_path,
        .num_images = options.num_images,
        .debug_mode = options.debug_mode > 0,
    };
    return eval_detection_run(&detection);
  }

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
  image_normalization normalization = image_default_normalization;
  int from_metadata = 0;
  if (status == NULL)
    status = model_input_normalization(model, 0, 3, &normalization, &from_metadata);
  if (status == NULL) status = load_eval_data(&options, class_count, &data);
  if (status == NULL) status = model_buffers_create(compiled, &buffers);
  if (status == NULL) status = op_placement_collect(compiled, &placement);
  if (status != NULL) {
    report_status(status);
    goto cleanup;
  }
  eval_print_header(environment, &placement, &normalization, from_metadata);

  terminal_progress_start(&progress, PROGRESS_DELAY_US);
  for (size_t i = 0; i < data.images.count; ++i) {
    status = eval_run_image(data.images.lines[i], &input, &normalization, IMAGE_CROP_FRACTION,
                            compiled, &buffers, &preprocessing, &inference);
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
  classification_figures figures = {.runs = data.images.count,
                                    .preprocessing = &preprocessing,
                                    .inference = &inference,
                                    .hits = hits,
                                    .num_ranks = options.num_ranks};
  print_figures(stdout, &figures);
  fflush(stdout);
  exit_code = options.output_file_path == NULL
                  ? 0
                  : eval_write_figures(COMMAND, options.output_file_path, print_figures, &figures);

cleanup:
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
