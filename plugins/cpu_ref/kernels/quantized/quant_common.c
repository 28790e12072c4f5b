#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/quant_common.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const tflaccel_tensor_desc *q_input(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                    uint32_t slot) {
  const uint32_t index = q_input_index(op, slot);
  if (index == TFLACCEL_NO_TENSOR || index >= graph->tensor_count) return NULL;
  return &graph->tensors[index];
}

const tflaccel_tensor_desc *q_output(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                     uint32_t slot) {
  const uint32_t index = q_output_index(op, slot);
  if (index == TFLACCEL_NO_TENSOR || index >= graph->tensor_count) return NULL;
  return &graph->tensors[index];
}

uint32_t q_input_index(const tflaccel_op_desc *op, uint32_t slot) {
  return slot < op->input_count ? op->inputs[slot] : TFLACCEL_NO_TENSOR;
}

uint32_t q_output_index(const tflaccel_op_desc *op, uint32_t slot) {
  return slot < op->output_count ? op->outputs[slot] : TFLACCEL_NO_TENSOR;
}

void *q_input_data(const cpu_op_context *context, uint32_t slot) {
  const uint32_t index = q_input_index(context->op, slot);
  return index == TFLACCEL_NO_TENSOR ? NULL : context->tensor_data[index];
}

void *q_output_data(const cpu_op_context *context, uint32_t slot) {
  const uint32_t index = q_output_index(context->op, slot);
  return index == TFLACCEL_NO_TENSOR ? NULL : context->tensor_data[index];
}

int q_is_integer_dtype(int32_t dtype) {
  return dtype == TFLACCEL_DTYPE_UINT8 || dtype == TFLACCEL_DTYPE_INT8 ||
         dtype == TFLACCEL_DTYPE_INT16;
}

int q_is_quantized(const tflaccel_tensor_desc *tensor) {
  return tensor != NULL && q_is_integer_dtype(tensor->dtype) && tensor->quantization.count > 0 &&
         tensor->quantization.scales != NULL && tensor->quantization.zero_points != NULL;
}

size_t q_dtype_size(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8:
  case TFLACCEL_DTYPE_INT8:
  case TFLACCEL_DTYPE_BOOL:
    return 1;
  case TFLACCEL_DTYPE_INT16:
  case TFLACCEL_DTYPE_FLOAT16:
    return 2;
  case TFLACCEL_DTYPE_FLOAT32:
  case TFLACCEL_DTYPE_INT32:
    return 4;
  case TFLACCEL_DTYPE_INT64:
    return 8;
  default:
    return 0;
  }
}

const char *q_dtype_name(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return "float32";
  case TFLACCEL_DTYPE_FLOAT16: return "float16";
  case TFLACCEL_DTYPE_INT32: return "int32";
  case TFLACCEL_DTYPE_UINT8: return "uint8";
  case TFLACCEL_DTYPE_INT64: return "int64";
  case TFLACCEL_DTYPE_BOOL: return "bool";
  case TFLACCEL_DTYPE_INT16: return "int16";
  case TFLACCEL_DTYPE_INT8: return "int8";
  default: return "an unsupported dtype";
  }
}

void q_dtype_range(int32_t dtype, int32_t *min, int32_t *max) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8:
    *min = 0;
    *max = 255;
    break;
  case TFLACCEL_DTYPE_INT8:
    *min = -128;
    *max = 127;
    break;
  case TFLACCEL_DTYPE_INT16:
    *min = INT16_MIN;
    *max = INT16_MAX;
    break;
  default:
    *min = INT32_MIN;
    *max = INT32_MAX;
    break;
  }
}

float q_scale(const tflaccel_tensor_desc *tensor) {
  if (tensor == NULL || tensor->quantization.count == 0 || tensor->quantization.scales == NULL)
    return 1.0f;
  return tensor->quantization.scales[0];
}

int32_t q_zero_point(const tflaccel_tensor_desc *tensor) {
  if (tensor == NULL || tensor->quantization.count == 0 ||
      tensor->quantization.zero_points == NULL)
    return 0;
  return tensor->quantization.zero_points[0];
}

int64_t q_element_count(const tflaccel_tensor_desc *tensor) {
  int64_t count = 1;
  for (uint32_t d = 0; d < tensor->rank; d++) count *= tensor->dims[d];
  return count;
}

