/* The ground truth of object detection evaluation as LiteRT's run_eval
 * takes it (--ground_truth_proto): a tflite.evaluation.ObjectDetectionGroundTruth
 * message in protobuf text format, read by a small parser of that one
 * message (no protobuf library needed for four nested messages):
 *
 *   detection_results {
 *     image_name: "street.jpg"   image_id: 7          # image_id optional
 *     objects {
 *       class_id: 1
 *       bounding_box { normalized_top: 0.1 normalized_bottom: 0.5
 *                      normalized_left: 0.2 normalized_right: 0.6 }
 *     }
 *   }
 *
 * Fields may come in any order, separated by white space, ',' or ';';
 * '#' starts a comment; a field that is not of this schema, a missing
 * image_name, class_id or bounding box side, or a box whose bottom is above
 * its top is an error naming the file and line. LiteRT's
 * preprocess_coco_minival writes this form (Python's str() of the message).
 * A binary serialized message is refused, pointing to `protoc --decode`. */
#ifndef TFLACCEL_TOOLS_DETECTION_GROUND_TRUTH_H
#define TFLACCEL_TOOLS_DETECTION_GROUND_TRUTH_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/status.h"

/* A box in coordinates normalized to the image: 0..1 from the top-left. */
typedef struct detection_box {
  float top, bottom, left, right;
} detection_box;

typedef struct detection_object {
  int32_t class_id;
  detection_box box;
  float score; /* 1 for the ground truth */
} detection_object;

typedef struct detection_image {
  char *name;
  detection_object *objects;
  size_t object_count, object_capacity;
} detection_image;

typedef struct detection_ground_truth {
  detection_image *images;
  size_t image_count, image_capacity;
} detection_ground_truth;

tflaccel_status detection_ground_truth_read(const char *path, detection_ground_truth *truth);
/* Parses text as if it were the file `origin` (for tests). */
tflaccel_status detection_ground_truth_parse(const char *text, const char *origin,
                                             detection_ground_truth *truth);
void detection_ground_truth_free(detection_ground_truth *truth);

/* Appends object to image (grown as needed). */
tflaccel_status detection_image_add(detection_image *image, const detection_object *object);

#endif
