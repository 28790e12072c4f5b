/* SOFTMAX (with beta) and LOG_SOFTMAX, float32, along the last axis:
 * softmax = exp((x - max) * beta) / sum; log_softmax = x - max - log(sum). */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int softmax_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                         char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason))
    return 0;
  if (input->rank < 1 || !cpu_same_shape(input, output))
    return cpu_reason(reason, "%s: needs rank >= 1 and equal input and output shapes",
                      cpu_op_name(op));
  return 1;
}

typedef struct softmax_job {
  const float *input;
  float *output;
  int64_t depth;
  float beta;
  int log;
} softmax_job;

static void softmax_rows(void *argument, int64_t begin, int64_t end) {
  const softmax_job *job = argument;
  int64_t depth = job->depth;
  for (int64_t row = begin; row < end; row++) {
    const float *x = job->input + row * depth;
    float *y = job->output + row * depth;
    float max = x[0];
    for (int64_t i = 1; i < depth; i++) max = x[i] > max ? x[i] : max;
    float sum = 0.0f;
    if (job->log) {
      for (int64_t i = 0; i < depth; i++) sum += expf(x[i] - max);
      float log_sum = logf(sum);
      for (int64_t i = 0; i < depth; i++) y[i] = x[i] - max - log_sum;
    } else {
      for (int64_t i = 0; i < depth; i++) {
        y[i] = expf((x[i] - max) * job->beta);
        sum += y[i];
      }
      for (int64_t i = 0; i < depth; i++) y[i] = y[i] / sum;
    }
  }
}

static tflaccel_status softmax_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  softmax_job job;
  job.input = cpu_input_data(context, 0);
  job.output = cpu_output_data(context, 0);
  job.depth = input->dims[input->rank - 1];
  job.log = context->op->code == TFLACCEL_OP_LOG_SOFTMAX;
  job.beta = context->op->params->softmax.beta;
  if (job.depth == 0) return NULL;
  cpu_parallel_for(context->pool, cpu_element_count(input) / job.depth,
                   4096 / job.depth > 0 ? 4096 / job.depth : 1, softmax_rows, &job);
  return NULL;
}

const cpu_kernel cpu_kernel_softmax = {
    .op_code = TFLACCEL_OP_SOFTMAX, .check = softmax_check, .eval = softmax_eval};
const cpu_kernel cpu_kernel_log_softmax = {
    .op_code = TFLACCEL_OP_LOG_SOFTMAX, .check = softmax_check, .eval = softmax_eval};