int32_t q_dim_from_end(const tflaccel_tensor_desc *tensor, uint32_t d) {
  if (d == 0 || d > tensor->rank) return 1;
  return tensor->dims[tensor->rank - d];
}

int q_reason(char *reason, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(reason, TFLACCEL_REASON_SIZE, format, args);
  va_end(args);
  return 0;
}

int q_tensor_reason(char *reason, const tflaccel_graph_view *graph, uint32_t tensor_index,
                    const char *format, ...) {
  const char *name = tensor_index < graph->tensor_count ? graph->tensors[tensor_index].name : "";
  if (name == NULL) name = "";
  /* Long TFLite names (whole fused-op paths) are cut so the detail fits. */
  int used = snprintf(reason, TFLACCEL_REASON_SIZE, "tensor %u (%.120s%s): ", tensor_index, name,
                      strlen(name) > 120 ? "..." : "");
  if (used < 0) used = 0;
  if (used >= TFLACCEL_REASON_SIZE) return 0;
  va_list args;
  va_start(args, format);
  vsnprintf(reason + used, (size_t)(TFLACCEL_REASON_SIZE - used), format, args);
  va_end(args);
  return 0;
}

int q_check_quantization_valid(const tflaccel_graph_view *graph, uint32_t tensor_index,
                               char *reason) {
  if (tensor_index == TFLACCEL_NO_TENSOR || tensor_index >= graph->tensor_count) return 1;
  const tflaccel_tensor_desc *tensor = &graph->tensors[tensor_index];
  const tflaccel_quantization *quant = &tensor->quantization;
  if (quant->count == 0) return 1;
  if (quant->scales == NULL || quant->zero_points == NULL)
    return q_tensor_reason(reason, graph, tensor_index, "quantization without scales or zero points");
  /* The core refuses such files at load; a plugin trusts no caller with
   * parameters its fixed-point arithmetic cannot take. */
  int32_t zero_point_min = INT32_MIN, zero_point_max = INT32_MAX;
  if (tensor->dtype == TFLACCEL_DTYPE_UINT8 || tensor->dtype == TFLACCEL_DTYPE_INT8 ||
      tensor->dtype == TFLACCEL_DTYPE_INT16)
    q_dtype_range(tensor->dtype, &zero_point_min, &zero_point_max);
  for (uint32_t i = 0; i < quant->count; i++) {
    if (!isfinite(quant->scales[i]) || !(quant->scales[i] > 0.0f))
      return q_tensor_reason(reason, graph, tensor_index, "scale %u (%g) is not a positive number",
                             i, (double)quant->scales[i]);
    if (quant->zero_points[i] < zero_point_min || quant->zero_points[i] > zero_point_max)
      return q_tensor_reason(reason, graph, tensor_index, "zero point %u (%d) is outside the %s range",
                             i, (int)quant->zero_points[i], q_dtype_name(tensor->dtype));
  }
  if (tensor->rank == 0) return 1; /* TFLite checks the axis only for ranked tensors */
  if (quant->quantized_dimension < 0 || (uint32_t)quant->quantized_dimension >= tensor->rank)
    return q_tensor_reason(reason, graph, tensor_index,
                           "quantized_dimension %d out of range for a rank-%u tensor",
                           quant->quantized_dimension, tensor->rank);
  const int32_t axis_size = tensor->dims[quant->quantized_dimension];
  if (quant->count != 1 && (int64_t)quant->count != axis_size)
    return q_tensor_reason(reason, graph, tensor_index,
                           "%u scales for an axis of %d elements (need 1 or %d)", quant->count,
                           axis_size, axis_size);
  return 1;
}

int q_check_op_quantization(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  return q_check_op_quantization_except(graph, op, UINT32_MAX, reason);
}

int q_check_op_quantization_except(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                                   uint32_t skipped_slot, char *reason) {
  for (uint32_t i = 0; i < op->input_count; i++)
    if (i != skipped_slot && !q_check_quantization_valid(graph, op->inputs[i], reason)) return 0;
  for (uint32_t i = 0; i < op->output_count; i++)
    if (!q_check_quantization_valid(graph, op->outputs[i], reason)) return 0;
  for (uint32_t i = 0; i < op->intermediate_count; i++)
    if (!q_check_quantization_valid(graph, op->intermediates[i], reason)) return 0;
  return 1;
}

