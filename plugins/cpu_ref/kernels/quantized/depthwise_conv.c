/* DEPTHWISE_CONV_2D on uint8 (per-tensor) and int8 (per-channel) tensors.
 * TFLite computes it with its own kernels, so requantization uses TFLite's
 * double-rounding MultiplyByQuantizedMultiplier. Output channel c reads
 * input channel c / depth_multiplier. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"
#include "plugins/cpu_ref/kernels/quantized/weighted_op.h"

#define DEPTHWISE_BLOCK 64 /* output channels accumulated together */

typedef struct depthwise_data {
  /* First member (see q_weighted_op_data_create); weights [k_h][k_w][out_c]. */
  q_weighted_op weighted;
  q_conv_window window;
  int32_t out_c, multiplier;
} depthwise_data;

static int depthwise_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                           char *reason) {
  if (!q_weighted_check_activations(graph, op, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (filter == NULL) return q_reason(reason, "weights (input 1) are missing");
  if (input->rank != 4 || filter->rank != 4 || output->rank != 4)
    return q_reason(reason, "input, weights and output must be 4-D");
  const int32_t out_c = filter->dims[3];
  if (filter->dims[0] != 1 || output->dims[3] != out_c || output->dims[0] != input->dims[0])
    return q_reason(reason, "weights [%d,%d,%d,%d] do not match the output", filter->dims[0],
                    filter->dims[1], filter->dims[2], filter->dims[3]);
  if (input->dims[3] <= 0 || out_c % input->dims[3] != 0)
    return q_reason(reason, "%d output channels are not a multiple of %d input channels", out_c,
                    input->dims[3]);
  if (!q_weighted_check_operands(graph, op, 3, out_c, reason)) return 0;
  return q_check_conv_params(op, reason);
}

static tflaccel_status depthwise_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *filter = q_input(context->graph, context->op, 1);
  tflaccel_status status =
      q_weighted_op_data_create(context, sizeof(depthwise_data), filter->dims[3], op_data);
  if (status != NULL) return status;
  depthwise_data *data = *op_data;
  q_conv_window_init(&data->window, context, filter->dims[1], filter->dims[2]);
  data->out_c = filter->dims[3];
  data->multiplier = data->out_c / data->window.in_c;
  return NULL;
}

static void depthwise_rows(void *arg, int64_t begin, int64_t end) {
  const q_weighted_run *run = arg;
  const depthwise_data *d = run->op_data;
  const q_conv_window *window = &d->window;
  const q_weighted_op *weighted = &d->weighted;
  uint32_t acc[DEPTHWISE_BLOCK]; /* wraps like TFLite's int32 accumulators */
  for (int64_t row = begin; row < end; row++) {
    const int32_t b = (int32_t)(row / window->out_h);
    const int32_t oy = (int32_t)(row % window->out_h);
    const int32_t in_y0 = oy * window->stride_h - window->pad_h;
    for (int32_t ox = 0; ox < window->out_w; ox++) {
      const int32_t in_x0 = ox * window->stride_w - window->pad_w;
      const int64_t out_base =
          (((int64_t)b * window->out_h + oy) * window->out_w + ox) * d->out_c;
      for (int32_t c0 = 0; c0 < d->out_c; c0 += DEPTHWISE_BLOCK) {
        const int32_t block = d->out_c - c0 < DEPTHWISE_BLOCK ? d->out_c - c0 : DEPTHWISE_BLOCK;
        for (int32_t i = 0; i < block; i++) acc[i] = (uint32_t)weighted->bias[c0 + i];
        for (int32_t ky = 0; ky < window->k_h; ky++) {
          const int32_t in_y = in_y0 + ky * window->dilation_h;
          if (in_y < 0 || in_y >= window->in_h) continue;
          for (int32_t kx = 0; kx < window->k_w; kx++) {
            const int32_t in_x = in_x0 + kx * window->dilation_w;
            if (in_x < 0 || in_x >= window->in_w) continue;
            const int16_t *in =
                weighted->centred_input +
                (((int64_t)b * window->in_h + in_y) * window->in_w + in_x) * window->in_c;
            const int16_t *w = weighted->weights + ((int64_t)ky * window->k_w + kx) * d->out_c + c0;
            if (d->multiplier == 1) {
              for (int32_t i = 0; i < block; i++) acc[i] += (uint32_t)((int32_t)in[c0 + i] * w[i]);
            } else {
              for (int32_t i = 0; i < block; i++)
                acc[i] += (uint32_t)((int32_t)in[(c0 + i) / d->multiplier] * w[i]);
            }
          }
        }
        for (int32_t i = 0; i < block; i++) {
          const int32_t oc = c0 + i;
          q_weighted_store(weighted, run->output, out_base + oc,
                           q_multiply_by_quantized_multiplier(
                               (int32_t)acc[i], weighted->multipliers[oc], weighted->shifts[oc]));
        }
      }
    }
  }
}

static tflaccel_status depthwise_eval(const cpu_op_context *context) {
  const depthwise_data *d = context->op_data;
  return q_weighted_eval(context, (int64_t)d->window.batches * d->window.out_h, 1,
                         depthwise_rows);
}

const cpu_kernel cpu_quant_depthwise_conv_2d_kernel = {
    .op_code = TFLACCEL_OP_DEPTHWISE_CONV_2D,
    .check = depthwise_check,
    .prepare = depthwise_prepare,
    .release = q_weighted_op_data_release,
    .eval = depthwise_eval,
};
