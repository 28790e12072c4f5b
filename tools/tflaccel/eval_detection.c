#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/detection_ground_truth.h"
#include "tools/tflaccel/detection_metrics.h"
#include "tools/tflaccel/eval_common.h"
#include "tools/tflaccel/eval_detection.h"
#include "tools/tflaccel/image_decode.h"
#include "tools/tflaccel/image_list.h"
#include "tools/tflaccel/image_preprocess.h"
#include "tools/tflaccel/model_metadata.h"
#include "tools/tflaccel/stats.h"
#include "tools/tflaccel/terminal_progress.h"
#include "tools/tflaccel/text_lines.h"

#define PROGRESS_DELAY_US 1000000

/* Output k of the model must be float32 of the shape SSD post-processing
 * gives; *detections gets N. */
static tflaccel_status check_output(const tflaccel_compiled_model *compiled, uint32_t k,
                                    const char *what, uint32_t rank, int32_t last,
                                    int32_t *detections) {
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  tflaccel_status status = tflaccel_compiled_model_output_info(compiled, k, &info);
  if (status != NULL) return status;
  int shaped = info.rank == rank && info.shape[0] == 1 && info.dtype == TFLACCEL_DTYPE_FLOAT32;
  if (shaped && rank == 3) shaped = info.shape[2] == last;
  if (shaped && rank >= 2) {
    if (*detections < 0) *detections = info.shape[1];
    shaped = info.shape[1] == *detections && *detections > 0;
  }
  if (!shaped)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "not an SSD-style detector: output %u is not %s (float32, as "
                                "TFLite_Detection_PostProcess gives)",
                                k, what);
  return NULL;
}

static tflaccel_status check_model(const tflaccel_compiled_model *compiled,
                                   tflaccel_tensor_info *input, int32_t *detections) {
  if (tflaccel_compiled_model_input_count(compiled) != 1 ||
      tflaccel_compiled_model_output_count(compiled) < 4)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "not an SSD-style detector: the model has %u inputs and %u "
                                "outputs (1 image in; boxes, classes, scores, count out)",
                                tflaccel_compiled_model_input_count(compiled),
                                tflaccel_compiled_model_output_count(compiled));
  input->struct_size = sizeof *input;
  tflaccel_status status = tflaccel_compiled_model_input_info(compiled, 0, input);
  if (status != NULL) return status;
  const char *why = NULL;
  if (!image_input_supported(input, &why))
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "not an image detector: %s", why);
  *detections = -1;
  status = check_output(compiled, 0, "boxes [1, N, 4]", 3, 4, detections);
  if (status == NULL) status = check_output(compiled, 1, "classes [1, N]", 2, 0, detections);
  if (status == NULL) status = check_output(compiled, 2, "scores [1, N]", 2, 0, detections);
  if (status == NULL) status = check_output(compiled, 3, "the count [1]", 1, 0, detections);
  return status;
}

/* The detections of the run that just finished, into image. */
static tflaccel_status collect_detections(const model_buffers *buffers, int32_t detections,
                                          detection_image *image) {
  const float *boxes = tflaccel_tensor_buffer_data(buffers->outputs[0]);
  const float *classes = tflaccel_tensor_buffer_data(buffers->outputs[1]);
  const float *scores = tflaccel_tensor_buffer_data(buffers->outputs[2]);
  const float *count = tflaccel_tensor_buffer_data(buffers->outputs[3]);
  double valid = isfinite(count[0]) ? floor(count[0]) : 0.0;
  if (valid < 0) valid = 0;
  if (valid > detections) valid = detections;
  for (int32_t i = 0; i < (int32_t)valid; ++i) {
    const float *box = boxes + (size_t)i * 4;
    if (!isfinite(classes[i]) || !isfinite(scores[i]) || classes[i] < 0 ||
        classes[i] > (float)(INT32_MAX - DETECTION_CLASS_OFFSET))
      continue; /* nothing a class id can name */
    detection_object object = {
        .class_id = (int32_t)classes[i] + DETECTION_CLASS_OFFSET,
        .box = {.top = box[0], .left = box[1], .bottom = box[2], .right = box[3]},
        .score = scores[i],
    };
    tflaccel_status status = detection_image_add(image, &object);
    if (status != NULL) return status;
  }
  return NULL;
}

/* run_eval's debug_mode listing of one image's detections. */
static void print_detections(const char *name, const detection_image *image) {
  printf("======================================================\n\n");
  printf("Image: %s\n\n", name);
  for (size_t o = 0; o < image->object_count; ++o) {
    const detection_object *object = &image->objects[o];
    printf("Object [%zu]\n", o);
    printf("  Score: %g\n", object->score);
    printf("  Class-ID: %d\n", object->class_id);
    printf("  Bounding Box:\n");
    printf("    Normalized Top: %g\n", object->box.top);
    printf("    Normalized Bottom: %g\n", object->box.bottom);
    printf("    Normalized Left: %g\n", object->box.left);
    printf("    Normalized Right: %g\n", object->box.right);
  }
}

/* What print_figures prints. */
typedef struct detection_figures {
  size_t runs;
  const run_stats *preprocessing, *inference;
  const detection_precision *precision;
} detection_figures;

static void print_figures(FILE *out, const void *context) {
  const detection_figures *figures = context;
  eval_print_latencies(out, figures->runs, figures->preprocessing, figures->inference);
  for (int t = 0; t < DETECTION_THRESHOLD_COUNT; ++t)
    fprintf(out, "Average Precision [IOU Threshold=%g]: %g\n",
            figures->precision->iou_threshold[t], figures->precision->average_precision[t]);
  fprintf(out, "Overall mAP: %g\n", figures->precision->mean_average_precision);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash != NULL ? slash + 1 : path;
}

