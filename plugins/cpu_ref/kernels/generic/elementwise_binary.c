/* ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, FLOOR_DIV with N-D broadcasting (up
 * to rank 6) and fused activations: float32, int32 and (ADD, SUB, MUL,
 * MAXIMUM, MINIMUM) int64. Integer arithmetic wraps instead of overflowing;
 * integer division by zero is an error, as in TFLite. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

/* Elements per parallel chunk: below this, threads cost more than they save. */
#define BINARY_MIN_CHUNK 16384

typedef enum binary_op {
  BINARY_ADD,
  BINARY_SUB,
  BINARY_MUL,
  BINARY_DIV,
  BINARY_MAXIMUM,
  BINARY_MINIMUM,
  BINARY_FLOOR_DIV,
} binary_op;

static binary_op binary_op_of(int32_t code) {
  switch (code) {
  case TFLACCEL_OP_SUB: return BINARY_SUB;
  case TFLACCEL_OP_MUL: return BINARY_MUL;
  case TFLACCEL_OP_DIV: return BINARY_DIV;
  case TFLACCEL_OP_MAXIMUM: return BINARY_MAXIMUM;
  case TFLACCEL_OP_MINIMUM: return BINARY_MINIMUM;
  case TFLACCEL_OP_FLOOR_DIV: return BINARY_FLOOR_DIV;
  default: return BINARY_ADD;
  }
}

static int has_fused_activation(binary_op op) {
  return op == BINARY_ADD || op == BINARY_SUB || op == BINARY_MUL || op == BINARY_DIV;
}

static int binary_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  if (!cpu_check_arity(graph, op, 2, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *a = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *b = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *out = cpu_op_output(graph, op, 0);
  binary_op kind = binary_op_of(op->code);
  int32_t dtype = a->dtype;
  int dtype_ok = dtype == TFLACCEL_DTYPE_FLOAT32 || dtype == TFLACCEL_DTYPE_INT32 ||
                 (dtype == TFLACCEL_DTYPE_INT64 && kind != BINARY_DIV && kind != BINARY_FLOOR_DIV);
  if (!dtype_ok)
    return cpu_reason(reason, "%s: %s inputs are not supported", cpu_op_name(op),
                      cpu_dtype_name(dtype));
  if (b->dtype != dtype || out->dtype != dtype)
    return cpu_reason(reason, "%s: inputs and output must share one dtype (%s, %s -> %s)",
                      cpu_op_name(op), cpu_dtype_name(dtype), cpu_dtype_name(b->dtype),
                      cpu_dtype_name(out->dtype));
  if (!cpu_check_broadcast(a, b, out, reason)) return 0;
  if (has_fused_activation(kind) && !cpu_check_activation(op->params->arithmetic.fused_activation, reason))
    return 0;
  return 1;
}

typedef struct binary_job {
  binary_op op;
  int32_t dtype;
  const void *a, *b;
  void *out;
  cpu_broadcast shape;
  int flat; /* 1: inner loop covers everything (same shapes or a scalar) */
  int64_t flat_stride_a, flat_stride_b;
  float low, high;
  int32_t low_i32, high_i32;
} binary_job;

static inline float float_op(binary_op op, float x, float y) {
  switch (op) {
  case BINARY_ADD: return x + y;
  case BINARY_SUB: return x - y;
  case BINARY_MUL: return x * y;
  case BINARY_DIV: return x / y;
  case BINARY_MAXIMUM: return x > y ? x : y;
  case BINARY_MINIMUM: return x < y ? x : y;
  case BINARY_FLOOR_DIV: return (float)floor((double)x / (double)y);
  }
  return 0.0f;
}

/* Floor of x / y for y != 0 (y == -1 with INT32_MIN wraps). */
static inline int32_t int32_floor_div(int32_t x, int32_t y) {
  if (y == -1) return (int32_t)(0u - (uint32_t)x);
  int32_t quotient = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) quotient--;
  return quotient;
}

