/* RESIZE_BILINEAR on quantized tensors (same quantization in and out).
 *  - uint8: TFLite's optimized kernel, which interpolates in float (weights
 *    from ComputeInterpolationValues) and rounds by adding 0.5;
 *  - int8/int16: TFLite's ResizeBilinearInteger, in 10-bit fixed point. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct resize_data {
  int32_t dtype;
  int32_t batches, in_h, in_w, depth, out_h, out_w;
  int align_corners, half_pixel_centers;
} resize_data;

static int resize_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!q_check_per_tensor(graph, op, 0, 0, -1, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input->dtype, reason))
    return 0;
  if (input->rank != 4 || output->rank != 4 || input->dims[0] != output->dims[0] ||
      input->dims[3] != output->dims[3])
    return q_reason(reason, "input and output must be 4-D with equal batch and depth");
  const tflaccel_tensor_desc *size = q_input(graph, op, 1);
  if (size != NULL && (size->flags & TFLACCEL_TENSOR_CONSTANT) && size->data != NULL &&
      size->dtype == TFLACCEL_DTYPE_INT32 && q_element_count(size) == 2) {
    const int32_t *values = size->data;
    if (values[0] != output->dims[1] || values[1] != output->dims[2])
      return q_reason(reason, "size %dx%d does not match the output %dx%d", values[0], values[1],
                      output->dims[1], output->dims[2]);
  }
  const tflaccel_resize_params *params = &op->params->resize;
  if (params->align_corners && params->half_pixel_centers)
    return q_reason(reason, "align_corners and half_pixel_centers are exclusive");
  return 1;
}

static void resize_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status resize_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  resize_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->dtype = input->dtype;
  data->batches = input->dims[0];
  data->in_h = input->dims[1];
  data->in_w = input->dims[2];
  data->depth = input->dims[3];
  data->out_h = output->dims[1];
  data->out_w = output->dims[2];
  data->align_corners = context->op->params->resize.align_corners;
  data->half_pixel_centers = context->op->params->resize.half_pixel_centers;
  *op_data = data;
  return NULL;
}

static float resize_scale(int align_corners, int32_t in_size, int32_t out_size) {
  if (align_corners && out_size > 1) return (float)(in_size - 1) / (float)(out_size - 1);
  return (float)in_size / (float)out_size;
}

static void interpolation_values(int32_t index, float scale, int half_pixel_centers,
                                 int32_t in_size, float *scaled, int32_t *lower,
                                 int32_t *upper) {
  const float value = (float)index;
  *scaled = half_pixel_centers ? (value + 0.5f) * scale - 0.5f : value * scale;
  const int32_t floor_value = (int32_t)floorf(*scaled);
  const int32_t ceil_value = (int32_t)ceilf(*scaled);
  *lower = floor_value > 0 ? floor_value : 0;
  *upper = ceil_value < in_size - 1 ? ceil_value : in_size - 1;
}

static void resize_uint8(const resize_data *d, const uint8_t *input, uint8_t *output) {
  const float height_scale = resize_scale(d->align_corners, d->in_h, d->out_h);
  const float width_scale = resize_scale(d->align_corners, d->in_w, d->out_w);
  uint8_t *out = output;
  for (int32_t b = 0; b < d->batches; b++) {
    for (int32_t y = 0; y < d->out_h; y++) {
      float in_y;
      int32_t y0, y1;
      interpolation_values(y, height_scale, d->half_pixel_centers, d->in_h, &in_y, &y0, &y1);
      for (int32_t x = 0; x < d->out_w; x++) {
        float in_x;
        int32_t x0, x1;
        interpolation_values(x, width_scale, d->half_pixel_centers, d->in_w, &in_x, &x0, &x1);
        const int64_t row0 = ((int64_t)b * d->in_h + y0) * d->in_w;
        const int64_t row1 = ((int64_t)b * d->in_h + y1) * d->in_w;
        const int64_t offset[4] = {(row0 + x0) * d->depth, (row0 + x1) * d->depth,
                                   (row1 + x0) * d->depth, (row1 + x1) * d->depth};
        const float dy = in_y - (float)y0, dx = in_x - (float)x0;
        const float scale[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
        for (int32_t c = 0; c < d->depth; c++) {
          const float value = input[offset[0] + c] * scale[0] + input[offset[1] + c] * scale[1] +
                              input[offset[2] + c] * scale[2] + input[offset[3] + c] * scale[3] +
                              0.5f;
          *out++ = (uint8_t)value;
        }
      }
    }
  }
}

static int32_t scale_10(int align_corners, int32_t in_size, int32_t out_size) {
  if (align_corners && out_size > 1)
    return ((1 << 10) * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
  return ((1 << 10) * in_size + out_size / 2) / out_size;
}

static void interpolation_values_10(int32_t index, int32_t scale, int half_pixel_centers,
                                    int32_t in_size, int32_t *scaled, int32_t *lower,
                                    int32_t *upper) {
  *scaled = half_pixel_centers ? index * scale + scale / 2 - (1 << 9) : index * scale;
  const int32_t low = *scaled / (1 << 10); /* truncating, as TFLite */
  const int32_t high = (*scaled + (1 << 10) - 1) / (1 << 10);
  *lower = low > 0 ? low : 0;
  *upper = high < in_size - 1 ? high : in_size - 1;
}

