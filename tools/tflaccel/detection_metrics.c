#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/detection_metrics.h"

static double overlap(double low_a, double high_a, double low_b, double high_b) {
  double low = low_a > low_b ? low_a : low_b, high = high_a < high_b ? high_a : high_b;
  return high > low ? high - low : 0.0;
}

double detection_iou(const detection_box *a, const detection_box *b) {
  double intersection = overlap(a->left, a->right, b->left, b->right) *
                        overlap(a->top, a->bottom, b->top, b->bottom);
  double area_a = overlap(a->left, a->right, a->left, a->right) *
                  overlap(a->top, a->bottom, a->top, a->bottom);
  double area_b = overlap(b->left, b->right, b->left, b->right) *
                  overlap(b->top, b->bottom, b->top, b->bottom);
  double union_area = area_a + area_b - intersection;
  return union_area > 0.0 ? intersection / union_area : 0.0;
}

/* One detection of the class being scored. */
typedef struct candidate {
  size_t image, object;
  float score;
} candidate;

static int by_falling_score(const void *a, const void *b) {
  const candidate *left = a, *right = b;
  if (left->score != right->score) return left->score > right->score ? -1 : 1;
  /* Equal scores: image order, then output order (a stable, known order). */
  if (left->image != right->image) return left->image < right->image ? -1 : 1;
  return left->object < right->object ? -1 : left->object > right->object;
}

/* AP of one class at one threshold; candidates sorted; matched: one flag
 * per ground-truth object, cleared (images' objects one after another,
 * starting at first[image]); correct_after: scratch per candidate. */
static double class_precision(const detection_image *truth, const detection_image *predicted,
                              const size_t *first, int32_t class_id, size_t truth_count,
                              const candidate *candidates, size_t candidate_count,
                              double threshold, uint8_t *matched, size_t *correct_after) {
  size_t correct = 0;
  for (size_t i = 0; i < candidate_count; ++i) {
    const candidate *c = &candidates[i];
    const detection_box *box = &predicted[c->image].objects[c->object].box;
    const detection_image *image = &truth[c->image];
    double best = -1.0;
    size_t best_object = 0;
    for (size_t o = 0; o < image->object_count; ++o) {
      if (image->objects[o].class_id != class_id || matched[first[c->image] + o]) continue;
      double iou = detection_iou(box, &image->objects[o].box);
      if (iou > best) {
        best = iou;
        best_object = o;
      }
    }
    if (best >= threshold) {
      matched[first[c->image] + best_object] = 1;
      ++correct;
    }
    correct_after[i] = correct;
  }
  /* Highest precision at recall r or beyond, for r = 0, 0.01, ..., 1:
   * walk the detections backwards keeping the best precision so far. */
  double sum = 0.0, best_precision = 0.0;
  long level = DETECTION_RECALL_POINTS;
  for (size_t i = candidate_count; i-- > 0;) {
    /* Levels above this detection's recall take the best of those after. */
    while (level >= 0 && (double)correct_after[i] * DETECTION_RECALL_POINTS <
                             (double)level * (double)truth_count) {
      sum += best_precision;
      --level;
    }
    double precision = (double)correct_after[i] / (double)(i + 1);
    if (precision > best_precision) best_precision = precision;
  }
  for (; level >= 0; --level) sum += best_precision;
  return sum / (DETECTION_RECALL_POINTS + 1);
}

tflaccel_status detection_average_precision(const detection_image *truth,
                                            const detection_image *predicted, size_t image_count,
                                            detection_precision *result) {
  memset(result, 0, sizeof *result);
  for (int t = 0; t < DETECTION_THRESHOLD_COUNT; ++t) result->iou_threshold[t] = 0.5 + 0.05 * t;
  size_t truth_total = 0, predicted_total = 0;
  int32_t max_class = -1;
  for (size_t i = 0; i < image_count; ++i) {
    truth_total += truth[i].object_count;
    predicted_total += predicted[i].object_count;
    for (size_t o = 0; o < truth[i].object_count; ++o)
      if (truth[i].objects[o].class_id > max_class) max_class = truth[i].objects[o].class_id;
  }
  if (truth_total == 0)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "the ground truth of the images evaluated has no object");
  size_t *first = calloc(image_count + 1, sizeof *first);
  uint8_t *matched = calloc(truth_total, 1);
  candidate *candidates = calloc(predicted_total + 1, sizeof *candidates);
  size_t *correct_after = calloc(predicted_total + 1, sizeof *correct_after);
  tflaccel_status status = NULL;
  if (first == NULL || matched == NULL || candidates == NULL || correct_after == NULL)
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; status == NULL && i < image_count; ++i)
    first[i + 1] = first[i] + truth[i].object_count;
  double sums[DETECTION_THRESHOLD_COUNT] = {0};
  for (int32_t class_id = 0; status == NULL && class_id <= max_class; ++class_id) {
    size_t truth_count = 0, count = 0;
    for (size_t i = 0; i < image_count; ++i)
      for (size_t o = 0; o < truth[i].object_count; ++o)
        truth_count += truth[i].objects[o].class_id == class_id;
    if (truth_count == 0) continue; /* AP undefined: not in the means */
    for (size_t i = 0; i < image_count; ++i)
      for (size_t o = 0; o < predicted[i].object_count; ++o)
        if (predicted[i].objects[o].class_id == class_id)
          candidates[count++] = (candidate){i, o, predicted[i].objects[o].score};
    qsort(candidates, count, sizeof *candidates, by_falling_score);
    for (int t = 0; t < DETECTION_THRESHOLD_COUNT; ++t) {
      memset(matched, 0, truth_total);
      sums[t] += class_precision(truth, predicted, first, class_id, truth_count, candidates, count,
                                 /* an IoU equal to the threshold but for rounding matches */
                                 result->iou_threshold[t] - 1e-9, matched, correct_after);
    }
    result->class_count++;
  }
  if (status == NULL) {
    for (int t = 0; t < DETECTION_THRESHOLD_COUNT; ++t) {
      result->average_precision[t] = sums[t] / (double)result->class_count;
      result->mean_average_precision += result->average_precision[t] / DETECTION_THRESHOLD_COUNT;
    }
  }
  free(first);
  free(matched);
  free(candidates);
  free(correct_after);
  return status;
}
