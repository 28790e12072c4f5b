/* COCO-style average precision of object detections, as LiteRT's
 * run_eval reports it: for each IoU threshold 0.5, 0.55, ..., 0.95 and each
 * class with ground truth, detections are taken by falling score and each
 * matches the unmatched ground-truth box of its image and class it overlaps
 * most, when that IoU reaches the threshold (else it is a false positive);
 * the class's AP is the mean over recall levels 0, 0.01, ..., 1 of the
 * highest precision at that recall or beyond. A threshold's AP is the mean
 * over classes; the overall mAP the mean over thresholds. */
#ifndef TFLACCEL_TOOLS_DETECTION_METRICS_H
#define TFLACCEL_TOOLS_DETECTION_METRICS_H

#include <stddef.h>

#include "tools/tflaccel/detection_ground_truth.h"

#define DETECTION_THRESHOLD_COUNT 10
#define DETECTION_RECALL_POINTS 100

typedef struct detection_precision {
  double iou_threshold[DETECTION_THRESHOLD_COUNT];
  double average_precision[DETECTION_THRESHOLD_COUNT];
  double mean_average_precision;
  size_t class_count; /* classes with ground truth, that the means are over */
} detection_precision;

/* IoU of two boxes; 0 when their union is empty. */
double detection_iou(const detection_box *a, const detection_box *b);

/* truth[i] and predicted[i] are the objects of image i. An error when the
 * ground truth has no object at all (AP is undefined then). */
tflaccel_status detection_average_precision(const detection_image *truth,
                                            const detection_image *predicted, size_t image_count,
                                            detection_precision *result);

#endif
