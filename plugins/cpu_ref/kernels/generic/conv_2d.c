/* CONV_2D, float32 NHWC: SAME/VALID padding, strides, dilations, fused
 * activation, and grouped convolution when the input has a multiple of the
 * filter's channels.
 *
 * prepare() repacks the [O, KH, KW, I] filter to [G][KH][KW][I][O/G], so that
 * for each output pixel the innermost loop adds x * w[0..O/G) to contiguous
 * outputs: it vectorises without reassociating the sum, and each input
 * value is read once per filter tap. */
#include "config.h"

#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

typedef struct conv_shape {
  int32_t batches, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t filter_h, filter_w, filter_c; /* filter_c: input channels per group */
  int32_t groups;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
} conv_shape;

static int32_t dilation_or_one(int32_t dilation) { return dilation == 0 ? 1 : dilation; }

static void conv_shape_of(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                          conv_shape *shape) {
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;
  shape->batches = input->dims[0];
  shape->in_h = input->dims[1];
  shape->in_w = input->dims[2];
  shape->in_c = input->dims[3];
  shape->out_h = output->dims[1];
  shape->out_w = output->dims[2];
  shape->out_c = output->dims[3];
  shape->filter_h = filter->dims[1];
  shape->filter_w = filter->dims[2];
  shape->filter_c = filter->dims[3];
  shape->groups = shape->filter_c > 0 ? shape->in_c / shape->filter_c : 1;
  shape->stride_h = params->stride_h;
  shape->stride_w = params->stride_w;
  shape->dilation_h = dilation_or_one(params->dilation_h);
  shape->dilation_w = dilation_or_one(params->dilation_w);
  shape->pad_h = conv_padding_before(shape->in_h, shape->out_h, shape->filter_h, shape->stride_h,
                                  shape->dilation_h);
  shape->pad_w = conv_padding_before(shape->in_w, shape->out_w, shape->filter_w, shape->stride_w,
                                  shape->dilation_w);
}

static int conv_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      char *reason) {
  if (!cpu_check_arity(graph, op, 2, 3, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = cpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_conv_2d_params *params = &op->params->conv_2d;
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "CONV_2D input", reason) ||
      !cpu_check_dtype(filter, TFLACCEL_DTYPE_FLOAT32, "CONV_2D filter", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "CONV_2D output", reason) ||
      !cpu_check_rank(input, 4, "CONV_2D input", reason) ||
      !cpu_check_rank(filter, 4, "CONV_2D filter", reason) ||
      !cpu_check_rank(output, 4, "CONV_2D output", reason))
    return 0;
  if (!cpu_is_constant(filter))
    return cpu_reason(reason, "CONV_2D: the filter must be a constant tensor");
  if (bias != NULL) {
    if (!cpu_check_dtype(bias, TFLACCEL_DTYPE_FLOAT32, "CONV_2D bias", reason)) return 0;
    if (cpu_element_count(bias) != filter->dims[0])
      return cpu_reason(reason, "CONV_2D: bias has %lld elements for %d output channels",
                        (long long)cpu_element_count(bias), filter->dims[0]);
  }
  if (params->stride_w < 1 || params->stride_h < 1 || params->dilation_w < 0 ||
      params->dilation_h < 0)
    return cpu_reason(reason, "CONV_2D: strides must be positive and dilations non-negative");
  if (params->padding != TFLACCEL_PADDING_SAME && params->padding != TFLACCEL_PADDING_VALID)
    return cpu_reason(reason, "CONV_2D: unknown padding %d", params->padding);
  if (!cpu_check_activation(params->fused_activation, reason)) return 0;
  int32_t in_c = input->dims[3], filter_c = filter->dims[3], out_c = filter->dims[0];
  if (filter_c < 1 || in_c % filter_c != 0)
    return cpu_reason(reason, "CONV_2D: input channels %d are not a multiple of the filter's %d",
                      in_c, filter_c);
  int32_t groups = in_c / filter_c;
  if (out_c % groups != 0)
    return cpu_reason(reason, "CONV_2D: %d output channels do not split into %d groups", out_c,
                      groups);
  int32_t out_h = conv_output_size(params->padding, input->dims[1], filter->dims[1],
                                       params->stride_h, dilation_or_one(params->dilation_h));
  int32_t out_w = conv_output_size(params->padding, input->dims[2], filter->dims[2],
                                       params->stride_w, dilation_or_one(params->dilation_w));
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h ||
      output->dims[2] != out_w || output->dims[3] != out_c)
    return cpu_reason(reason,
                      "CONV_2D: output shape [%d,%d,%d,%d] differs from the expected [%d,%d,%d,%d]",
                      output->dims[0], output->dims[1], output->dims[2], output->dims[3],
                      input->dims[0], out_h, out_w, out_c);
  return 1;
}

