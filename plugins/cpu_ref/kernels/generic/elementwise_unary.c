/* One-input elementwise float32 ops (activations and math functions), with
 * TFLite's formulas; ABS and NEG also take int32 and int64. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define UNARY_MIN_CHUNK 16384

static int is_integer_capable(int32_t code) {
  return code == TFLACCEL_OP_ABS || code == TFLACCEL_OP_NEG;
}

static int unary_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  int dtype_ok = input->dtype == TFLACCEL_DTYPE_FLOAT32 ||
                 (is_integer_capable(op->code) && (input->dtype == TFLACCEL_DTYPE_INT32 ||
                                                   input->dtype == TFLACCEL_DTYPE_INT64));
  if (!dtype_ok)
    return cpu_reason(reason, "%s: %s input is not supported", cpu_op_name(op),
                      cpu_dtype_name(input->dtype));
  if (output->dtype != input->dtype)
    return cpu_reason(reason, "%s: output is %s, input %s", cpu_op_name(op),
                      cpu_dtype_name(output->dtype), cpu_dtype_name(input->dtype));
  if (!cpu_same_shape(input, output))
    return cpu_reason(reason, "%s: input and output shapes differ", cpu_op_name(op));
  return 1;
}

typedef struct unary_job {
  int32_t code;
  int32_t dtype;
  const void *input;
  void *output;
  float alpha; /* LEAKY_RELU */
} unary_job;

static void float_range(const unary_job *job, const float *in, float *out, int64_t n) {
#define UNARY_LOOP(expression)       \
  for (int64_t i = 0; i < n; i++) {  \
    float x = in[i];                 \
    out[i] = (expression);           \
  }                                  \
  break
  float alpha = job->alpha;
  switch (job->code) {
  case TFLACCEL_OP_LOGISTIC: UNARY_LOOP(1.0f / (1.0f + expf(-x)));
  case TFLACCEL_OP_TANH: UNARY_LOOP(tanhf(x));
  case TFLACCEL_OP_RELU: UNARY_LOOP(x > 0.0f ? x : 0.0f);
  case TFLACCEL_OP_RELU6: UNARY_LOOP(x > 0.0f ? (x < 6.0f ? x : 6.0f) : 0.0f);
  case TFLACCEL_OP_RELU_N1_TO_1: UNARY_LOOP(x > -1.0f ? (x < 1.0f ? x : 1.0f) : -1.0f);
  case TFLACCEL_OP_LEAKY_RELU: UNARY_LOOP(x > 0.0f ? x : x * alpha);
  case TFLACCEL_OP_HARD_SWISH: {
    /* x * relu6(x + 3) / 6, in this order, as TFLite's reference. */
    UNARY_LOOP(x * fminf(6.0f, fmaxf(0.0f, x + 3.0f)) / 6.0f);
  }
  case TFLACCEL_OP_EXP: UNARY_LOOP(expf(x));
  case TFLACCEL_OP_SQRT: UNARY_LOOP(sqrtf(x));
  case TFLACCEL_OP_RSQRT: UNARY_LOOP(1.0f / sqrtf(x));
  case TFLACCEL_OP_ABS: UNARY_LOOP(fabsf(x));
  case TFLACCEL_OP_NEG: UNARY_LOOP(-x);
  case TFLACCEL_OP_LOG: UNARY_LOOP(logf(x));
  case TFLACCEL_OP_FLOOR: UNARY_LOOP(floorf(x));
  case TFLACCEL_OP_CEIL: UNARY_LOOP(ceilf(x));
  case TFLACCEL_OP_SQUARE: UNARY_LOOP(x * x);
  default: break;
  }
#undef UNARY_LOOP
}

static void unary_range(void *argument, int64_t begin, int64_t end) {
  const unary_job *job = argument;
  int64_t n = end - begin;
  if (job->dtype == TFLACCEL_DTYPE_FLOAT32) {
    float_range(job, (const float *)job->input + begin, (float *)job->output + begin, n);
  } else if (job->dtype == TFLACCEL_DTYPE_INT32) {
    const int32_t *in = (const int32_t *)job->input + begin;
    int32_t *out = (int32_t *)job->output + begin;
    /* Through uint32_t: negating INT32_MIN wraps instead of overflowing. */
    for (int64_t i = 0; i < n; i++) {
      int negate = job->code == TFLACCEL_OP_NEG || in[i] < 0;
      out[i] = negate ? (int32_t)(0u - (uint32_t)in[i]) : in[i];
    }
  } else {
    const int64_t *in = (const int64_t *)job->input + begin;
    int64_t *out = (int64_t *)job->output + begin;
    for (int64_t i = 0; i < n; i++) {
      int negate = job->code == TFLACCEL_OP_NEG || in[i] < 0;
      out[i] = negate ? (int64_t)(UINT64_C(0) - (uint64_t)in[i]) : in[i];
    }
  }
}

static tflaccel_status unary_eval(const cpu_op_context *context) {
  unary_job job;
  job.code = context->op->code;
  job.dtype = cpu_input_tensor(context, 0)->dtype;
  job.input = cpu_input_data(context, 0);
  job.output = cpu_output_data(context, 0);
  job.alpha = job.code == TFLACCEL_OP_LEAKY_RELU ? context->op->params->leaky_relu.alpha : 0.0f;
  cpu_parallel_for(context->pool, cpu_element_count(cpu_output_tensor(context, 0)),
                   UNARY_MIN_CHUNK, unary_range, &job);
  return NULL;
}

#define UNARY_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = unary_check, .eval = unary_eval}

UNARY_KERNEL(cpu_kernel_logistic, TFLACCEL_OP_LOGISTIC);
UNARY_KERNEL(cpu_kernel_tanh, TFLACCEL_OP_TANH);
UNARY_KERNEL(cpu_kernel_relu, TFLACCEL_OP_RELU);
UNARY_KERNEL(cpu_kernel_relu6, TFLACCEL_OP_RELU6);
UNARY_KERNEL(cpu_kernel_relu_n1_to_1, TFLACCEL_OP_RELU_N1_TO_1);
UNARY_KERNEL(cpu_kernel_leaky_relu, TFLACCEL_OP_LEAKY_RELU);
UNARY_KERNEL(cpu_kernel_hard_swish, TFLACCEL_OP_HARD_SWISH);
UNARY_KERNEL(cpu_kernel_exp, TFLACCEL_OP_EXP);
UNARY_KERNEL(cpu_kernel_sqrt, TFLACCEL_OP_SQRT);
UNARY_KERNEL(cpu_kernel_rsqrt, TFLACCEL_OP_RSQRT);
UNARY_KERNEL(cpu_kernel_abs, TFLACCEL_OP_ABS);
UNARY_KERNEL(cpu_kernel_neg, TFLACCEL_OP_NEG);
UNARY_KERNEL(cpu_kernel_log, TFLACCEL_OP_LOG);
UNARY_KERNEL(cpu_kernel_floor, TFLACCEL_OP_FLOOR);
UNARY_KERNEL(cpu_kernel_ceil, TFLACCEL_OP_CEIL);
UNARY_KERNEL(cpu_kernel_square, TFLACCEL_OP_SQUARE);