/* Pairs each image of the directory with its ground truth (none: no
 * object, as run_eval has it): matched[i] is a view of truth's entry for
 * images[i]. Every entry must name an image of the directory, once, and
 * its class ids lines of the labels. */
static tflaccel_status match_ground_truth(const eval_detection_options *options,
                                          const detection_ground_truth *truth,
                                          const text_lines *images, size_t label_count,
                                          detection_image *matched) {
  for (size_t e = 0; e < truth->image_count; ++e) {
    const detection_image *entry = &truth->images[e];
    for (size_t o = 0; o < entry->object_count; ++o)
      if ((size_t)entry->objects[o].class_id >= label_count)
        return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                    "--ground_truth_proto: %s: class_id %d (image %s) is not a "
                                    "line of %s (%zu labels)",
                                    options->ground_truth_proto, entry->objects[o].class_id,
                                    entry->name, options->model_output_labels, label_count);
    size_t i = 0;
    while (i < images->count && strcmp(base_name(images->lines[i]), entry->name) != 0) ++i;
    if (i == images->count)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--ground_truth_proto: %s: image_name \"%s\" is not an image "
                                  "in %s",
                                  options->ground_truth_proto, entry->name, options->images_path);
    if (matched[i].name != NULL)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--ground_truth_proto: %s: image_name \"%s\" has two "
                                  "detection_results",
                                  options->ground_truth_proto, entry->name);
    matched[i] = *entry;
  }
  return NULL;
}

int eval_detection_run(const eval_detection_options *options) {
  tflaccel_model *model = NULL;
  tflaccel_environment *environment = NULL;
  tflaccel_compiled_model *compiled = NULL;
  model_buffers buffers = {0};
  op_placement placement = {0};
  detection_ground_truth truth = {0};
  text_lines labels = {0}, images = {0};
  detection_image *predicted = NULL, *matched = NULL; /* per image of the directory */
  run_stats preprocessing, inference;
  run_stats_init(&preprocessing);
  run_stats_init(&inference);
  terminal_progress progress = {0};
  size_t image_count = 0;
  int exit_code = 1;
  tflaccel_status status = tflaccel_model_load_file(options->model_path, &model);
  if (status != NULL) goto report;
  if (!cli_compile(options->command, options->compile, model, &environment, &compiled)) goto done;
  tflaccel_tensor_info input;
  int32_t detections = 0;
  status = check_model(compiled, &input, &detections);
  image_normalization normalization = image_default_normalization;
  int from_metadata = 0;
  if (status == NULL)
    status = model_input_normalization(model, 0, 3, &normalization, &from_metadata);
  if (status == NULL && (status = text_lines_read(options->model_output_labels, &labels)) != NULL)
    status = tflaccel_status_annotate(status, "--model_output_labels");
  if (status == NULL &&
      (status = detection_ground_truth_read(options->ground_truth_proto, &truth)) != NULL)
    status = tflaccel_status_annotate(status, "--ground_truth_proto");
  if (status == NULL) status = image_list_read(options->images_path, &images);
  if (status == NULL && ((predicted = calloc(images.count + 1, sizeof *predicted)) == NULL ||
                         (matched = calloc(images.count + 1, sizeof *matched)) == NULL))
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  if (status == NULL) status = match_ground_truth(options, &truth, &images, labels.count, matched);
  if (status == NULL) {
    image_count = images.count;
    if (options->num_images > 0 && (size_t)options->num_images < image_count)
      image_count = (size_t)options->num_images;
  }
  if (status == NULL) status = model_buffers_create(compiled, &buffers);
  if (status == NULL) status = op_placement_collect(compiled, &placement);
  if (status != NULL) goto report;
  eval_print_header(environment, &placement, &normalization, from_metadata);

  terminal_progress_start(&progress, PROGRESS_DELAY_US);
  for (size_t i = 0; i < image_count && status == NULL; ++i) {
    status = eval_run_image(images.lines[i], &input, &normalization, 1.0, compiled, &buffers,
                            &preprocessing, &inference);
    if (status == NULL) status = collect_detections(&buffers, detections, &predicted[i]);
    if (status == NULL && options->debug_mode) {
      terminal_progress_finish(&progress);
      print_detections(base_name(images.lines[i]), &predicted[i]);
    }
    terminal_progress_update(&progress, options->command, (long)i + 1, (long)image_count);
  }
  terminal_progress_finish(&progress);
  detection_precision precision;
  if (status == NULL)
    status = detection_average_precision(matched, predicted, image_count, &precision);
  if (status != NULL) goto report;
  if (options->debug_mode) printf("======================================================\n\n");
  detection_figures figures = {.runs = image_count,
                               .preprocessing = &preprocessing,
                               .inference = &inference,
                               .precision = &precision};
  print_figures(stdout, &figures);
  fflush(stdout);
  exit_code = options->output_file_path == NULL
                  ? 0
                  : eval_write_figures(options->command, options->output_file_path, print_figures,
                                       &figures);
  goto done;

report:
  fflush(stdout);
  fprintf(stderr, "%s: %s\n", options->command, tflaccel_status_message(status));
  tflaccel_status_free(status);
done:
  for (size_t i = 0; predicted != NULL && i < images.count; ++i) free(predicted[i].objects);
  free(predicted);
  free(matched); /* views of truth's entries */
  text_lines_free(&images);
  text_lines_free(&labels);
  detection_ground_truth_free(&truth);
  run_stats_free(&preprocessing);
  run_stats_free(&inference);
  op_placement_free(&placement);
  model_buffers_destroy(&buffers);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
