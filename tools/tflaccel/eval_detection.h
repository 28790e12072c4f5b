/* tflaccel eval --task object_detection: LiteRT's run_eval for COCO-style
 * object detection. Each image of the images directory (in file-name
 * order, as for classification) is paired with the ground truth's entry of
 * its file name (detection_ground_truth.h; an image without one has no
 * object, an entry naming no image there is an error), resized
 * whole (no crop) to the model's input and normalized as for
 * classification, and run; the model's outputs are those of TFLite's SSD
 * post-processing (TFLite_Detection_PostProcess): boxes [1, N, 4] as
 * normalized top, left, bottom, right, classes [1, N], scores [1, N] and
 * the detection count [1], all float32. A detected class c is class id
 * c + 1 of the ground truth (run_eval's class_offset: line 0 of the labels
 * is the background). Prints run_eval's lines: the latencies, the average
 * precision at IoU 0.5 to 0.95 and the overall mAP (detection_metrics.h). */
#ifndef TFLACCEL_TOOLS_EVAL_DETECTION_H
#define TFLACCEL_TOOLS_EVAL_DETECTION_H

#include "tools/tflaccel/cli_options.h"

/* Ground-truth class id of detected class 0. */
#define DETECTION_CLASS_OFFSET 1

typedef struct eval_detection_options {
  const cli_compile_flags *compile;
  const char *command; /* for messages: "tflaccel eval" */
  const char *model_path, *images_path, *ground_truth_proto, *model_output_labels;
  const char *output_file_path; /* NULL: stdout only */
  long num_images;              /* the first N images of the directory; 0: all */
  int debug_mode;               /* print every image's detections */
} eval_detection_options;

/* Runs the evaluation; returns the exit code (0, or 1 after printing one
 * line "<command>: <problem>"). */
int eval_detection_run(const eval_detection_options *options);

#endif