int q_check_per_tensor(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, int is_output,
                       uint32_t slot, int32_t dtype, char *reason) {
  const uint32_t index = is_output ? q_output_index(op, slot) : q_input_index(op, slot);
  const char *role = is_output ? "output" : "input";
  if (index == TFLACCEL_NO_TENSOR || index >= graph->tensor_count)
    return q_reason(reason, "%s %u is missing", role, slot);
  const tflaccel_tensor_desc *tensor = &graph->tensors[index];
  if (dtype >= 0 ? tensor->dtype != dtype : !q_is_integer_dtype(tensor->dtype))
    return q_tensor_reason(reason, graph, index, "%s %u is %s, expected %s", role, slot,
                           q_dtype_name(tensor->dtype),
                           dtype >= 0 ? q_dtype_name(dtype) : "uint8, int8 or int16");
  if (!q_is_quantized(tensor))
    return q_tensor_reason(reason, graph, index, "%s %u has no quantization parameters", role,
                           slot);
  if (tensor->quantization.count != 1)
    return q_tensor_reason(reason, graph, index,
                           "%s %u is quantized per axis; this op needs one scale", role, slot);
  if (!(tensor->quantization.scales[0] > 0.0f))
    return q_tensor_reason(reason, graph, index, "%s %u has a non-positive scale %g", role, slot,
                           (double)tensor->quantization.scales[0]);
  return 1;
}

int q_check_constant(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                     char *reason) {
  const uint32_t index = q_input_index(op, slot);
  if (index == TFLACCEL_NO_TENSOR || index >= graph->tensor_count)
    return q_reason(reason, "input %u is missing", slot);
  const tflaccel_tensor_desc *tensor = &graph->tensors[index];
  if (!(tensor->flags & TFLACCEL_TENSOR_CONSTANT) || tensor->data == NULL)
    return q_tensor_reason(reason, graph, index, "input %u must be a constant", slot);
  if (tensor->data_size < tensor->byte_size)
    return q_tensor_reason(reason, graph, index, "constant holds %llu bytes, needs %llu",
                           (unsigned long long)tensor->data_size,
                           (unsigned long long)tensor->byte_size);
  return 1;
}

int q_check_fused_activation(int32_t fused_activation, char *reason) {
  if (fused_activation > TFLACCEL_ACT_RELU6)
    return q_reason(reason, "fused activation %d is not supported on quantized tensors",
                    fused_activation);
  return 1;
}

const char *q_op_name(int32_t code) {
  switch (code) {
  case TFLACCEL_OP_ADD: return "ADD";
  case TFLACCEL_OP_AVERAGE_POOL_2D: return "AVERAGE_POOL_2D";
  case TFLACCEL_OP_CONCATENATION: return "CONCATENATION";
  case TFLACCEL_OP_CONV_2D: return "CONV_2D";
  case TFLACCEL_OP_DEPTHWISE_CONV_2D: return "DEPTHWISE_CONV_2D";
  case TFLACCEL_OP_DEQUANTIZE: return "DEQUANTIZE";
  case TFLACCEL_OP_FULLY_CONNECTED: return "FULLY_CONNECTED";
  case TFLACCEL_OP_LOGISTIC: return "LOGISTIC";
  case TFLACCEL_OP_LSTM: return "LSTM";
  case TFLACCEL_OP_MAX_POOL_2D: return "MAX_POOL_2D";
  case TFLACCEL_OP_MUL: return "MUL";
  case TFLACCEL_OP_MAXIMUM: return "MAXIMUM";
  case TFLACCEL_OP_MINIMUM: return "MINIMUM";
  case TFLACCEL_OP_SQUARED_DIFFERENCE: return "SQUARED_DIFFERENCE";
  case TFLACCEL_OP_RELU: return "RELU";
  case TFLACCEL_OP_RELU_N1_TO_1: return "RELU_N1_TO_1";
  case TFLACCEL_OP_RELU6: return "RELU6";
  case TFLACCEL_OP_RESIZE_BILINEAR: return "RESIZE_BILINEAR";
  case TFLACCEL_OP_SOFTMAX: return "SOFTMAX";
  case TFLACCEL_OP_SVDF: return "SVDF";
  case TFLACCEL_OP_TANH: return "TANH";
  case TFLACCEL_OP_PAD: return "PAD";
  case TFLACCEL_OP_MEAN: return "MEAN";
  case TFLACCEL_OP_SUB: return "SUB";
  case TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return "UNIDIRECTIONAL_SEQUENCE_LSTM";
  case TFLACCEL_OP_CAST: return "CAST";
  case TFLACCEL_OP_ARG_MAX: return "ARG_MAX";
  case TFLACCEL_OP_ARG_MIN: return "ARG_MIN";
  case TFLACCEL_OP_PADV2: return "PADV2";
  case TFLACCEL_OP_QUANTIZE: return "QUANTIZE";
  case TFLACCEL_OP_HARD_SWISH: return "HARD_SWISH";
  default: return "op";
  }
}

