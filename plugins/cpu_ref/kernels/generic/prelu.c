/* PRELU, float32: x >= 0 ? x : x * alpha, alpha broadcast against x. */
#include "config.h"

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define PRELU_MIN_ROWS 64

static int prelu_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *alpha = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "PRELU input", reason) ||
      !cpu_check_dtype(alpha, TFLACCEL_DTYPE_FLOAT32, "PRELU alpha", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "PRELU output", reason))
    return 0;
  return cpu_check_broadcast(input, alpha, output, reason);
}

typedef struct prelu_job {
  cpu_broadcast shape;
  const float *input, *alpha;
  float *output;
} prelu_job;

static void prelu_rows(void *argument, int64_t begin, int64_t end) {
  const prelu_job *job = argument;
  int64_t inner = job->shape.dims[CPU_MAX_RANK - 1];
  int64_t stride_x = job->shape.stride_a[CPU_MAX_RANK - 1];
  int64_t stride_alpha = job->shape.stride_b[CPU_MAX_RANK - 1];
  for (int64_t row = begin; row < end; row++) {
    int64_t offset_x, offset_alpha;
    cpu_broadcast_row(&job->shape, row, &offset_x, &offset_alpha);
    const float *x = job->input + offset_x;
    const float *alpha = job->alpha + offset_alpha;
    float *out = job->output + row * inner;
    for (int64_t i = 0; i < inner; i++) {
      float value = x[i * stride_x];
      out[i] = value >= 0.0f ? value : value * alpha[i * stride_alpha];
    }
  }
}

static tflaccel_status prelu_eval(const cpu_op_context *context) {
  prelu_job job;
  const tflaccel_tensor_desc *output = cpu_output_tensor(context, 0);
  cpu_broadcast_init(&job.shape, cpu_input_tensor(context, 0), cpu_input_tensor(context, 1),
                     output);
  job.input = cpu_input_data(context, 0);
  job.alpha = cpu_input_data(context, 1);
  job.output = cpu_output_data(context, 0);
  int64_t inner = job.shape.dims[CPU_MAX_RANK - 1];
  if (inner == 0) return NULL;
  cpu_parallel_for(context->pool, cpu_element_count(output) / inner, PRELU_MIN_ROWS, prelu_rows,
                   &job);
  return NULL;
}

const cpu_kernel cpu_kernel_prelu = {
    .op_code = TFLACCEL_OP_PRELU, .check = prelu_check, .eval = prelu_eval};
