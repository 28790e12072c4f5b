/* AVERAGE_POOL_2D and MAX_POOL_2D on uint8/int8 tensors. Input and output
 * share their quantization (TFLite requires it), so no rescaling happens:
 * averages divide with rounding half away from zero over the window's cells
 * that lie inside the input. */
#include "config.h"

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct pool_data {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
  int32_t filter_h, filter_w, stride_h, stride_w, pad_h, pad_w;
  int32_t act_min, act_max;
  int32_t dtype;
  int is_average;
} pool_data;

static int pool_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s is not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, input->dtype, reason))
    return 0;
  if (q_scale(input) != q_scale(output) || q_zero_point(input) != q_zero_point(output))
    return q_reason(reason, "input and output quantization differ (TFLite requires them equal)");
  if (input->rank != 4 || output->rank != 4 || input->dims[0] != output->dims[0] ||
      input->dims[3] != output->dims[3])
    return q_reason(reason, "input and output must be 4-D with equal batch and depth");
  const tflaccel_pool_2d_params *params = &op->params->pool_2d;
  if (params->stride_w < 1 || params->stride_h < 1 || params->filter_w < 1 ||
      params->filter_h < 1)
    return q_reason(reason, "strides and filter sizes must be positive");
  if (params->fused_activation > TFLACCEL_ACT_RELU6)
    return q_reason(reason, "fused activation %d is not supported on quantized tensors",
                    params->fused_activation);
  return 1;
}

static void pool_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status pool_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  const tflaccel_pool_2d_params *params = &context->op->params->pool_2d;
  pool_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->batches = input->dims[0];
  data->in_h = input->dims[1];
  data->in_w = input->dims[2];
  data->depth = input->dims[3];
  data->out_h = output->dims[1];
  data->out_w = output->dims[2];
  data->filter_h = params->filter_h;
  data->filter_w = params->filter_w;
  data->stride_h = params->stride_h;
  data->stride_w = params->stride_w;
  if (params->padding == TFLACCEL_PADDING_SAME) {
    data->pad_h = conv_padding_before(data->in_h, data->out_h, data->filter_h, data->stride_h, 1);
    data->pad_w = conv_padding_before(data->in_w, data->out_w, data->filter_w, data->stride_w, 1);
  }
  data->dtype = input->dtype;
  data->is_average = context->op->code == TFLACCEL_OP_AVERAGE_POOL_2D;
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  q_activation_range(params->fused_activation, q_scale(output), q_zero_point(output), dtype_min,
                     dtype_max, &data->act_min, &data->act_max);
  *op_data = data;
  return NULL;
}

static int32_t load(const void *data, int32_t dtype, int64_t index) {
  return dtype == TFLACCEL_DTYPE_UINT8 ? ((const uint8_t *)data)[index]
                                       : ((const int8_t *)data)[index];
}

static tflaccel_status pool_eval(const cpu_op_context *context) {
  const pool_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  for (int32_t b = 0; b < d->batches; b++) {
    for (int32_t oy = 0; oy < d->out_h; oy++) {
      const int32_t origin_y = oy * d->stride_h - d->pad_h;
      const int32_t y_start = origin_y < 0 ? -origin_y : 0;
      const int32_t y_end =
          d->filter_h < d->in_h - origin_y ? d->filter_h : d->in_h - origin_y;
      for (int32_t ox = 0; ox < d->out_w; ox++) {
        const int32_t origin_x = ox * d->stride_w - d->pad_w;
        const int32_t x_start = origin_x < 0 ? -origin_x : 0;
        const int32_t x_end =
            d->filter_w < d->in_w - origin_x ? d->filter_w : d->in_w - origin_x;
        const int32_t count = (x_end - x_start) * (y_end - y_start);
        const int64_t out_base = (((int64_t)b * d->out_h + oy) * d->out_w + ox) * d->depth;
        for (int32_t c = 0; c < d->depth; c++) {
          int32_t acc = d->is_average ? 0 : (d->dtype == TFLACCEL_DTYPE_UINT8 ? 0 : -128);
          for (int32_t fy = y_start; fy < y_end; fy++) {
            const int64_t row = ((int64_t)b * d->in_h + origin_y + fy) * d->in_w;
            for (int32_t fx = x_start; fx < x_end; fx++) {
              const int32_t value = load(input, d->dtype, (row + origin_x + fx) * d->depth + c);
              if (d->is_average)
                acc += value;
              else if (value > acc)
                acc = value;
            }
          }
          if (d->is_average && count > 0)
            acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          acc = q_clamp_i32(acc, d->act_min, d->act_max);
          if (d->dtype == TFLACCEL_DTYPE_UINT8)
            ((uint8_t *)output)[out_base + c] = (uint8_t)acc;
          else
            ((int8_t *)output)[out_base + c] = (int8_t)acc;
        }
      }
    }
  }
  return NULL;
}

const cpu_kernel cpu_quant_average_pool_kernel = {
    .op_code = TFLACCEL_OP_AVERAGE_POOL_2D,
    .check = pool_check,
    .prepare = pool_prepare,
    .release = pool_release,
    .eval = pool_eval,
};

const cpu_kernel cpu_quant_max_pool_kernel = {
    .op_code = TFLACCEL_OP_MAX_POOL_2D,
    .check = pool_check,
    .prepare = pool_prepare,
    .release = pool_release,
    .eval = pool_eval,
};
