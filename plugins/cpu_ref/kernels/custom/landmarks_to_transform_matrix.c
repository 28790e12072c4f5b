/* Landmarks2TransformMatrix (MediaPipe, version 2): from 3-D landmarks
 * [1, N, 3] to the 4x4 matrix [1, 4, 4] that maps output pixels of a crop
 * to input pixels. The crop is rotated so that the line from landmark
 * left_rotation_idx to right_rotation_idx makes target_rotation_radians;
 * its centre and size are those of the bounding box of the subset_idxs
 * landmarks in the rotated frame; the matrix is
 *   shift(centre) * rotate(-rotation) * scale(scale_x * width / output_width,
 *   scale_y * height / output_height) * shift(-output_width/2, -output_height/2).
 * All in float, products summed in MediaPipe's order. Version 1 (options
 * input_hw, subset, landmarks_range...) is declined. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/facts/landmarks_to_transform_matrix.h"
#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

/* The options, checked against a landmark count (read by the facts
 * library, which the GPU layer shares); 0 and a reason when they are not
 * version 2's or out of range. */
static int l2tm_parse(const tflaccel_op_desc *op, int64_t landmarks,
                      landmarks_to_transform_matrix_options *p, char *reason) {
  return landmarks_to_transform_matrix_options_parse(op->custom_options, op->custom_options_size,
                                                     landmarks, p, reason, TFLACCEL_REASON_SIZE);
}

static int l2tm_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason) ||
      !cpu_check_rank(input, 3, "input", reason))
    return 0;
  if (input->dims[0] != 1 || input->dims[2] != 3)
    return cpu_reason(reason, "Landmarks2TransformMatrix: input must be [1, N, 3]");
  if (cpu_element_count(output) != 16)
    return cpu_reason(reason, "Landmarks2TransformMatrix: output must hold a 4x4 matrix");
  landmarks_to_transform_matrix_options params;
  return l2tm_parse(op, input->dims[1], &params, reason);
}

/* out = a * b, 4x4 row-major, each sum in float from k = 0. */
static void mat4_multiply(const float a[16], const float b[16], float out[16]) {
  float result[16];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) {
      float sum = 0.0f;
      for (int k = 0; k < 4; k++) sum += a[r * 4 + k] * b[k * 4 + c];
      result[r * 4 + c] = sum;
    }
  memcpy(out, result, sizeof result);
}

/* m (3x3, row-major) times (x, y, z). */
static void mat3_apply(const float m[9], const float v[3], float out[3]) {
  for (int r = 0; r < 3; r++) {
    float sum = 0.0f;
    for (int k = 0; k < 3; k++) sum += m[r * 3 + k] * v[k];
    out[r] = sum;
  }
}

static tflaccel_status l2tm_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const float *landmarks = cpu_input_data(context, 0);
  float *output = cpu_output_data(context, 0);
  landmarks_to_transform_matrix_options p;
  char reason[TFLACCEL_REASON_SIZE];
  if (!l2tm_parse(context->op, input->dims[1], &p, reason))
    return CPU_STATUS(context, TFLACCEL_INVALID_ARGUMENT, "%s", reason);

  const float *left = landmarks + 3 * p.left_rotation_idx;
  const float *right = landmarks + 3 * p.right_rotation_idx;
  const float rotation = p.target_rotation_radians - atan2f(right[1] - left[1], right[0] - left[0]);
  const float rotate[9] = {cosf(rotation), -sinf(rotation), 0.0f,
                           sinf(rotation), cosf(rotation),  0.0f,
                           0.0f,           0.0f,            1.0f};
  const float unrotate[9] = {cosf(-rotation), -sinf(-rotation), 0.0f,
                             sinf(-rotation), cosf(-rotation),  0.0f,
                             0.0f,            0.0f,             1.0f};
  float max[3] = {0}, min[3] = {0};
  for (uint32_t i = 0; i < p.subset_count; i++) {
    const float *landmark = landmarks + 3 * p.subset[i];
    const float point[3] = {landmark[0], landmark[1], 1.0f};
    float rotated[3];
    mat3_apply(rotate, point, rotated);
    if (i == 0) {
      memcpy(max, rotated, sizeof max);
      memcpy(min, rotated, sizeof min);
      continue;
    }
    if (max[0] < rotated[0]) max[0] = rotated[0];
    if (max[1] < rotated[1]) max[1] = rotated[1];
    if (min[0] > rotated[0]) min[0] = rotated[0];
    if (min[1] > rotated[1]) min[1] = rotated[1];
  }
  const float crop_width = max[0] - min[0], crop_height = max[1] - min[1];
  const float middle[3] = {(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, min[2]};
  float centre[3];
  mat3_apply(unrotate, middle, centre);

  float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const float shift[16] = {1, 0, 0, centre[0], 0, 1, 0, centre[1], 0, 0, 1, 0, 0, 0, 0, 1};
  mat4_multiply(t, shift, t);
  const float r = -rotation;
  const float turn[16] = {cosf(r), -sinf(r), 0, 0, sinf(r), cosf(r), 0, 0,
                          0,       0,        1, 0, 0,       0,       0, 1};
  mat4_multiply(t, turn, t);
  const float scale_x = p.scale_x * crop_width / (float)p.output_width;
  const float scale_y = p.scale_y * crop_height / (float)p.output_height;
  const float scale[16] = {scale_x, 0, 0, 0, 0, scale_y, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  mat4_multiply(t, scale, t);
  const float shift_x = (float)(-1.0 * (p.output_width / 2.0));
  const float shift_y = (float)(-1.0 * (p.output_height / 2.0));
  const float shift2[16] = {1, 0, 0, shift_x, 0, 1, 0, shift_y, 0, 0, 1, 0, 0, 0, 0, 1};
  mat4_multiply(t, shift2, t);
  memcpy(output, t, sizeof t);
  return NULL;
}

const cpu_kernel cpu_custom_landmarks_to_transform_matrix_kernel = {
    .op_code = TFLACCEL_OP_CUSTOM,
    .custom_code = LANDMARKS_TO_TRANSFORM_MATRIX_CUSTOM_CODE,
    .check = l2tm_check,
    .eval = l2tm_eval,
};
