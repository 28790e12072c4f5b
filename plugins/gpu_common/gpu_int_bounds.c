/* The bound proof of int32 values held as floats (gpu_int_bounds.h). */
#include "config.h"

#include "core/facts/axis.h"
#include "core/facts/op_names.h"
#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"

/* Bounds saturate here: far above any exact limit, far below overflow. */
#define BOUND_CEILING (INT64_C(1) << 40)
/* Producer chains deeper than this are not followed (no bound). */
#define BOUND_DEPTH 48

int64_t gpu_exact_integer_limit(int32_t precision) {
  return precision == TFLACCEL_PRECISION_FP16 ? INT64_C(1) << 11 : INT64_C(1) << 24;
}

static int64_t saturate(int64_t value) { return value > BOUND_CEILING ? BOUND_CEILING : value; }

/* The op that writes tensor, or NULL (a graph input, a constant). */
static const tflaccel_op_desc *producer_of(const tflaccel_graph_view *graph, uint32_t tensor) {
  for (uint32_t o = 0; o < graph->op_count; ++o) {
    const tflaccel_op_desc *op = &graph->ops[o];
    for (uint32_t i = 0; i < op->output_count; ++i)
      if (op->outputs[i] == tensor) return op;
  }
  return NULL;
}

static int bound_of(const tflaccel_graph_view *graph, uint32_t tensor, int depth, int64_t *bound);

/* The bound of op input i (0 when absent or unbounded). */
static int input_bound(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t i,
                       int depth, int64_t *bound) {
  if (i >= op->input_count || op->inputs[i] == TFLACCEL_NO_TENSOR) return 0;
  return bound_of(graph, op->inputs[i], depth + 1, bound);
}

/* The largest bound of inputs [first, count): ops that move values. */
static int moved_bound(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       uint32_t first, uint32_t count, int depth, int64_t *bound) {
  int64_t largest = 0;
  for (uint32_t i = first; i < count; ++i) {
    int64_t b;
    if (!input_bound(graph, op, i, depth, &b)) return 0;
    if (b > largest) largest = b;
  }
  *bound = largest;
  return 1;
}

static int constant_bound(const tflaccel_tensor_desc *desc, int64_t *bound) {
  if (desc->dtype != TFLACCEL_DTYPE_INT32 || desc->quantization.count > 0) return 0;
  int64_t count = 1;
  for (uint32_t d = 0; d < desc->rank; ++d) count *= desc->dims[d];
  if (desc->data_size < (uint64_t)count * 4) return 0;
  int64_t largest = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = gpu_index_value(desc, i);
    if (v < 0) v = -v;
    if (v > largest) largest = v;
  }
  *bound = saturate(largest);
  return 1;
}

/* The smallest nonzero |value| of a constant int32 tensor; 1 when it is
 * not one (any integer divisor has |b| >= 1). */
static int64_t smallest_constant_magnitude(const tflaccel_tensor_desc *desc) {
  if (desc == NULL || !gpu_tensor_is_constant(desc) || desc->dtype != TFLACCEL_DTYPE_INT32 ||
      desc->quantization.count > 0)
    return 1;
  int64_t count = 1, smallest = 0;
  for (uint32_t d = 0; d < desc->rank; ++d) count *= desc->dims[d];
  if (count < 1 || desc->data_size < (uint64_t)count * 4) return 1;
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = gpu_index_value(desc, i);
    if (v < 0) v = -v;
    if (v == 0) return 1; /* no value where it divides by 0 */
    if (smallest == 0 || v < smallest) smallest = v;
  }
  return smallest;
}