static int64_t integer_load(const void *data, int32_t dtype, int64_t index) {
  return dtype == TFLACCEL_DTYPE_INT8 ? ((const int8_t *)data)[index]
                                      : ((const int16_t *)data)[index];
}

static void resize_integer(const resize_data *d, const void *input, void *output) {
  const int32_t height_scale = scale_10(d->align_corners, d->in_h, d->out_h);
  const int32_t width_scale = scale_10(d->align_corners, d->in_w, d->out_w);
  int64_t out = 0;
  for (int32_t b = 0; b < d->batches; b++) {
    for (int32_t y = 0; y < d->out_h; y++) {
      int32_t in_y, y0, y1;
      interpolation_values_10(y, height_scale, d->half_pixel_centers, d->in_h, &in_y, &y0, &y1);
      for (int32_t x = 0; x < d->out_w; x++) {
        int32_t in_x, x0, x1;
        interpolation_values_10(x, width_scale, d->half_pixel_centers, d->in_w, &in_x, &x0, &x1);
        const int64_t row0 = ((int64_t)b * d->in_h + y0) * d->in_w;
        const int64_t row1 = ((int64_t)b * d->in_h + y1) * d->in_w;
        const int64_t wy1 = in_y - (1 << 10) * y0, wy0 = (1 << 10) - wy1;
        const int64_t wx1 = in_x - (1 << 10) * x0, wx0 = (1 << 10) - wx1;
        for (int32_t c = 0; c < d->depth; c++) {
          const int64_t sum =
              integer_load(input, d->dtype, (row0 + x0) * d->depth + c) * wy0 * wx0 +
              integer_load(input, d->dtype, (row1 + x0) * d->depth + c) * wy1 * wx0 +
              integer_load(input, d->dtype, (row0 + x1) * d->depth + c) * wy0 * wx1 +
              integer_load(input, d->dtype, (row1 + x1) * d->depth + c) * wy1 * wx1;
          const int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          const int64_t value = (sum + round) / (1 << 20);
          if (d->dtype == TFLACCEL_DTYPE_INT8)
            ((int8_t *)output)[out++] = (int8_t)value;
          else
            ((int16_t *)output)[out++] = (int16_t)value;
        }
      }
    }
  }
}

static tflaccel_status resize_eval(const cpu_op_context *context) {
  const resize_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  if (d->dtype == TFLACCEL_DTYPE_UINT8)
    resize_uint8(d, input, output);
  else
    resize_integer(d, input, output);
  return NULL;
}

const cpu_kernel cpu_quant_resize_bilinear_kernel = {
    .op_code = TFLACCEL_OP_RESIZE_BILINEAR,
    .check = resize_check,
    .prepare = resize_prepare,
    .release = resize_release,
    .eval = resize_eval,
};