typedef struct conv_data {
  float *packed; /* [G][KH][KW][I/G][O/G] */
} conv_data;

static tflaccel_status conv_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_host_services *host = context->host;
  conv_shape shape;
  conv_shape_of(context->graph, context->op, &shape);
  const float *filter = cpu_input_data(context, 1);
  int32_t group_out = shape.out_c / shape.groups;
  size_t count = (size_t)shape.out_c * shape.filter_h * shape.filter_w * shape.filter_c;
  conv_data *data = host->alloc(host->context, sizeof *data, 0);
  if (data == NULL) return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for CONV_2D");
  data->packed = host->alloc(host->context, sizeof(float) * (count > 0 ? count : 1), 64);
  if (data->packed == NULL) {
    host->free(host->context, data);
    return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for CONV_2D weights");
  }
  for (int32_t o = 0; o < shape.out_c; o++) {
    int32_t group = o / group_out, o_in_group = o % group_out;
    for (int32_t ky = 0; ky < shape.filter_h; ky++)
      for (int32_t kx = 0; kx < shape.filter_w; kx++)
        for (int32_t i = 0; i < shape.filter_c; i++) {
          size_t from = (((size_t)o * shape.filter_h + ky) * shape.filter_w + kx) * shape.filter_c + i;
          size_t to = ((((size_t)group * shape.filter_h + ky) * shape.filter_w + kx) *
                           shape.filter_c + i) * group_out + o_in_group;
          data->packed[to] = filter[from];
        }
  }
  *op_data = data;
  return NULL;
}

static void conv_release(const tflaccel_host_services *host, void *op_data) {
  conv_data *data = op_data;
  host->free(host->context, data->packed);
  host->free(host->context, data);
}

typedef struct conv_job {
  conv_shape shape;
  const float *input, *packed, *bias;
  float *output;
  float low, high;
} conv_job;

static void conv_rows(void *argument, int64_t begin, int64_t end) {
  const conv_job *job = argument;
  const conv_shape *s = &job->shape;
  int32_t group_out = s->out_c / s->groups;
  size_t tap_size = (size_t)s->filter_c * group_out; /* weights of one filter tap, one group */
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / s->out_h;
    int32_t out_y = (int32_t)(row % s->out_h);
    const float *image = job->input + batch * s->in_h * s->in_w * s->in_c;
    int32_t y_origin = out_y * s->stride_h - s->pad_h;
    for (int32_t out_x = 0; out_x < s->out_w; out_x++) {
      float *out = job->output + (row * s->out_w + out_x) * s->out_c;
      if (job->bias != NULL)
        memcpy(out, job->bias, sizeof(float) * (size_t)s->out_c);
      else
        memset(out, 0, sizeof(float) * (size_t)s->out_c);
      int32_t x_origin = out_x * s->stride_w - s->pad_w;
      for (int32_t group = 0; group < s->groups; group++) {
        float *group_output = out + (size_t)group * group_out;
        for (int32_t ky = 0; ky < s->filter_h; ky++) {
          int32_t in_y = y_origin + ky * s->dilation_h;
          if (in_y < 0 || in_y >= s->in_h) continue;
          for (int32_t kx = 0; kx < s->filter_w; kx++) {
            int32_t in_x = x_origin + kx * s->dilation_w;
            if (in_x < 0 || in_x >= s->in_w) continue;
            const float *in = image + ((int64_t)in_y * s->in_w + in_x) * s->in_c +
                              (int64_t)group * s->filter_c;
            const float *weights =
                job->packed + (((size_t)group * s->filter_h + ky) * s->filter_w + kx) * tap_size;
            for (int32_t i = 0; i < s->filter_c; i++)
              cpu_axpy(group_output, weights + (size_t)i * group_out, in[i], group_out);
          }
        }
      }
      for (int32_t o = 0; o < s->out_c; o++) out[o] = cpu_clamp(out[o], job->low, job->high);
    }
  }
}

static tflaccel_status conv_eval(const cpu_op_context *context) {
  const conv_data *data = context->op_data;
  conv_job job;
  conv_shape_of(context->graph, context->op, &job.shape);
  job.input = cpu_input_data(context, 0);
  job.packed = data->packed;
  job.bias = cpu_input_data(context, 2);
  job.output = cpu_output_data(context, 0);
  cpu_activation_range(context->op->params->conv_2d.fused_activation, &job.low, &job.high);
  int64_t rows = (int64_t)job.shape.batches * job.shape.out_h;
  cpu_parallel_for(context->pool, rows, 1, conv_rows, &job);
  return NULL;
}

const cpu_kernel cpu_kernel_conv_2d = {
    .op_code = TFLACCEL_OP_CONV_2D,
    .check = conv_check,
    .prepare = conv_prepare,
    .release = conv_release,
    .eval = conv_eval,
};
