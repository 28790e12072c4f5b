/* TransformTensorBilinear (MediaPipe, version 2): samples a float tensor
 * [1, H, W, C] at the points a 4x4 matrix maps each output pixel (x, y) to,
 * with bilinear interpolation, into [1, OH, OW, C]. The matrix is first
 * corrected for pixel centres (T -> S * T * A, S shifting by -0.5 and A by
 * +0.5); a point outside [0, W-1] x [0, H-1] gives 0, and neighbours past
 * the edge read as 0. The arithmetic follows MediaPipe's: the dot products
 * in float, the interpolation weights (1 - t) in double. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int ttb_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *matrix = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(matrix, TFLACCEL_DTYPE_FLOAT32, "matrix", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason) ||
      !cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(output, 4, "output", reason))
    return 0;
  if (input->dims[0] != 1 || output->dims[0] != 1)
    return cpu_reason(reason, "TransformTensorBilinear: batch must be 1");
  if (output->dims[3] != input->dims[3])
    return cpu_reason(reason, "TransformTensorBilinear: output has %d channels, input %d",
                      output->dims[3], input->dims[3]);
  if (cpu_element_count(matrix) != 16)
    return cpu_reason(reason, "TransformTensorBilinear: input 1 must hold a 4x4 matrix");
  return 1;
}

static float dot4(const float l[4], float x, float y) {
  return l[0] * x + l[1] * y + l[2] * 0.0f + l[3] * 1.0f;
}

static tflaccel_status ttb_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const float *data = cpu_input_data(context, 0);
  const float *m = cpu_input_data(context, 1);
  float *out = cpu_output_data(context, 0);
  const int32_t in_h = input->dims[1], in_w = input->dims[2], channels = input->dims[3];
  const int32_t out_h = output->dims[1], out_w = output->dims[2];
  float x_row[4] = {m[0], m[1], m[2], m[3]}, y_row[4] = {m[4], m[5], m[6], m[7]};
  /* Pixel-centre correction, evaluated in double as MediaPipe's is. */
  x_row[3] = (float)(x_row[3] + (x_row[0] * 0.5 + x_row[1] * 0.5 - 0.5));
  y_row[3] = (float)(y_row[3] + (y_row[0] * 0.5 + y_row[1] * 0.5 - 0.5));
  for (int32_t oy = 0; oy < out_h; oy++)
    for (int32_t ox = 0; ox < out_w; ox++) {
      const float tx = dot4(x_row, (float)ox, (float)oy), ty = dot4(y_row, (float)ox, (float)oy);
      float *pixel = out + ((int64_t)oy * out_w + ox) * channels;
      const int outside = tx < 0.0f || tx > (float)(in_w - 1) || ty < 0.0f || ty > (float)(in_h - 1);
      if (outside || !isfinite(tx) || !isfinite(ty)) {
        for (int32_t c = 0; c < channels; c++) pixel[c] = 0.0f;
        continue;
      }
      const float fx = floorf(tx), fy = floorf(ty);
      const int32_t x0 = (int32_t)fx, y0 = (int32_t)fy;
      const float right = tx - fx, down = ty - fy;
      for (int32_t c = 0; c < channels; c++) {
#define TTB_READ(y, x) \
  ((y) < 0 || (x) < 0 || (y) >= in_h || (x) >= in_w ? 0.0f \
                                                     : data[((int64_t)(y) * in_w + (x)) * channels + c])
        const float q11 = TTB_READ(y0, x0), q21 = TTB_READ(y0, x0 + 1);
        const float q12 = TTB_READ(y0 + 1, x0), q22 = TTB_READ(y0 + 1, x0 + 1);
#undef TTB_READ
        const float upper = (float)((1.0 - right) * q11 + (double)(right * q21));
        const float lower = (float)((1.0 - right) * q12 + (double)(right * q22));
        pixel[c] = (float)((double)(down * lower) + (1.0 - down) * upper);
      }
    }
  return NULL;
}

const cpu_kernel cpu_custom_transform_tensor_bilinear_kernel = {
    .op_code = TFLACCEL_OP_CUSTOM,
    .custom_code = "TransformTensorBilinear",
    .check = ttb_check,
    .eval = ttb_eval,
};