static int bound_of(const tflaccel_graph_view *graph, uint32_t tensor, int depth, int64_t *bound) {
  if (tensor >= graph->tensor_count || depth > BOUND_DEPTH) return 0;
  const tflaccel_tensor_desc *desc = &graph->tensors[tensor];
  if (desc->flags & TFLACCEL_TENSOR_CONSTANT)
    return desc->data != NULL && constant_bound(desc, bound);
  if (desc->flags & (TFLACCEL_TENSOR_GRAPH_INPUT | TFLACCEL_TENSOR_VARIABLE)) return 0;
  const tflaccel_op_desc *op = producer_of(graph, tensor);
  if (op == NULL) return 0;
  int64_t a, b;
  switch (op->code) {
    case TFLACCEL_OP_ARG_MAX:
    case TFLACCEL_OP_ARG_MIN: {
      /* An index along the axis: at most its size - 1. */
      const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
      const tflaccel_tensor_desc *axis = gpu_op_input(graph, op, 1);
      if (input == NULL || axis == NULL || !gpu_tensor_is_index_constant(axis)) return 0;
      int32_t at = axis_normalize(gpu_index_value(axis, 0), input->rank);
      if (at < 0) return 0;
      *bound = input->dims[at] - 1;
      return 1;
    }
    case TFLACCEL_OP_ADD:
    case TFLACCEL_OP_SUB:
      if (!input_bound(graph, op, 0, depth, &a) || !input_bound(graph, op, 1, depth, &b)) return 0;
      *bound = saturate(a + b);
      return 1;
    case TFLACCEL_OP_MUL:
      if (!input_bound(graph, op, 0, depth, &a) || !input_bound(graph, op, 1, depth, &b)) return 0;
      *bound = a != 0 && b > BOUND_CEILING / a ? BOUND_CEILING : saturate(a * b);
      return 1;
    case TFLACCEL_OP_FLOOR_DIV: {
      /* |floor(a / b)| <= ceil(|a| / |b|): |a| for any integer b != 0,
       * less for a constant divisor (its smallest magnitude). */
      if (!input_bound(graph, op, 0, depth, &a)) return 0;
      int64_t divisor = smallest_constant_magnitude(gpu_op_input(graph, op, 1));
      *bound = divisor > 1 ? (a + divisor - 1) / divisor : a;
      return 1;
    }
    case TFLACCEL_OP_MAXIMUM:
    case TFLACCEL_OP_MINIMUM: return moved_bound(graph, op, 0, 2, depth, bound);
    case TFLACCEL_OP_PACK:
    case TFLACCEL_OP_CONCATENATION: return moved_bound(graph, op, 0, op->input_count, depth, bound);
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_TRANSPOSE:
    case TFLACCEL_OP_STRIDED_SLICE:
    case TFLACCEL_OP_GATHER_ND:
    case TFLACCEL_OP_UNPACK: return moved_bound(graph, op, 0, 1, depth, bound);
    default: return 0;
  }
}

int gpu_int_bound(const tflaccel_graph_view *graph, uint32_t tensor, int64_t *bound) {
  return bound_of(graph, tensor, 0, bound);
}

void gpu_mark_inexact_integers(const gpu_support_check *check) {
  if (check->inexact_integers != NULL) *check->inexact_integers = 1;
}

int gpu_check_int_values(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                         const char *role) {
  const tflaccel_graph_view *graph = check->graph;
  uint32_t index = (uint32_t)(tensor - graph->tensors);
  int64_t limit = gpu_exact_integer_limit(check->precision), bound;
  const char *precision = check->precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32";
  if (!gpu_int_bound(graph, index, &bound))
    return gpu_decline(check,
                       "%s %s is int32 with no proven bound (GPU tensors hold integers as "
                       "float values, exact in %s up to %lld)",
                       check->name, role, precision, (long long)limit);
  if (bound > limit) {
    gpu_mark_inexact_integers(check);
    return gpu_decline(check,
                       "%s %s is int32 with values up to %lld: GPU tensors hold integers as "
                       "float values, exact in %s only up to %lld",
                       check->name, role, (long long)bound, precision, (long long)limit);
  }
  return 1;
}

int gpu_check_int_dividend(const gpu_support_check *check, const tflaccel_tensor_desc *dividend) {
  const tflaccel_graph_view *graph = check->graph;
  int64_t limit = gpu_exact_integer_limit(check->precision) / GPU_INT_DIVISION_MARGIN, bound;
  if (!gpu_int_bound(graph, (uint32_t)(dividend - graph->tensors), &bound)) bound = INT64_MAX;
  if (bound > limit) {
    if (bound != INT64_MAX) gpu_mark_inexact_integers(check);
    return gpu_decline(check,
                       "%s of int32 values up to %lld: floor(a / b) of float values is exact "
                       "only for |a| up to %lld in %s (GPU division rounds within 2.5 ulp)",
                       check->name, (long long)bound, (long long)limit,
                       check->precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32");
  }
  return 1;
}
