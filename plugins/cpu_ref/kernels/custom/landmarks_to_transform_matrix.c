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

#include "core/facts/flexbuffer.h"
#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define L2TM_MAX_SUBSET 512

typedef struct l2tm_params {
  int32_t left, right, output_width, output_height;
  float target_rotation, scale_x, scale_y;
  uint32_t subset_count; /* landmark indices, pairs flattened (odd: last twice) */
  int32_t subset[L2TM_MAX_SUBSET + 1];
} l2tm_params;

static int map_int(const flex_ref *map, const char *key, int32_t *value) {
  flex_ref ref;
  int64_t v;
  if (!flex_map_get(map, key, &ref) || !flex_as_int64(&ref, &v) || v < INT32_MIN || v > INT32_MAX)
    return 0;
  *value = (int32_t)v;
  return 1;
}

static int map_float(const flex_ref *map, const char *key, float *value) {
  flex_ref ref;
  double v;
  if (!flex_map_get(map, key, &ref) || !flex_as_double(&ref, &v)) return 0;
  *value = (float)v;
  return 1;
}

/* The options, checked against a landmark count; 0 and a reason when they
 * are not version 2's or out of range. */
static int l2tm_parse(const tflaccel_op_desc *op, int64_t landmarks, l2tm_params *p, char *reason) {
  flex_ref root, subset;
  if (!flex_root(op->custom_options, op->custom_options_size, &root) || root.type != FLEX_MAP)
    return cpu_reason(reason, "Landmarks2TransformMatrix: custom options are not a flexbuffer map");
  if (!flex_map_get(&root, "subset_idxs", &subset))
    return cpu_reason(reason, "Landmarks2TransformMatrix: version 1 options (no subset_idxs) are "
                              "not supported");
  if (!map_int(&root, "left_rotation_idx", &p->left) ||
      !map_int(&root, "right_rotation_idx", &p->right) ||
      !map_int(&root, "output_width", &p->output_width) ||
      !map_int(&root, "output_height", &p->output_height) ||
      !map_float(&root, "target_rotation_radians", &p->target_rotation) ||
      !map_float(&root, "scale_x", &p->scale_x) || !map_float(&root, "scale_y", &p->scale_y))
    return cpu_reason(reason, "Landmarks2TransformMatrix: an option is missing or not a number");
  size_t count;
  if (!flex_vector_size(&subset, &count) || count == 0 || count > L2TM_MAX_SUBSET)
    return cpu_reason(reason, "Landmarks2TransformMatrix: subset_idxs is not a vector of 1 to %d "
                              "indices", L2TM_MAX_SUBSET);
  for (size_t i = 0; i < count; i++) {
    flex_ref element;
    int64_t index;
    if (!flex_vector_at(&subset, i, &element) || !flex_as_int64(&element, &index) || index < 0 ||
        index >= landmarks)
      return cpu_reason(reason, "Landmarks2TransformMatrix: subset_idxs[%zu] is not a landmark "
                                "index below %lld", i, (long long)landmarks);
    p->subset[i] = (int32_t)index;
  }
  /* An odd count pairs the last index with itself. */
  p->subset_count = (uint32_t)count;
  if (count % 2) p->subset[p->subset_count++] = p->subset[count - 1];
  if (p->left < 0 || p->left >= landmarks || p->right < 0 || p->right >= landmarks)
    return cpu_reason(reason, "Landmarks2TransformMatrix: rotation landmark index out of range");
  if (p->output_width <= 0 || p->output_height <= 0 || !(p->scale_x > 0) || !(p->scale_y > 0))
    return cpu_reason(reason, "Landmarks2TransformMatrix: output size and scales must be positive");
  return 1;
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
  l2tm_params params;
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
  l2tm_params p;
  char reason[TFLACCEL_REASON_SIZE];
  if (!l2tm_parse(context->op, input->dims[1], &p, reason))
    return CPU_STATUS(context, TFLACCEL_INVALID_ARGUMENT, "%s", reason);

  const float *left = landmarks + 3 * p.left, *right = landmarks + 3 * p.right;
  const float rotation = p.target_rotation - atan2f(right[1] - left[1], right[0] - left[0]);
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
    .custom_code = "Landmarks2TransformMatrix",
    .check = l2tm_check,
    .eval = l2tm_eval,
};
