/* CONV_2D on uint8 (per-tensor) and int8 (per-channel) tensors.
 *
 * Requantization is what TFLite 2.9's x86 build computes (q_gemm_requantizer:
 * double rounding, the last tie broken upward for int8 as ruy does, away from
 * zero for uint8; checked bit-exact on real models).
 * Weights are repacked at prepare into int16 (w - w_zero_point) and the
 * input is centred once per run, so the inner loop is an int16 dot product. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct conv_data {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
  int32_t input_zero_point, output_zero_point, act_min, act_max;
  int32_t input_dtype;
  int16_t *weights; /* [out_c][k_h][k_w][in_c], zero point removed */
  int32_t *bias;    /* [out_c] */
  int32_t *multipliers;
  int *shifts;
  int16_t *centred_input; /* scratch: input - zero point */
  q_requantize_fn requantize; /* TFLite's rounding for this dtype */
} conv_data;

static int conv_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  if (input == NULL) return q_reason(reason, "input 0 is missing");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s activations are not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason)) return 0;
  if (!q_check_per_tensor(graph, op, 1, 0, input->dtype, reason)) return 0;
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (filter == NULL) return q_reason(reason, "weights (input 1) are missing");
  if (input->rank != 4 || filter->rank != 4 || output->rank != 4)
    return q_reason(reason, "input, weights and output must be 4-D");
  if (filter->dims[3] != input->dims[3])
    return q_reason(reason, "weights have %d input channels, input has %d (grouped convolution "
                            "is not supported)",
                    filter->dims[3], input->dims[3]);
  if (output->dims[3] != filter->dims[0] || output->dims[0] != input->dims[0])
    return q_reason(reason, "output shape does not match the weights and input");
  if (!q_check_filter(graph, op, 1, input->dtype, 0, filter->dims[0], reason)) return 0;
  if (!q_check_bias(graph, op, 2, filter->dims[0], reason)) return 0;
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;
  if (params->stride_w < 1 || params->stride_h < 1 || params->dilation_w < 1 ||
      params->dilation_h < 1)
    return q_reason(reason, "strides and dilations must be positive");
  if (params->padding != TFLACCEL_PADDING_SAME && params->padding != TFLACCEL_PADDING_VALID)
    return q_reason(reason, "unknown padding %d", params->padding);
  if (params->fused_activation > TFLACCEL_ACT_RELU6)
    return q_reason(reason, "fused activation %d is not supported on quantized tensors",
                    params->fused_activation);
  return 1;
}

static void conv_release(const tflaccel_host_services *host, void *op_data) {
  conv_data *data = op_data;
  if (data == NULL) return;
  q_free(host, data->weights);
  q_free(host, data->bias);
  q_free(host, data->multipliers);
  q_free(host, data->shifts);
  q_free(host, data->centred_input);
  q_free(host, data);
}

static tflaccel_status conv_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_graph_view *graph = context->graph;
  const tflaccel_op_desc *op = context->op;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = q_input(graph, op, 2);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;

  conv_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->batches = input->dims[0];
  data->in_h = input->dims[1];
  data->in_w = input->dims[2];
  data->in_c = input->dims[3];
  data->out_c = filter->dims[0];
  data->k_h = filter->dims[1];
  data->k_w = filter->dims[2];
  data->out_h = output->dims[1];
  data->out_w = output->dims[2];
  data->stride_h = params->stride_h;
  data->stride_w = params->stride_w;
  data->dilation_h = params->dilation_h;
  data->dilation_w = params->dilation_w;
  if (params->padding == TFLACCEL_PADDING_SAME) {
    data->pad_h = q_compute_padding(data->stride_h, data->dilation_h, data->in_h, data->k_h,
                                    data->out_h);
    data->pad_w = q_compute_padding(data->stride_w, data->dilation_w, data->in_w, data->k_w,
                                    data->out_w);
  }
  data->input_dtype = input->dtype;
  data->requantize = q_gemm_requantizer(input->dtype);
  data->input_zero_point = q_zero_point(input);
  data->output_zero_point = q_zero_point(output);
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  q_activation_range(params->fused_activation, q_scale(output), data->output_zero_point, dtype_min,
                     dtype_max, &data->act_min, &data->act_max);

  const size_t weight_count = (size_t)q_element_count(filter);
  const size_t input_count = (size_t)q_element_count(input);
  const size_t channels = (size_t)data->out_c;
  data->weights = q_alloc(context, weight_count * sizeof(int16_t));
  data->bias = q_alloc(context, channels * sizeof(int32_t));
  data->multipliers = q_alloc(context, channels * sizeof(int32_t));
  data->shifts = q_alloc(context, channels * sizeof(int));
  data->centred_input = q_alloc(context, input_count * sizeof(int16_t));
  if (data->weights == NULL || data->bias == NULL || data->multipliers == NULL ||
      data->shifts == NULL || data->centred_input == NULL) {
    conv_release(context->host, data);
    return q_out_of_memory(context, weight_count * sizeof(int16_t) + input_count * 2);
  }
  /* uint8 weights have one zero point; int8 ones are symmetric (zero point 0). */
  const int32_t filter_zero_point = q_zero_point(filter);
  if (filter->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++)
      data->weights[i] = (int16_t)((int32_t)w[i] - filter_zero_point);
  } else {
    const int8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++) data->weights[i] = w[i];
  }
  if (bias != NULL) memcpy(data->bias, bias->data, channels * sizeof(int32_t));
  q_conv_multipliers(input, filter, output, data->out_c, data->multipliers, data->shifts);
  *op_data = data;
  return NULL;
}