static inline int32_t int32_op(binary_op op, int32_t x, int32_t y) {
  switch (op) {
  case BINARY_ADD: return (int32_t)((uint32_t)x + (uint32_t)y);
  case BINARY_SUB: return (int32_t)((uint32_t)x - (uint32_t)y);
  case BINARY_MUL: return (int32_t)((uint32_t)x * (uint32_t)y);
  case BINARY_DIV: return y == -1 ? (int32_t)(0u - (uint32_t)x) : x / y;
  case BINARY_MAXIMUM: return x > y ? x : y;
  case BINARY_MINIMUM: return x < y ? x : y;
  case BINARY_FLOOR_DIV: return int32_floor_div(x, y);
  }
  return 0;
}

static inline int64_t int64_op(binary_op op, int64_t x, int64_t y) {
  switch (op) {
  case BINARY_ADD: return (int64_t)((uint64_t)x + (uint64_t)y);
  case BINARY_SUB: return (int64_t)((uint64_t)x - (uint64_t)y);
  case BINARY_MUL: return (int64_t)((uint64_t)x * (uint64_t)y);
  case BINARY_MAXIMUM: return x > y ? x : y;
  case BINARY_MINIMUM: return x < y ? x : y;
  default: return 0;
  }
}

/* out[i] = act(a[i * sa] op b[i * sb]) for i in [0, n). The switch on op is
 * outside the loop so that each loop is simple enough to vectorise. */
static void float_row(const binary_job *job, const float *a, int64_t sa, const float *b,
                      int64_t sb, float *out, int64_t n) {
  float low = job->low, high = job->high;
#define FLOAT_ROW(expression)                                          \
  for (int64_t i = 0; i < n; i++) {                                    \
    float x = a[i * sa], y = b[i * sb];                                \
    out[i] = cpu_clamp((expression), low, high);                       \
  }                                                                    \
  break
  switch (job->op) {
  case BINARY_ADD: FLOAT_ROW(x + y);
  case BINARY_SUB: FLOAT_ROW(x - y);
  case BINARY_MUL: FLOAT_ROW(x * y);
  case BINARY_DIV: FLOAT_ROW(x / y);
  default:
    for (int64_t i = 0; i < n; i++) out[i] = cpu_clamp(float_op(job->op, a[i * sa], b[i * sb]), low, high);
    break;
  }
#undef FLOAT_ROW
}

static void int32_row(const binary_job *job, const int32_t *a, int64_t sa, const int32_t *b,
                      int64_t sb, int32_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    int32_t value = int32_op(job->op, a[i * sa], b[i * sb]);
    out[i] = value < job->low_i32 ? job->low_i32 : (value > job->high_i32 ? job->high_i32 : value);
  }
}

static void int64_row(const binary_job *job, const int64_t *a, int64_t sa, const int64_t *b,
                      int64_t sb, int64_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) out[i] = int64_op(job->op, a[i * sa], b[i * sb]);
}

static void run_row(const binary_job *job, int64_t offset_a, int64_t sa, int64_t offset_b,
                    int64_t sb, int64_t offset_out, int64_t n) {
  switch (job->dtype) {
  case TFLACCEL_DTYPE_FLOAT32:
    float_row(job, (const float *)job->a + offset_a, sa, (const float *)job->b + offset_b, sb,
              (float *)job->out + offset_out, n);
    break;
  case TFLACCEL_DTYPE_INT32:
    int32_row(job, (const int32_t *)job->a + offset_a, sa, (const int32_t *)job->b + offset_b,
              sb, (int32_t *)job->out + offset_out, n);
    break;
  default:
    int64_row(job, (const int64_t *)job->a + offset_a, sa, (const int64_t *)job->b + offset_b,
              sb, (int64_t *)job->out + offset_out, n);
    break;
  }
}

