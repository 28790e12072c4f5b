/* TransformLandmarks (MediaPipe, version 2): applies the first two rows of
 * a 4x4 matrix to landmarks [1, N, D] (D = 2 or 3: x, y and optionally z,
 * which is copied): x' = m0*x + m1*y + m2*0 + m3, y' = m4*x + m5*y + m6*0 + m7,
 * in float and in that order. Version 1 (rank-4 landmarks, options
 * dimensions and scale) is declined. */
#include "config.h"

#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int tl_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *matrix = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(matrix, TFLACCEL_DTYPE_FLOAT32, "matrix", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason))
    return 0;
  if (input->rank != 3)
    return cpu_reason(reason, "TransformLandmarks: only version 2 (landmarks [1, N, D]) is "
                              "supported, input has rank %u", input->rank);
  if (input->dims[0] != 1 || (input->dims[2] != 2 && input->dims[2] != 3))
    return cpu_reason(reason, "TransformLandmarks: landmarks must be [1, N, 2] or [1, N, 3]");
  if (!cpu_same_shape(input, output))
    return cpu_reason(reason, "TransformLandmarks: output shape differs from the landmarks'");
  if (cpu_element_count(matrix) != 16)
    return cpu_reason(reason, "TransformLandmarks: input 1 must hold a 4x4 matrix");
  return 1;
}

static tflaccel_status tl_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const float *landmarks = cpu_input_data(context, 0);
  const float *m = cpu_input_data(context, 1);
  float *out = cpu_output_data(context, 0);
  const int32_t count = input->dims[1], dimensions = input->dims[2];
  for (int32_t i = 0; i < count; i++) {
    const float *in = landmarks + (int64_t)i * dimensions;
    float *o = out + (int64_t)i * dimensions;
    const float x = in[0], y = in[1];
    const float tx = m[0] * x + m[1] * y + m[2] * 0.0f + m[3] * 1.0f;
    const float ty = m[4] * x + m[5] * y + m[6] * 0.0f + m[7] * 1.0f;
    o[0] = tx;
    o[1] = ty;
    if (dimensions == 3) o[2] = in[2];
  }
  return NULL;
}

const cpu_kernel cpu_custom_transform_landmarks_kernel = {
    .op_code = TFLACCEL_OP_CUSTOM,
    .custom_code = "TransformLandmarks",
    .check = tl_check,
    .eval = tl_eval,
};