tflaccel_status q_error(const cpu_op_context *context, int32_t code, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  return context->host->status_make(code, "op %u (%s): %s", context->op_index,
                                    q_op_name(context->op->code), message);
}

tflaccel_status q_require_multiplier(const cpu_op_context *context, const char *what,
                                     double real_multiplier, int32_t *multiplier, int *shift) {
  if (q_quantize_multiplier(real_multiplier, multiplier, shift)) return NULL;
  return q_error(context, TFLACCEL_INVALID_MODEL,
                 "%s is %g, not a multiplier in [0, 2^31) (absurd quantization parameters)", what,
                 real_multiplier);
}

tflaccel_status q_out_of_memory(const cpu_op_context *context, size_t bytes) {
  return q_error(context, TFLACCEL_OUT_OF_MEMORY, "cannot allocate %zu bytes", bytes);
}

void *q_alloc(const cpu_op_context *context, size_t size) {
  void *pointer = context->host->alloc(context->host->context, size == 0 ? 1 : size, 16);
  if (pointer != NULL) memset(pointer, 0, size == 0 ? 1 : size);
  return pointer;
}

void q_free(const tflaccel_host_services *host, void *pointer) {
  if (pointer != NULL) host->free(host->context, pointer);
}

int q_broadcast_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  const tflaccel_tensor_desc *input1 = q_input(graph, op, 0);
  const tflaccel_tensor_desc *input2 = q_input(graph, op, 1);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input1 == NULL || input2 == NULL || output == NULL)
    return q_reason(reason, "needs two inputs and one output");
  if (output->rank > Q_MAX_DIMS || input1->rank > output->rank || input2->rank > output->rank)
    return q_reason(reason, "ranks %u, %u -> %u cannot broadcast (at most %d dims)", input1->rank,
                    input2->rank, output->rank, Q_MAX_DIMS);
  for (uint32_t d = 1; d <= output->rank; d++) {
    const int32_t out = q_dim_from_end(output, d);
    const int32_t a = q_dim_from_end(input1, d);
    const int32_t b = q_dim_from_end(input2, d);
    if ((a != out && a != 1) || (b != out && b != 1) || (a != out && b != out))
      return q_reason(reason, "shapes do not broadcast at dimension %u from the end (%d, %d -> %d)",
                      d, a, b, out);
  }
  return 1;
}

void q_broadcast_init(const tflaccel_tensor_desc *input1, const tflaccel_tensor_desc *input2,
                      const tflaccel_tensor_desc *output, q_broadcast *broadcast) {
  memset(broadcast, 0, sizeof *broadcast);
  broadcast->rank = output->rank;
  int64_t stride1 = 1, stride2 = 1;
  broadcast->count = 1;
  for (uint32_t d = 1; d <= output->rank; d++) {
    const uint32_t axis = output->rank - d;
    const int32_t a = q_dim_from_end(input1, d);
    const int32_t b = q_dim_from_end(input2, d);
    broadcast->dims[axis] = output->dims[axis];
    broadcast->stride1[axis] = a == 1 ? 0 : stride1;
    broadcast->stride2[axis] = b == 1 ? 0 : stride2;
    stride1 *= a;
    stride2 *= b;
    broadcast->count *= output->dims[axis];
  }
}

void q_broadcast_for_each_row(const q_broadcast *broadcast, q_broadcast_row_fn fn, void *arg) {
  if (broadcast->count <= 0) return;
  if (broadcast->rank == 0) {
    fn(arg, 0, 0, 0, 1, 0, 0);
    return;
  }
  const uint32_t last = broadcast->rank - 1;
  const int64_t row = broadcast->dims[last];
  int32_t index[Q_MAX_DIMS] = {0};
  int64_t out = 0;
  for (;;) {
    int64_t in1 = 0, in2 = 0;
    for (uint32_t d = 0; d < last; d++) {
      in1 += index[d] * broadcast->stride1[d];
      in2 += index[d] * broadcast->stride2[d];
    }
    fn(arg, out, in1, in2, row, broadcast->stride1[last], broadcast->stride2[last]);
    out += row;
    /* Odometer over the outer dimensions. */
    uint32_t d = last;
    while (d > 0) {
      d--;
      if (++index[d] < broadcast->dims[d]) break;
      index[d] = 0;
      if (d == 0) return;
    }
    if (last == 0) return;
  }
}

