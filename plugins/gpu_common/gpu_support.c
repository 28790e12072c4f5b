/* The GPU layer's delegation query (gpu_support.h): the checks every op
 * passes (it has a builder, its arity, its value tensors: float32, bool
 * where the builder allows it, or quantized ones the float view takes
 * (gpu_quant.h), rank <= 4), then the op's own rules from its builder
 * (ops/). */
#include "config.h"

#include <stdio.h>

#include "plugins/gpu_common/gpu_int_bounds.h"
#include "plugins/gpu_common/gpu_layout.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "core/facts/op_names.h"
#include "plugins/gpu_common/gpu_support.h"
#include "plugins/gpu_common/gpu_support_check.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The largest tensor: indices stay within int32 in the kernels. */
#define GPU_MAX_STORED_ELEMENTS (INT64_C(1) << 30)

/* The checks every value tensor of every op passes. */
static int check_value_tensor(const gpu_support_check *check, const gpu_op_builder *builder,
                              const tflaccel_tensor_desc *tensor, const char *role,
                              int holds_state) {
  int32_t dtype = tensor->dtype, values = builder->values;
  /* int32 values as exact float values, where their bound is proven. */
  int int_view = builder->int32_values && values != GPU_VALUES_BOOL &&
                 dtype == TFLACCEL_DTYPE_INT32 && tensor->quantization.count == 0;
  if (int_view && !gpu_check_int_values(check, tensor, role)) return 0;
  /* The float view (gpu_quant.h): a quantized activation computes as
   * float on its real values; a quantized constant is dequantized once. */
  int quantized = dtype != TFLACCEL_DTYPE_FLOAT32 && dtype != TFLACCEL_DTYPE_BOOL;
  int float_view = gpu_is_quantized_activation(tensor) || gpu_is_quantized_constant(tensor);
  if (quantized && float_view && values == GPU_VALUES_BOOL)
    return gpu_decline(check, "%s %s is %s, expected bool", check->name, role, dtype_name(dtype));
  if (quantized && !float_view && tensor->quantization.count > 0)
    return gpu_decline(check,
                       "%s %s is %s with a quantization the float view does not take "
                       "(activations: one scale > 0 and a zero point in range)",
                       check->name, role, dtype_name(dtype));
  if (!quantized && tensor->quantization.count > 0)
    return gpu_decline(check, "%s %s is %s with a quantization", check->name, role,
                       dtype_name(dtype));
  int bool_ok = values != GPU_VALUES_FLOAT32 && dtype == TFLACCEL_DTYPE_BOOL;
  if (values == GPU_VALUES_BOOL && dtype != TFLACCEL_DTYPE_BOOL)
    return gpu_decline(check, "%s %s is %s, expected bool", check->name, role,
                       dtype_name(dtype));
  if (dtype != TFLACCEL_DTYPE_FLOAT32 && !bool_ok && !float_view && !int_view)
    return gpu_decline(check, "%s %s is %s: only float32 values run on the GPU", check->name, role,
                       dtype_name(dtype));
  if (tensor->rank > GPU_MAX_RANK)
    return gpu_decline(check, "%s %s has rank %u: GPU kernels take rank <= 4", check->name, role,
                       tensor->rank);
  for (uint32_t d = 0; d < tensor->rank; ++d)
    if (tensor->dims[d] < 1)
      return gpu_decline(check, "%s %s is empty or has an unknown dim", check->name, role);
  if ((tensor->flags & TFLACCEL_TENSOR_VARIABLE) && !holds_state)
    return gpu_decline(check, "%s %s is a variable (state) tensor", check->name, role);
  if (gpu_shape_stored_elements(gpu_shape_of(tensor)) > GPU_MAX_STORED_ELEMENTS)
    return gpu_decline(check, "%s %s is too large for 32-bit indexing", check->name, role);
  return 1;
}

/* The inputs and outputs the builder's op must have. */
static int check_arity(const gpu_support_check *check, const gpu_op_builder *builder) {
  const tflaccel_op_desc *op = check->op;
  uint32_t min = builder->min_inputs, max = builder->max_inputs, outputs = builder->outputs;
  if (max == GPU_OP_ANY_INPUTS) max = op->input_count; /* as the message reports it */
  if (outputs == GPU_OP_ANY_OUTPUTS) outputs = op->output_count;
  if (op->input_count < min || op->input_count > max)
    return gpu_decline(check, "%s has %u inputs, expected %u to %u", check->name, op->input_count,
                       min, max);
  for (uint32_t i = 0; i < min; ++i)
    if (gpu_op_input(check->graph, op, i) == NULL)
      return gpu_decline(check, "%s input %u is missing", check->name, i);
  if (op->output_count != outputs)
    return gpu_decline(check, "%s has %u outputs, expected %u", check->name, op->output_count,
                       outputs);
  for (uint32_t i = 0; i < outputs; ++i)
    if (gpu_op_output(check->graph, op, i) == NULL)
      return gpu_decline(check, "%s output %u is missing", check->name, i);
  return 1;
}

