/* AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D, float32 NHWC. As in TFLite,
 * a window clipped by the padding averages only the elements inside the
 * input; the fused activation clamps the result. */
#include "config.h"

#include <math.h>

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int pool_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_pool_2d_params *params = &op->params->pool_2d;
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason) ||
      !cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(output, 4, "output", reason))
    return 0;
  if (params->stride_w < 1 || params->stride_h < 1 || params->filter_w < 1 ||
      params->filter_h < 1)
    return cpu_reason(reason, "%s: strides and filter sizes must be positive", cpu_op_name(op));
  if (params->padding != TFLACCEL_PADDING_SAME && params->padding != TFLACCEL_PADDING_VALID)
    return cpu_reason(reason, "%s: unknown padding %d", cpu_op_name(op), params->padding);
  if (!cpu_check_activation(params->fused_activation, reason)) return 0;
  int32_t out_h = conv_output_size(params->padding, input->dims[1], params->filter_h,
                                       params->stride_h, 1);
  int32_t out_w = conv_output_size(params->padding, input->dims[2], params->filter_w,
                                       params->stride_w, 1);
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h ||
      output->dims[2] != out_w || output->dims[3] != input->dims[3])
    return cpu_reason(reason, "%s: output shape [%d,%d,%d,%d] differs from the expected "
                      "[%d,%d,%d,%d]", cpu_op_name(op), output->dims[0], output->dims[1],
                      output->dims[2], output->dims[3], input->dims[0], out_h, out_w,
                      input->dims[3]);
  return 1;
}

typedef struct pool_job {
  int32_t code;
  const float *input;
  float *output;
  int32_t in_h, in_w, channels, out_h, out_w;
  int32_t filter_h, filter_w, stride_h, stride_w, pad_h, pad_w;
  float low, high;
} pool_job;

static void pool_rows(void *argument, int64_t begin, int64_t end) {
  const pool_job *job = argument;
  int32_t channels = job->channels;
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / job->out_h;
    int32_t out_y = (int32_t)(row % job->out_h);
    int32_t y_origin = out_y * job->stride_h - job->pad_h;
    int32_t fy_start = y_origin < 0 ? -y_origin : 0;
    int32_t fy_end = job->in_h - y_origin < job->filter_h ? job->in_h - y_origin : job->filter_h;
    const float *image = job->input + batch * job->in_h * job->in_w * channels;
    for (int32_t out_x = 0; out_x < job->out_w; out_x++) {
      int32_t x_origin = out_x * job->stride_w - job->pad_w;
      int32_t fx_start = x_origin < 0 ? -x_origin : 0;
      int32_t fx_end =
          job->in_w - x_origin < job->filter_w ? job->in_w - x_origin : job->filter_w;
      float *out = job->output + (row * job->out_w + out_x) * channels;
      int32_t count = (fy_end - fy_start) * (fx_end - fx_start);
      float initial = job->code == TFLACCEL_OP_MAX_POOL_2D ? -INFINITY : 0.0f;
      for (int32_t c = 0; c < channels; c++) out[c] = initial;
      for (int32_t fy = fy_start; fy < fy_end; fy++) {
        for (int32_t fx = fx_start; fx < fx_end; fx++) {
          const float *in =
              image + ((int64_t)(y_origin + fy) * job->in_w + (x_origin + fx)) * channels;
          if (job->code == TFLACCEL_OP_MAX_POOL_2D) {
            for (int32_t c = 0; c < channels; c++) out[c] = in[c] > out[c] ? in[c] : out[c];
          } else if (job->code == TFLACCEL_OP_L2_POOL_2D) {
            for (int32_t c = 0; c < channels; c++) out[c] += in[c] * in[c];
          } else {
            for (int32_t c = 0; c < channels; c++) out[c] += in[c];
          }
        }
      }
      for (int32_t c = 0; c < channels; c++) {
        float value = out[c];
        /* An empty window (only possible with a filter larger than the
         * padded input) yields 0, as TFLite's optimized kernels do. */
        if (count == 0)
          value = 0.0f;
        else if (job->code == TFLACCEL_OP_AVERAGE_POOL_2D)
          value = value / (float)count;
        else if (job->code == TFLACCEL_OP_L2_POOL_2D)
          value = sqrtf(value / (float)count);
        out[c] = cpu_clamp(value, job->low, job->high);
      }
    }
  }
}

static tflaccel_status pool_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  const tflaccel_pool_2d_params *params = &context->op->params->pool_2d;
  pool_job job;
  job.code = context->op->code;
  job.input = cpu_input_data(context, 0);
  job.output = cpu_output_data(context, 0);
  job.in_h = input->dims[1];
  job.in_w = input->dims[2];
  job.channels = input->dims[3];
  job.out_h = output->dims[1];
  job.out_w = output->dims[2];
  job.filter_h = params->filter_h;
  job.filter_w = params->filter_w;
  job.stride_h = params->stride_h;
  job.stride_w = params->stride_w;
  job.pad_h = conv_padding_before(job.in_h, job.out_h, job.filter_h, job.stride_h, 1);
  job.pad_w = conv_padding_before(job.in_w, job.out_w, job.filter_w, job.stride_w, 1);
  cpu_activation_range(params->fused_activation, &job.low, &job.high);
  int64_t rows = (int64_t)output->dims[0] * job.out_h;
  cpu_parallel_for(context->pool, rows, 4, pool_rows, &job);
  return NULL;
}

#define POOL_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = pool_check, .eval = pool_eval}

POOL_KERNEL(cpu_kernel_average_pool_2d, TFLACCEL_OP_AVERAGE_POOL_2D);
POOL_KERNEL(cpu_kernel_max_pool_2d, TFLACCEL_OP_MAX_POOL_2D);
POOL_KERNEL(cpu_kernel_l2_pool_2d, TFLACCEL_OP_L2_POOL_2D);
