/* CONV_2D on uint8 (per-tensor) and int8 (per-channel) tensors.
 *
 * Requantization is what TFLite 2.9's x86 build computes (q_gemm_requantizer:
 * double rounding, the last tie broken upward for int8 as ruy does, away from
 * zero for uint8; checked bit-exact on real models).
 * Weights are repacked at prepare into int16 (w - w_zero_point) and the
 * input is centred once per run, so the inner loop is an int16 dot product. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"
#include "plugins/cpu_ref/kernels/quantized/weighted_op.h"

typedef struct conv_data {
  /* First member (see q_weighted_op_data_create); weights [out_c][k_h][k_w][in_c]. */
  q_weighted_op weighted;
  q_conv_window window;
  int32_t out_c;
  q_requantize_fn requantize; /* TFLite's rounding for this dtype */
} conv_data;

static int conv_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_weighted_check_activations(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
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
  if (!q_weighted_check_operands(graph, op, 0, filter->dims[0], reason)) return 0;
  return q_check_conv_params(op, reason);
}

static tflaccel_status conv_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *filter = q_input(context->graph, context->op, 1);
  tflaccel_status status =
      q_weighted_op_data_create(context, sizeof(conv_data), filter->dims[0], op_data);
  if (status != NULL) return status;
  conv_data *data = *op_data;
  q_conv_window_init(&data->window, context, filter->dims[1], filter->dims[2]);
  data->out_c = filter->dims[0];
  data->requantize = q_gemm_requantizer(input->dtype);
  return NULL;
}

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
  const q_weighted_run *run = arg;
  const conv_data *d = run->op_data;
  const q_conv_window *window = &d->window;
  const q_weighted_op *weighted = &d->weighted;
  for (int64_t row = begin; row < end; row++) {
    const int32_t b = (int32_t)(row / window->out_h);
    const int32_t oy = (int32_t)(row % window->out_h);
    const int32_t in_y0 = oy * window->stride_h - window->pad_h;
    for (int32_t ox = 0; ox < window->out_w; ox++) {
      const int32_t in_x0 = ox * window->stride_w - window->pad_w;
      const int64_t out_base =
          (((int64_t)b * window->out_h + oy) * window->out_w + ox) * d->out_c;
      for (int32_t oc = 0; oc < d->out_c; oc++) {
        uint32_t acc = (uint32_t)weighted->bias[oc];
        for (int32_t ky = 0; ky < window->k_h; ky++) {
          const int32_t in_y = in_y0 + ky * window->dilation_h;
          if (in_y < 0 || in_y >= window->in_h) continue;
          for (int32_t kx = 0; kx < window->k_w; kx++) {
            const int32_t in_x = in_x0 + kx * window->dilation_w;
            if (in_x < 0 || in_x >= window->in_w) continue;
            const int16_t *in =
                weighted->centred_input +
                (((int64_t)b * window->in_h + in_y) * window->in_w + in_x) * window->in_c;
            const int16_t *w =
                weighted->weights +
                (((int64_t)oc * window->k_h + ky) * window->k_w + kx) * window->in_c;
            acc += dot_int16(in, w, window->in_c);
          }
        }
        q_weighted_store(weighted, run->output, out_base + oc,
                         d->requantize((int32_t)acc, weighted->multipliers[oc],
                                       weighted->shifts[oc]));
      }
    }
  }
}

static tflaccel_status conv_eval(const cpu_op_context *context) {
  const conv_data *d = context->op_data;
  return q_weighted_eval(context, (int64_t)d->window.batches * d->window.out_h, 1, conv_rows);
}

const cpu_kernel cpu_quant_conv_2d_kernel = {
    .op_code = TFLACCEL_OP_CONV_2D,
    .check = conv_check,
    .prepare = conv_prepare,
    .release = q_weighted_op_data_release,
    .eval = conv_eval,
};