/* gpu_op_supported, and *inexact_integers (when not NULL) set to 1 when
 * the decline was made only because int32 values pass the precision's
 * exact integers. */
static int op_supported(const tflaccel_graph_view *graph, uint32_t op_index, int32_t precision,
                        const char *plugin_name, char *reason, size_t reason_size,
                        int32_t *inexact_integers) {
  const tflaccel_op_desc *op = &graph->ops[op_index];
  const gpu_op_builder *builder = gpu_op_builder_find(op);
  const char *name = op->code == TFLACCEL_OP_CUSTOM ? op->custom_code : op_code_name(op->code);
  gpu_support_check check = {graph,       op,        name,        plugin_name, reason,
                             reason_size, precision, inexact_integers};
  if (builder == NULL) {
    if (op->code == TFLACCEL_OP_CUSTOM) {
      const char *custom_why = gpu_op_no_custom_kernel_reason(op->custom_code);
      if (custom_why != NULL)
        return gpu_decline(&check, "there is no GPU kernel for custom op %s: %s", op->custom_code,
                           custom_why);
      return gpu_decline(&check, "there is no GPU kernel for custom op %s",
                         op->custom_code ? op->custom_code : "(unnamed)");
    }
    const char *why = gpu_op_no_kernel_reason(op->code);
    if (name != NULL && why != NULL)
      return gpu_decline(&check, "there is no GPU kernel for %s: %s", name, why);
    if (name != NULL) return gpu_decline(&check, "there is no GPU kernel for %s", name);
    return gpu_decline(&check, "there is no GPU kernel for op code %d", (int)op->code);
  }
  if (builder->has_kernel != NULL && !builder->has_kernel(&check)) return 0;
  if (!check_arity(&check, builder)) return 0;
  if (!gpu_check_float_view(&check)) return 0;
  /* Quantization is the first thing to say about a quantized op. */
  for (uint32_t i = 0; i < op->input_count + op->output_count; ++i) {
    int is_input = i < op->input_count;
    const tflaccel_tensor_desc *tensor =
        is_input ? gpu_op_input(graph, op, i) : gpu_op_output(graph, op, i - op->input_count);
    if (tensor == NULL || (is_input && gpu_op_input_holds_indices(builder, i)) ||
        (is_input && gpu_op_input_holds_integers(builder, i)) ||
        (!is_input && gpu_op_output_holds_indices(builder, i - op->input_count)) ||
        (!is_input && gpu_op_output_may_be_quantized_int32(builder, i - op->input_count) &&
         gpu_is_quantized_int32(tensor)))
      continue;
    char role[32];
    if (is_input)
      snprintf(role, sizeof role, "input %u", i);
    else
      snprintf(role, sizeof role, "output");
    int holds_state = is_input && gpu_op_input_holds_state(builder, i);
    if (!check_value_tensor(&check, builder, tensor, role, holds_state)) return 0;
  }
  return builder->supports(&check);
}

int gpu_op_supported(const tflaccel_graph_view *graph, uint32_t op_index, int32_t precision,
                     const char *plugin_name, char *reason, size_t reason_size) {
  return op_supported(graph, op_index, precision, plugin_name, reason, reason_size, NULL);
}

int gpu_op_supported_at(const tflaccel_graph_view *graph, uint32_t op_index, int32_t precision,
                        const char *plugin_name, char *reason, size_t reason_size,
                        int32_t *required_precision) {
  *required_precision = -1;
  int32_t inexact_integers = 0;
  if (op_supported(graph, op_index, precision, plugin_name, reason, reason_size, &inexact_integers))
    return 1;
  if (!inexact_integers || precision == TFLACCEL_PRECISION_FP32) return 0;
  /* Declined only for its integers: fp32 holds them exactly up to 2^24.
   * The precision's reason stays, as the decline's or as why fp32. */
  char wide_reason[TFLACCEL_REASON_SIZE];
  if (!op_supported(graph, op_index, TFLACCEL_PRECISION_FP32, plugin_name, wide_reason,
                    sizeof wide_reason, NULL))
    return 0;
  *required_precision = TFLACCEL_PRECISION_FP32;
  return 1;
}