int q_check_filter(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                   int32_t input_dtype, uint32_t channel_axis, int32_t channels, char *reason) {
  if (!q_check_constant(graph, op, slot, reason)) return 0;
  const uint32_t index = q_input_index(op, slot);
  const tflaccel_tensor_desc *filter = &graph->tensors[index];
  if (filter->dtype != input_dtype)
    return q_tensor_reason(reason, graph, index, "weights are %s with %s activations",
                           q_dtype_name(filter->dtype), q_dtype_name(input_dtype));
  if (!q_is_quantized(filter))
    return q_tensor_reason(reason, graph, index, "weights have no quantization parameters");
  const tflaccel_quantization *quant = &filter->quantization;
  if (quant->count != 1) {
    if (filter->dtype != TFLACCEL_DTYPE_INT8)
      return q_tensor_reason(reason, graph, index, "per-channel weights must be int8");
    if ((uint32_t)quant->quantized_dimension != channel_axis || (int32_t)quant->count != channels)
      return q_tensor_reason(reason, graph, index,
                             "per-channel weights need %d scales along axis %u, have %u along %d",
                             channels, channel_axis, quant->count, quant->quantized_dimension);
  }
  for (uint32_t c = 0; c < quant->count; c++) {
    if (!(quant->scales[c] > 0.0f))
      return q_tensor_reason(reason, graph, index, "weight scale %u is not positive", c);
    if (filter->dtype == TFLACCEL_DTYPE_INT8 && quant->zero_points[c] != 0)
      return q_tensor_reason(reason, graph, index, "int8 weights need zero point 0, have %d",
                             quant->zero_points[c]);
  }
  return 1;
}

int q_check_bias(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                 int32_t channels, char *reason) {
  const uint32_t index = q_input_index(op, slot);
  if (index == TFLACCEL_NO_TENSOR) return 1;
  if (!q_check_constant(graph, op, slot, reason)) return 0;
  const tflaccel_tensor_desc *bias = &graph->tensors[index];
  if (bias->dtype != TFLACCEL_DTYPE_INT32)
    return q_tensor_reason(reason, graph, index, "bias is %s, expected int32",
                           q_dtype_name(bias->dtype));
  if (q_element_count(bias) != channels)
    return q_tensor_reason(reason, graph, index, "bias has %lld elements for %d channels",
                           (long long)q_element_count(bias), channels);
  const tflaccel_quantization *quant = &bias->quantization;
  if (quant->count == 0) return 1;
  if (bias->rank > 1) return q_check_quantization_valid(graph, index, reason);
  if (quant->scales == NULL || quant->zero_points == NULL)
    return q_tensor_reason(reason, graph, index, "quantization without scales or zero points");
  for (uint32_t i = 0; i < quant->count; i++)
    if (!isfinite(quant->scales[i]) || !(quant->scales[i] > 0.0f))
      return q_tensor_reason(reason, graph, index, "scale %u (%g) is not a positive number", i,
                             (double)quant->scales[i]);
  if (quant->count != 1 && (int64_t)quant->count != channels)
    return q_tensor_reason(reason, graph, index, "%u bias scales for %d channels (need 1 or %d)",
                           quant->count, channels, channels);
  return 1;
}

int32_t q_conv_multipliers(const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *filter,
                           const tflaccel_tensor_desc *output, int32_t channels,
                           int32_t *multipliers, int *shifts) {
  const uint32_t count = filter->quantization.count;
  int32_t first_bad = -1;
  for (int32_t c = 0; c < channels; c++) {
    const double filter_scale = (double)filter->quantization.scales[count == 1 ? 0 : c];
    const double effective = (double)q_scale(input) * filter_scale / (double)q_scale(output);
    if (!q_quantize_multiplier(effective, &multipliers[c], &shifts[c]) && first_bad < 0)
      first_bad = c;
  }
  return first_bad;
}