/* Flat: [begin, end) are element indices. Broadcast: they are indices over
 * the outer five dims, each covering one innermost row. */
static void binary_range(void *argument, int64_t begin, int64_t end) {
  const binary_job *job = argument;
  if (job->flat) {
    run_row(job, begin * job->flat_stride_a, job->flat_stride_a, begin * job->flat_stride_b,
            job->flat_stride_b, begin, end - begin);
    return;
  }
  const cpu_broadcast *shape = &job->shape;
  int64_t inner = shape->dims[CPU_MAX_RANK - 1];
  for (int64_t outer = begin; outer < end; outer++) {
    int64_t offset_a, offset_b;
    cpu_broadcast_row(shape, outer, &offset_a, &offset_b);
    run_row(job, offset_a, shape->stride_a[CPU_MAX_RANK - 1], offset_b,
            shape->stride_b[CPU_MAX_RANK - 1], outer * inner, inner);
  }
}

static tflaccel_status binary_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *a = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *b = cpu_input_tensor(context, 1);
  const tflaccel_tensor_desc *out = cpu_output_tensor(context, 0);
  binary_job job;
  job.op = binary_op_of(context->op->code);
  job.dtype = a->dtype;
  job.a = cpu_input_data(context, 0);
  job.b = cpu_input_data(context, 1);
  job.out = cpu_output_data(context, 0);
  int32_t activation =
      has_fused_activation(job.op) ? context->op->params->arithmetic.fused_activation : 0;
  cpu_activation_range(activation, &job.low, &job.high);
  cpu_activation_range_int32(activation, &job.low_i32, &job.high_i32);

  if (job.dtype == TFLACCEL_DTYPE_INT32 && (job.op == BINARY_DIV || job.op == BINARY_FLOOR_DIV)) {
    const int32_t *divisor = job.b;
    int64_t count = cpu_element_count(b);
    for (int64_t i = 0; i < count; i++)
      if (divisor[i] == 0)
        return CPU_STATUS(context, TFLACCEL_INVALID_ARGUMENT,
                          "integer division by zero (divisor element %lld)", (long long)i);
  }

  int64_t count_out = cpu_element_count(out);
  int64_t count_a = cpu_element_count(a), count_b = cpu_element_count(b);
  if (count_out == 0) return NULL;
  job.flat = (count_a == count_out || count_a == 1) && (count_b == count_out || count_b == 1);
  if (job.flat) {
    job.flat_stride_a = count_a == 1 ? 0 : 1;
    job.flat_stride_b = count_b == 1 ? 0 : 1;
    cpu_parallel_for(context->pool, count_out, BINARY_MIN_CHUNK, binary_range, &job);
    return NULL;
  }
  cpu_broadcast_init(&job.shape, a, b, out);
  int64_t inner = job.shape.dims[CPU_MAX_RANK - 1];
  int64_t rows = count_out / inner;
  int64_t min_rows = BINARY_MIN_CHUNK / inner;
  cpu_parallel_for(context->pool, rows, min_rows > 0 ? min_rows : 1, binary_range, &job);
  return NULL;
}

#define BINARY_KERNEL(name, code) \
  const cpu_kernel name = {.op_code = code, .check = binary_check, .eval = binary_eval}

BINARY_KERNEL(cpu_kernel_add, TFLACCEL_OP_ADD);
BINARY_KERNEL(cpu_kernel_sub, TFLACCEL_OP_SUB);
BINARY_KERNEL(cpu_kernel_mul, TFLACCEL_OP_MUL);
BINARY_KERNEL(cpu_kernel_div, TFLACCEL_OP_DIV);
BINARY_KERNEL(cpu_kernel_maximum, TFLACCEL_OP_MAXIMUM);
BINARY_KERNEL(cpu_kernel_minimum, TFLACCEL_OP_MINIMUM);
BINARY_KERNEL(cpu_kernel_floor_div, TFLACCEL_OP_FLOOR_DIV);