typedef struct conv_run {
  const conv_data *data;
  void *output;
} conv_run;

/* int32 dot product that wraps on overflow like TFLite's accumulators. */
static uint32_t dot_int16(const int16_t *a, const int16_t *b, int32_t count) {
  uint32_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    sum0 += (uint32_t)((int32_t)a[i] * b[i]);
    sum1 += (uint32_t)((int32_t)a[i + 1] * b[i + 1]);
    sum2 += (uint32_t)((int32_t)a[i + 2] * b[i + 2]);
    sum3 += (uint32_t)((int32_t)a[i + 3] * b[i + 3]);
  }
  for (; i < count; i++) sum0 += (uint32_t)((int32_t)a[i] * b[i]);
  return sum0 + sum1 + sum2 + sum3;
}

/* Rows [begin, end) of batch * out_h. */
static void conv_rows(void *arg, int64_t begin, int64_t end) {
  const conv_run *run = arg;
  const conv_data *d = run->data;
  for (int64_t row = begin; row < end; row++) {
    const int32_t b = (int32_t)(row / d->out_h);
    const int32_t oy = (int32_t)(row % d->out_h);
    const int32_t in_y0 = oy * d->stride_h - d->pad_h;
    for (int32_t ox = 0; ox < d->out_w; ox++) {
      const int32_t in_x0 = ox * d->stride_w - d->pad_w;
      const int64_t out_base = (((int64_t)b * d->out_h + oy) * d->out_w + ox) * d->out_c;
      for (int32_t oc = 0; oc < d->out_c; oc++) {
        uint32_t acc = (uint32_t)d->bias[oc];
        for (int32_t ky = 0; ky < d->k_h; ky++) {
          const int32_t in_y = in_y0 + ky * d->dilation_h;
          if (in_y < 0 || in_y >= d->in_h) continue;
          for (int32_t kx = 0; kx < d->k_w; kx++) {
            const int32_t in_x = in_x0 + kx * d->dilation_w;
            if (in_x < 0 || in_x >= d->in_w) continue;
            const int16_t *in =
                d->centred_input + (((int64_t)b * d->in_h + in_y) * d->in_w + in_x) * d->in_c;
            const int16_t *w = d->weights + (((int64_t)oc * d->k_h + ky) * d->k_w + kx) * d->in_c;
            acc += dot_int16(in, w, d->in_c);
          }
        }
        int32_t value = d->requantize((int32_t)acc, d->multipliers[oc], d->shifts[oc]);
        value = q_clamp_i32(value + d->output_zero_point, d->act_min, d->act_max);
        if (d->input_dtype == TFLACCEL_DTYPE_UINT8)
          ((uint8_t *)run->output)[out_base + oc] = (uint8_t)value;
        else
          ((int8_t *)run->output)[out_base + oc] = (int8_t)value;
      }
    }
  }
}

static tflaccel_status conv_eval(const cpu_op_context *context) {
  const conv_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  const int64_t input_count = (int64_t)d->batches * d->in_h * d->in_w * d->in_c;
  if (d->input_dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *in = input;
    for (int64_t i = 0; i < input_count; i++)
      d->centred_input[i] = (int16_t)((int32_t)in[i] - d->input_zero_point);
  } else {
    const int8_t *in = input;
    for (int64_t i = 0; i < input_count; i++)
      d->centred_input[i] = (int16_t)((int32_t)in[i] - d->input_zero_point);
  }
  conv_run run = {d, output};
  cpu_parallel_for(context->pool, (int64_t)d->batches * d->out_h, 1, conv_rows, &run);
  return NULL;
}

const cpu_kernel cpu_quant_conv_2d_kernel = {
    .op_code = TFLACCEL_OP_CONV_2D,
    .check = conv_check,
    .prepare = conv_prepare,
    .release = conv_release,
    .eval = conv_eval,
};
