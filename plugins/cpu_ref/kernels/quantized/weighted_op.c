#include "config.h"

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/quantized/weighted_op.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/quant_common.h"

int q_weighted_check_activations(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                 char *reason) {
  /* The bias (slot 2) is checked by q_check_bias. */
  if (!q_check_op_quantization_except(graph, op, 2, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  if (input == NULL) return q_reason(reason, "input 0 is missing");
  if (input->dtype != TFLACCEL_DTYPE_UINT8 && input->dtype != TFLACCEL_DTYPE_INT8)
    return q_reason(reason, "%s activations are not supported (uint8 or int8 only)",
                    q_dtype_name(input->dtype));
  if (!q_check_per_tensor(graph, op, 0, 0, input->dtype, reason)) return 0;
  return q_check_per_tensor(graph, op, 1, 0, input->dtype, reason);
}

/* TFLite's GetQuantizedConvolutionMultipler, which CONV_2D and
 * DEPTHWISE_CONV_2D run on uint8 inputs: the bias's (first) scale may differ
 * from input_scale * filter_scale (that product in float) by at most 0.02
 * of the output scale, since the kernels use the product and a bias off by
 * more would shift the output. TFLite refuses the model otherwise. */
static int check_bias_scale(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  const tflaccel_tensor_desc *input = q_input(graph, op, 0), *bias = q_input(graph, op, 2);
  if ((op->code != TFLACCEL_OP_CONV_2D && op->code != TFLACCEL_OP_DEPTHWISE_CONV_2D) ||
      input->dtype != TFLACCEL_DTYPE_UINT8 || bias == NULL || bias->quantization.count == 0)
    return 1;
  const double input_product_scale = (double)(q_scale(input) * q_scale(q_input(graph, op, 1)));
  const double difference = fabs(input_product_scale - (double)q_scale(bias));
  const double output_scale = (double)q_scale(q_output(graph, op, 0));
  if (difference / output_scale <= 0.02) return 1;
  return q_tensor_reason(reason, graph, q_input_index(op, 2),
                         "bias scale %g is %g output scales from input scale x filter scale %g "
                         "(TFLite allows 0.02)",
                         (double)q_scale(bias), difference / output_scale, input_product_scale);
}

int q_weighted_check_operands(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                              uint32_t channel_axis, int32_t channels, char *reason) {
  const int32_t input_dtype = q_input(graph, op, 0)->dtype;
  if (!q_check_filter(graph, op, 1, input_dtype, channel_axis, channels, reason)) return 0;
  if (!q_check_bias(graph, op, 2, channels, reason)) return 0;
  return check_bias_scale(graph, op, reason);
}

void q_weighted_op_data_release(const tflaccel_host_services *host, void *op_data) {
  q_weighted_op *weighted = op_data;
  if (weighted == NULL) return;
  q_free(host, weighted->weights);
  q_free(host, weighted->bias);
  q_free(host, weighted->multipliers);
  q_free(host, weighted->shifts);
  q_free(host, weighted->centred_input);
  q_free(host, weighted);
}

/* Fills the q_weighted_op at the start of freshly zeroed op data. */
static tflaccel_status weighted_prepare(const cpu_op_context *context, int32_t channels,
                                        q_weighted_op *weighted) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *filter = q_input(context->graph, context->op, 1);
  const tflaccel_tensor_desc *bias = q_input(context->graph, context->op, 2);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);

  weighted->input_dtype = input->dtype;
  weighted->input_zero_point = q_zero_point(input);
  weighted->output_zero_point = q_zero_point(output);
  int32_t dtype_min, dtype_max;
  q_dtype_range(output->dtype, &dtype_min, &dtype_max);
  const int32_t fused_activation = context->op->code == TFLACCEL_OP_FULLY_CONNECTED
                                       ? context->op->params->fully_connected.fused_activation
                                       : q_conv_params_of(context->op).fused_activation;
  q_activation_range(fused_activation, q_scale(output), weighted->output_zero_point, dtype_min,
                     dtype_max, &weighted->act_min, &weighted->act_max);

  const size_t weight_count = (size_t)q_element_count(filter);
  const size_t input_count = (size_t)q_element_count(input);
  const size_t channel_count = (size_t)channels;
  weighted->input_count = (int64_t)input_count;
  weighted->weights = q_alloc(context, weight_count * sizeof(int16_t));
  weighted->bias = q_alloc(context, channel_count * sizeof(int32_t));
  weighted->multipliers = q_alloc(context, channel_count * sizeof(int32_t));
  weighted->shifts = q_alloc(context, channel_count * sizeof(int));
  weighted->centred_input = q_alloc(context, input_count * sizeof(int16_t));
  if (weighted->weights == NULL || weighted->bias == NULL || weighted->multipliers == NULL ||
      weighted->shifts == NULL || weighted->centred_input == NULL)
    return q_out_of_memory(context, weight_count * sizeof(int16_t) + input_count * 2);
  /* uint8 weights have one zero point; int8 ones are symmetric (zero point 0). */
  const int32_t filter_zero_point = q_zero_point(filter);
  if (filter->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++)
      weighted->weights[i] = (int16_t)((int32_t)w[i] - filter_zero_point);
  } else {
    const int8_t *w = filter->data;
    for (size_t i = 0; i < weight_count; i++) weighted->weights[i] = w[i];
  }
  if (bias != NULL) memcpy(weighted->bias, bias->data, channel_count * sizeof(int32_t));
  const int32_t bad_channel =
      q_conv_multipliers(input, filter, output, channels, weighted->multipliers, weighted->shifts);
  if (bad_channel >= 0)
    return q_error(context, TFLACCEL_INVALID_MODEL,
                   "channel %d: input scale x filter scale / output scale is not a multiplier "
                   "below 2^31",
                   (int)bad_channel);
  return NULL;
}

