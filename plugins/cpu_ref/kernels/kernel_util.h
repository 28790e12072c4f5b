/* Helpers shared by cpu_ref's kernels: tensor access, shape arithmetic,
 * fused activations, padding and the reasons check() gives. */
#ifndef TFLACCEL_CPU_REF_KERNEL_UTIL_H
#define TFLACCEL_CPU_REF_KERNEL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/cpu_ref/kernel.h"

/* The highest rank the broadcasting and transposing kernels handle. */
#define CPU_MAX_RANK 6

/* Tensor of input / output i of op, or NULL when absent or out of range. */
const tflaccel_tensor_desc *cpu_op_input(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op, uint32_t index);
const tflaccel_tensor_desc *cpu_op_output(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op, uint32_t index);

/* The same, from an eval/prepare context. */
static inline const tflaccel_tensor_desc *cpu_input_tensor(const cpu_op_context *context,
                                                           uint32_t index) {
  return cpu_op_input(context->graph, context->op, index);
}
static inline const tflaccel_tensor_desc *cpu_output_tensor(const cpu_op_context *context,
                                                            uint32_t index) {
  return cpu_op_output(context->graph, context->op, index);
}

/* Host address of input / output i (NULL when absent). */
void *cpu_input_data(const cpu_op_context *context, uint32_t index);
void *cpu_output_data(const cpu_op_context *context, uint32_t index);

int64_t cpu_element_count(const tflaccel_tensor_desc *tensor);
/* Product of dims [begin, end). */
int64_t cpu_dims_product(const tflaccel_tensor_desc *tensor, uint32_t begin, uint32_t end);
int cpu_same_shape(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b);
size_t cpu_dtype_size(int32_t dtype);
const char *cpu_dtype_name(int32_t dtype);
const char *cpu_op_name(const tflaccel_op_desc *op);

int cpu_is_constant(const tflaccel_tensor_desc *tensor);
/* uint8 / int8 / int16 with quantization parameters. */
int cpu_is_quantized(const tflaccel_tensor_desc *tensor);
/* Same scales and zero points (or neither quantized). */
int cpu_same_quantization(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b);

/* Writes a one-line reason (printf format) and returns 0, so that a check
 * can `return cpu_reason(reason, ...)`. */
int cpu_reason(char *reason, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Checks the op's input/output counts and that inputs [0, required_inputs)
 * and every output are present; fills reason and returns 0 otherwise. */
int cpu_check_arity(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                    uint32_t required_inputs, uint32_t max_inputs, uint32_t outputs,
                    char *reason);
/* Tensor has dtype / rank, else a reason naming `what` ("input", ...). */
int cpu_check_dtype(const tflaccel_tensor_desc *tensor, int32_t dtype, const char *what,
                    char *reason);
int cpu_check_rank(const tflaccel_tensor_desc *tensor, uint32_t rank, const char *what,
                   char *reason);
/* Data-movement kernels copy quantized values as they are: only valid when
 * input and output share their quantization. */
int cpu_check_same_quantization(const tflaccel_tensor_desc *input,
                                const tflaccel_tensor_desc *output, char *reason);

/* Fused activations: TFLite clamps RELU, RELU6 and RELU_N1_TO_1 and has no
 * float kernel that applies TANH or SIGN_BIT, so those are declined. */
int cpu_check_activation(int32_t activation, char *reason);
void cpu_activation_range(int32_t activation, float *low, float *high);
void cpu_activation_range_int32(int32_t activation, int32_t *low, int32_t *high);
static inline float cpu_clamp(float value, float low, float high) {
  return value < low ? low : (value > high ? high : value);
}

/* out[i] += x * w[i] and out[i] += a[i] * b[i] for i in [0, n): the inner
 * loops of the convolutions. Unrolled by 8 over non-aliasing pointers so
 * that -O2 vectorises them; each element still gets one multiply-add, in
 * the same order as a plain loop. */
static inline void cpu_axpy(float *restrict out, const float *restrict w, float x, int32_t n) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    out[i] += x * w[i];
    out[i + 1] += x * w[i + 1];
    out[i + 2] += x * w[i + 2];
    out[i + 3] += x * w[i + 3];
    out[i + 4] += x * w[i + 4];
    out[i + 5] += x * w[i + 5];
    out[i + 6] += x * w[i + 6];
    out[i + 7] += x * w[i + 7];
  }
  for (; i < n; i++) out[i] += x * w[i];
}

static inline void cpu_multiply_accumulate(float *restrict out, const float *restrict a,
                                           const float *restrict b, int32_t n) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    out[i] += a[i] * b[i];
    out[i + 1] += a[i + 1] * b[i + 1];
    out[i + 2] += a[i + 2] * b[i + 2];
    out[i + 3] += a[i + 3] * b[i + 3];
    out[i + 4] += a[i + 4] * b[i + 4];
    out[i + 5] += a[i + 5] * b[i + 5];
    out[i + 6] += a[i + 6] * b[i + 6];
    out[i + 7] += a[i + 7] * b[i + 7];
  }
  for (; i < n; i++) out[i] += a[i] * b[i];
}


/* Reads element i of an int32 or int64 constant (indices, shapes, axes). */
int64_t cpu_read_index(const tflaccel_tensor_desc *tensor, const void *data, int64_t i);
/* True for int32 and int64 tensors. */
int cpu_is_index_dtype(int32_t dtype);

/* Broadcasting of two shapes to the output's shape, right-aligned, over
 * CPU_MAX_RANK dims; strides are 0 along broadcast dims. */
typedef struct cpu_broadcast {
  int64_t dims[CPU_MAX_RANK];
  int64_t stride_a[CPU_MAX_RANK], stride_b[CPU_MAX_RANK];
} cpu_broadcast;
/* Checks that a and b broadcast to out (reason otherwise). */
int cpu_check_broadcast(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b,
                        const tflaccel_tensor_desc *out, char *reason);
void cpu_broadcast_init(cpu_broadcast *broadcast, const tflaccel_tensor_desc *a,
                        const tflaccel_tensor_desc *b, const tflaccel_tensor_desc *out);
/* Element offsets in a and b of the first element of output row `row` (a
 * row being the innermost dimension: output elements [row * inner, +inner)). */
void cpu_broadcast_row(const cpu_broadcast *broadcast, int64_t row, int64_t *offset_a,
                       int64_t *offset_b);


/* A status made with the host's services. */
#define CPU_STATUS(context, code, ...) ((context)->host->status_make((code), __VA_ARGS__))

#endif
