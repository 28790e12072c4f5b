/* DEPTHWISE_CONV_2D, float32 NHWC: filter [1, KH, KW, C * M], output channel
 * c * M + m reads input channel c. The depth multiplier M comes from the
 * shapes (out channels / in channels), as the params' copy may be stale.
 * The filter layout already keeps each tap's output channels contiguous,
 * so no repacking is needed (and the filter may be a non-constant). */
#include "config.h"

#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int32_t dilation_or_one(int32_t dilation) { return dilation == 0 ? 1 : dilation; }

static int depthwise_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                           char *reason) {
  if (!cpu_check_arity(graph, op, 2, 3, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = cpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_depthwise_conv_2d_params *params = &op->params->depthwise_conv_2d;
  const char *name = "DEPTHWISE_CONV_2D";
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(filter, TFLACCEL_DTYPE_FLOAT32, "filter", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason) ||
      !cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(filter, 4, "filter", reason) ||
      !cpu_check_rank(output, 4, "output", reason))
    return 0;
  int32_t in_c = input->dims[3], out_c = filter->dims[3];
  if (filter->dims[0] != 1)
    return cpu_reason(reason, "%s: filter dim 0 is %d, expected 1", name, filter->dims[0]);
  if (in_c < 1 || out_c % in_c != 0)
    return cpu_reason(reason, "%s: filter channels %d are not a multiple of input channels %d",
                      name, out_c, in_c);
  if (bias != NULL) {
    if (!cpu_check_dtype(bias, TFLACCEL_DTYPE_FLOAT32, "bias", reason)) return 0;
    if (cpu_element_count(bias) != out_c)
      return cpu_reason(reason, "%s: bias has %lld elements for %d output channels", name,
                        (long long)cpu_element_count(bias), out_c);
  }
  if (params->stride_w < 1 || params->stride_h < 1 || params->dilation_w < 0 ||
      params->dilation_h < 0)
    return cpu_reason(reason, "%s: strides must be positive and dilations non-negative", name);
  if (params->padding != TFLACCEL_PADDING_SAME && params->padding != TFLACCEL_PADDING_VALID)
    return cpu_reason(reason, "%s: unknown padding %d", name, params->padding);
  if (!cpu_check_activation(params->fused_activation, reason)) return 0;
  int32_t out_h = conv_output_size(params->padding, input->dims[1], filter->dims[1],
                                       params->stride_h, dilation_or_one(params->dilation_h));
  int32_t out_w = conv_output_size(params->padding, input->dims[2], filter->dims[2],
                                       params->stride_w, dilation_or_one(params->dilation_w));
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h ||
      output->dims[2] != out_w || output->dims[3] != out_c)
    return cpu_reason(reason,
                      "%s: output shape [%d,%d,%d,%d] differs from the expected [%d,%d,%d,%d]",
                      name, output->dims[0], output->dims[1], output->dims[2], output->dims[3],
                      input->dims[0], out_h, out_w, out_c);
  return 1;
}

typedef struct depthwise_job {
  const float *input, *filter, *bias;
  float *output;
  int32_t in_h, in_w, in_c, out_h, out_w, out_c, multiplier;
  int32_t filter_h, filter_w, stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
  float low, high;
} depthwise_job;

static void depthwise_rows(void *argument, int64_t begin, int64_t end) {
  const depthwise_job *job = argument;
  int32_t out_c = job->out_c, in_c = job->in_c, multiplier = job->multiplier;
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / job->out_h;
    int32_t out_y = (int32_t)(row % job->out_h);
    const float *image = job->input + batch * job->in_h * job->in_w * in_c;
    int32_t y_origin = out_y * job->stride_h - job->pad_h;
    for (int32_t out_x = 0; out_x < job->out_w; out_x++) {
      float *out = job->output + (row * job->out_w + out_x) * out_c;
      if (job->bias != NULL)
        memcpy(out, job->bias, sizeof(float) * (size_t)out_c);
      else
        memset(out, 0, sizeof(float) * (size_t)out_c);
      int32_t x_origin = out_x * job->stride_w - job->pad_w;
      /* Taps column by column (kx outer), the order XNNPACK sums them in:
       * the float references come from it, and some models amplify
       * rounding differences. */
      for (int32_t kx = 0; kx < job->filter_w; kx++) {
        int32_t in_x = x_origin + kx * job->dilation_w;
        if (in_x < 0 || in_x >= job->in_w) continue;
        for (int32_t ky = 0; ky < job->filter_h; ky++) {
          int32_t in_y = y_origin + ky * job->dilation_h;
          if (in_y < 0 || in_y >= job->in_h) continue;
          const float *in = image + ((int64_t)in_y * job->in_w + in_x) * in_c;
          const float *w = job->filter + ((int64_t)ky * job->filter_w + kx) * out_c;
          if (multiplier == 1) {
            cpu_multiply_accumulate(out, in, w, out_c);
          } else {
            for (int32_t c = 0; c < in_c; c++) {
              float x = in[c];
              for (int32_t m = 0; m < multiplier; m++)
                out[c * multiplier + m] += x * w[c * multiplier + m];
            }
          }
        }
      }
      for (int32_t c = 0; c < out_c; c++) out[c] = cpu_clamp(out[c], job->low, job->high);
    }
  }
}

static tflaccel_status depthwise_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *filter = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const tflaccel_depthwise_conv_2d_params *params = &context->op->params->depthwise_conv_2d;
  depthwise_job job;
  job.input = cpu_input_data(context, 0);
  job.filter = cpu_input_data(context, 1);
  job.bias = cpu_input_data(context, 2);
  job.output = cpu_output_data(context, 0);
  job.in_h = input->dims[1];
  job.in_w = input->dims[2];
  job.in_c = input->dims[3];
  job.out_h = output->dims[1];
  job.out_w = output->dims[2];
  job.out_c = output->dims[3];
  job.multiplier = job.out_c / job.in_c;
  job.filter_h = filter->dims[1];
  job.filter_w = filter->dims[2];
  job.stride_h = params->stride_h;
  job.stride_w = params->stride_w;
  job.dilation_h = dilation_or_one(params->dilation_h);
  job.dilation_w = dilation_or_one(params->dilation_w);
  job.pad_h = conv_padding_before(job.in_h, job.out_h, job.filter_h, job.stride_h, job.dilation_h);
  job.pad_w = conv_padding_before(job.in_w, job.out_w, job.filter_w, job.stride_w, job.dilation_w);
  cpu_activation_range(params->fused_activation, &job.low, &job.high);
  cpu_parallel_for(context->pool, (int64_t)output->dims[0] * job.out_h, 1, depthwise_rows, &job);
  return NULL;
}

const cpu_kernel cpu_kernel_depthwise_conv_2d = {
    .op_code = TFLACCEL_OP_DEPTHWISE_CONV_2D,
    .check = depthwise_check,
    .eval = depthwise_eval,
};