tflaccel_status q_weighted_op_data_create(const cpu_op_context *context, size_t size,
                                          int32_t channels, void **op_data) {
  q_weighted_op *weighted = q_alloc(context, size);
  if (weighted == NULL) return q_out_of_memory(context, size);
  tflaccel_status status = weighted_prepare(context, channels, weighted);
  if (status != NULL) {
    q_weighted_op_data_release(context->host, weighted);
    return status;
  }
  *op_data = weighted;
  return NULL;
}

tflaccel_status q_weighted_eval(const cpu_op_context *context, int64_t count, int64_t min_chunk,
                                cpu_parallel_fn fn) {
  const q_weighted_op *weighted = context->op_data;
  const void *input = q_input_data(context, 0);
  q_weighted_run run = {context->op_data, q_output_data(context, 0)};
  if (input == NULL || run.output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  if (weighted->input_dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *in = input;
    for (int64_t i = 0; i < weighted->input_count; i++)
      weighted->centred_input[i] = (int16_t)((int32_t)in[i] - weighted->input_zero_point);
  } else {
    const int8_t *in = input;
    for (int64_t i = 0; i < weighted->input_count; i++)
      weighted->centred_input[i] = (int16_t)((int32_t)in[i] - weighted->input_zero_point);
  }
  cpu_parallel_for(context->pool, count, min_chunk, fn, &run);
  return NULL;
}

q_conv_params q_conv_params_of(const tflaccel_op_desc *op) {
  q_conv_params params = {0};
  if (op->code == TFLACCEL_OP_DEPTHWISE_CONV_2D) {
    const tflaccel_depthwise_conv_2d_params *depthwise = &op->params->depthwise_conv_2d;
    params = (q_conv_params){depthwise->padding,    depthwise->stride_h,   depthwise->stride_w,
                             depthwise->dilation_h, depthwise->dilation_w,
                             depthwise->fused_activation};
  } else {
    const tflaccel_conv_2d_params *conv = &op->params->conv_2d;
    params = (q_conv_params){conv->padding,    conv->stride_h,   conv->stride_w,
                             conv->dilation_h, conv->dilation_w, conv->fused_activation};
  }
  return params;
}

int q_check_conv_params(const tflaccel_op_desc *op, char *reason) {
  const q_conv_params params = q_conv_params_of(op);
  if (params.stride_w < 1 || params.stride_h < 1 || params.dilation_w < 1 ||
      params.dilation_h < 1)
    return q_reason(reason, "strides and dilations must be positive");
  if (params.padding != TFLACCEL_PADDING_SAME && params.padding != TFLACCEL_PADDING_VALID)
    return q_reason(reason, "unknown padding %d", params.padding);
  return q_check_fused_activation(params.fused_activation, reason);
}

void q_conv_window_init(q_conv_window *window, const cpu_op_context *context, int32_t k_h,
                        int32_t k_w) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  const q_conv_params params = q_conv_params_of(context->op);
  memset(window, 0, sizeof *window);
  window->batches = input->dims[0];
  window->in_h = input->dims[1];
  window->in_w = input->dims[2];
  window->in_c = input->dims[3];
  window->out_h = output->dims[1];
  window->out_w = output->dims[2];
  window->k_h = k_h;
  window->k_w = k_w;
  window->stride_h = params.stride_h;
  window->stride_w = params.stride_w;
  window->dilation_h = params.dilation_h;
  window->dilation_w = params.dilation_w;
  if (params.padding == TFLACCEL_PADDING_SAME) {
    window->pad_h =
        conv_padding_before(window->in_h, window->out_h, k_h, params.stride_h, params.dilation_h);
    window->pad_w =
        conv_padding_before(window->in_w, window->out_w, k_w, params.stride_w, params.dilation_w);
  }
}
