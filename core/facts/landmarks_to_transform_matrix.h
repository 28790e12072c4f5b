/* MediaPipe's Landmarks2TransformMatrix custom op (version 2): its
 * custom_code and its FlexBuffers options, read once for cpu_ref's kernel
 * and the GPU layer's alike. The options name two landmarks whose line
 * sets the crop's rotation (left_rotation_idx, right_rotation_idx,
 * target_rotation_radians), the landmarks whose bounding box sets its
 * centre and size (subset_idxs, a vector of pairs flattened), the crop's
 * size in pixels (output_width, output_height) and its scales (scale_x,
 * scale_y). Version 1 (options input_hw, subset, landmarks_range...) has
 * no subset_idxs and is refused. */
#ifndef TFLACCEL_FACTS_LANDMARKS_TO_TRANSFORM_MATRIX_H
#define TFLACCEL_FACTS_LANDMARKS_TO_TRANSFORM_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#define LANDMARKS_TO_TRANSFORM_MATRIX_CUSTOM_CODE "Landmarks2TransformMatrix"
/* Above this many subset indices the options are taken as corrupt. */
#define LANDMARKS_TO_TRANSFORM_MATRIX_MAX_SUBSET 512

typedef struct landmarks_to_transform_matrix_options {
  int32_t left_rotation_idx, right_rotation_idx;
  int32_t output_width, output_height;
  float target_rotation_radians, scale_x, scale_y;
  /* The landmark indices of subset_idxs in order; an odd count is made
   * even by repeating the last (MediaPipe pairs them), so subset_count may
   * be one more than the options hold. */
  uint32_t subset_count;
  int32_t subset[LANDMARKS_TO_TRANSFORM_MATRIX_MAX_SUBSET + 1];
} landmarks_to_transform_matrix_options;

/* Reads version 2's options and checks every index against `landmarks`
 * (the N of the input [1, N, 3]): 1, or 0 with a one-line reason in
 * reason[reason_size] (starting "Landmarks2TransformMatrix: "). */
int landmarks_to_transform_matrix_options_parse(const void *custom_options, size_t size,
                                                int64_t landmarks,
                                                landmarks_to_transform_matrix_options *options,
                                                char *reason, size_t reason_size);

#endif
