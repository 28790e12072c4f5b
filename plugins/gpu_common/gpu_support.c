/* The GPU layer's delegation rules (gpu_support.h). The limits are those of
 * the kernels: rank <= 4, float32 values (bool for LOGICAL_AND and data
 * movement), constant weights, the fused activations a clamp expresses. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_layout.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/gpu_support.h"

/* tflaccel_lstm_params.kernel_type of TFLite's basic LSTM cell. */
#define GPU_LSTM_BASIC_KERNEL 1

/* The largest tensor: indices stay within int32 in the kernels. */
#define GPU_MAX_STORED_ELEMENTS (INT64_C(1) << 30)

typedef struct support_check {
  const tflaccel_graph_view *graph;
  const tflaccel_op_desc *op;
  const char *name; /* the op's name for messages */
  const char *plugin;
  char *reason;
  size_t reason_size;
} support_check;

/* Writes "<plugin>: <message>" and returns 0. */
static int decline(const support_check *check, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static int decline(const support_check *check, const char *format, ...) {
  char message[TFLACCEL_REASON_SIZE];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  snprintf(check->reason, check->reason_size, "%s: %s", check->plugin, message);
  return 0;
}

static const char *op_name(const tflaccel_op_desc *op) {
  switch (op->code) {
    case TFLACCEL_OP_ADD: return "ADD";
    case TFLACCEL_OP_AVERAGE_POOL_2D: return "AVERAGE_POOL_2D";
    case TFLACCEL_OP_CONCATENATION: return "CONCATENATION";
    case TFLACCEL_OP_CONV_2D: return "CONV_2D";
    case TFLACCEL_OP_DEPTHWISE_CONV_2D: return "DEPTHWISE_CONV_2D";
    case TFLACCEL_OP_DEPTH_TO_SPACE: return "DEPTH_TO_SPACE";
    case TFLACCEL_OP_FULLY_CONNECTED: return "FULLY_CONNECTED";
    case TFLACCEL_OP_LOGISTIC: return "LOGISTIC";
    case TFLACCEL_OP_MAX_POOL_2D: return "MAX_POOL_2D";
    case TFLACCEL_OP_MUL: return "MUL";
    case TFLACCEL_OP_RELU: return "RELU";
    case TFLACCEL_OP_RELU_N1_TO_1: return "RELU_N1_TO_1";
    case TFLACCEL_OP_RELU6: return "RELU6";
    case TFLACCEL_OP_RESHAPE: return "RESHAPE";
    case TFLACCEL_OP_RESIZE_BILINEAR: return "RESIZE_BILINEAR";
    case TFLACCEL_OP_SOFTMAX: return "SOFTMAX";
    case TFLACCEL_OP_TANH: return "TANH";
    case TFLACCEL_OP_PAD: return "PAD";
    case TFLACCEL_OP_PADV2: return "PADV2";
    case TFLACCEL_OP_MEAN: return "MEAN";
    case TFLACCEL_OP_SUB: return "SUB";
    case TFLACCEL_OP_DIV: return "DIV";
    case TFLACCEL_OP_SQUEEZE: return "SQUEEZE";
    case TFLACCEL_OP_EXPAND_DIMS: return "EXPAND_DIMS";
    case TFLACCEL_OP_STRIDED_SLICE: return "STRIDED_SLICE";
    case TFLACCEL_OP_EXP: return "EXP";
    case TFLACCEL_OP_PRELU: return "PRELU";
    case TFLACCEL_OP_MAXIMUM: return "MAXIMUM";
    case TFLACCEL_OP_MINIMUM: return "MINIMUM";
    case TFLACCEL_OP_LOGICAL_AND: return "LOGICAL_AND";
    case TFLACCEL_OP_TRANSPOSE_CONV: return "TRANSPOSE_CONV";
    case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR: return "RESIZE_NEAREST_NEIGHBOR";
    case TFLACCEL_OP_LEAKY_RELU: return "LEAKY_RELU";
    case TFLACCEL_OP_HARD_SWISH: return "HARD_SWISH";
    case TFLACCEL_OP_LSTM: return "LSTM";
    case TFLACCEL_OP_CUSTOM: return op->custom_code != NULL ? op->custom_code : "CUSTOM";
    default: return NULL;
  }
}

static const char *dtype_name(int32_t dtype) {
  switch (dtype) {
    case TFLACCEL_DTYPE_FLOAT32: return "float32";
    case TFLACCEL_DTYPE_FLOAT16: return "float16";
    case TFLACCEL_DTYPE_INT32: return "int32";
    case TFLACCEL_DTYPE_UINT8: return "uint8";
    case TFLACCEL_DTYPE_INT64: return "int64";
    case TFLACCEL_DTYPE_BOOL: return "bool";
    case TFLACCEL_DTYPE_INT16: return "int16";
    case TFLACCEL_DTYPE_INT8: return "int8";
    default: return "non-float";
  }
}

static int is_constant(const tflaccel_tensor_desc *tensor) {
  return (tensor->flags & TFLACCEL_TENSOR_CONSTANT) && tensor->data != NULL;
}

static int is_index_constant(const tflaccel_tensor_desc *tensor) {
  return is_constant(tensor) &&
         (tensor->dtype == TFLACCEL_DTYPE_INT32 || tensor->dtype == TFLACCEL_DTYPE_INT64);
}

static int64_t element_count(const tflaccel_tensor_desc *tensor) {
  int64_t count = 1;
  for (uint32_t d = 0; d < tensor->rank; ++d) count *= tensor->dims[d];
  return count;
}

/* Input positions that hold shapes, paddings, axes or sizes (int32/int64
 * constants read on the host), not values. */
static int is_index_input(const tflaccel_op_desc *op, uint32_t position) {
  switch (op->code) {
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_PAD:
    case TFLACCEL_OP_MEAN:
    case TFLACCEL_OP_RESIZE_BILINEAR:
    case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR: return position == 1;
    case TFLACCEL_OP_PADV2: return position == 1;
    case TFLACCEL_OP_STRIDED_SLICE: return position >= 1;
    case TFLACCEL_OP_TRANSPOSE_CONV: return position == 0;
    default: return 0;
  }
}

/* Ops whose values may be bool (they only move values). */
static int moves_values(int32_t code) {
  return code == TFLACCEL_OP_RESHAPE || code == TFLACCEL_OP_SQUEEZE ||
         code == TFLACCEL_OP_EXPAND_DIMS || code == TFLACCEL_OP_CONCATENATION ||
         code == TFLACCEL_OP_STRIDED_SLICE || code == TFLACCEL_OP_PAD ||
         code == TFLACCEL_OP_DEPTH_TO_SPACE || code == TFLACCEL_OP_LOGICAL_AND;
}

/* The checks every value tensor of every op passes. */
static int check_value_tensor(const support_check *check, const tflaccel_tensor_desc *tensor,
                              const char *role) {
  int32_t dtype = tensor->dtype;
  if (dtype == TFLACCEL_DTYPE_INT8 || dtype == TFLACCEL_DTYPE_UINT8 ||
      dtype == TFLACCEL_DTYPE_INT16 || tensor->quantization.count > 0)
    return decline(check, "%s tensors: quantized ops are not supported on %s yet",
                   dtype_name(dtype), check->plugin);
  int bool_ok = moves_values(check->op->code) && dtype == TFLACCEL_DTYPE_BOOL;
  if (check->op->code == TFLACCEL_OP_LOGICAL_AND && dtype != TFLACCEL_DTYPE_BOOL)
    return decline(check, "LOGICAL_AND %s is %s, expected bool", role, dtype_name(dtype));
  if (dtype != TFLACCEL_DTYPE_FLOAT32 && !bool_ok)
    return decline(check, "%s %s is %s: only float32 values run on the GPU", check->name, role,
                   dtype_name(dtype));
  if (tensor->rank > GPU_MAX_RANK)
    return decline(check, "%s %s has rank %u: GPU kernels take rank <= 4", check->name, role,
                   tensor->rank);
  for (uint32_t d = 0; d < tensor->rank; ++d)
    if (tensor->dims[d] < 1)
      return decline(check, "%s %s is empty or has an unknown dim", check->name, role);
  if (tensor->flags & TFLACCEL_TENSOR_VARIABLE)
    return decline(check, "%s %s is a variable (state) tensor", check->name, role);
  if (gpu_shape_stored_elements(gpu_shape_of(tensor)) > GPU_MAX_STORED_ELEMENTS)
    return decline(check, "%s %s is too large for 32-bit indexing", check->name, role);
  return 1;
}

static int check_activation(const support_check *check, int32_t activation) {
  float low, high;
  if (!gpu_activation_range(activation, &low, &high))
    return decline(check, "%s with fused activation %d (only RELU, RELU6, RELU_N1_TO_1)",
                   check->name, (int)activation);
  return 1;
}

static int check_same_shape(const support_check *check, const tflaccel_tensor_desc *a,
                            const tflaccel_tensor_desc *b, const char *what) {
  int same = a->rank == b->rank;
  for (uint32_t d = 0; same && d < a->rank; ++d) same = a->dims[d] == b->dims[d];
  if (!same) return decline(check, "%s: %s shapes differ", check->name, what);
  return 1;
}

static int check_constant_float(const support_check *check, const tflaccel_tensor_desc *tensor,
                                const char *role, int64_t expected_count) {
  if (!is_constant(tensor)) return decline(check, "%s with non-constant %s", check->name, role);
  if (tensor->dtype != TFLACCEL_DTYPE_FLOAT32)
    return decline(check, "%s %s is %s, expected float32", check->name, role,
                   dtype_name(tensor->dtype));
  if (expected_count >= 0 && element_count(tensor) != expected_count)
    return decline(check, "%s %s has %lld elements, expected %lld", check->name, role,
                   (long long)element_count(tensor), (long long)expected_count);
  if (tensor->data_size < (uint64_t)element_count(tensor) * 4)
    return decline(check, "%s %s data is shorter than its shape", check->name, role);
  return 1;
}

static int check_conv(const support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  int depthwise = op->code == TFLACCEL_OP_DEPTHWISE_CONV_2D;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = gpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input->rank != 4 || filter->rank != 4 || output->rank != 4)
    return decline(check, "%s needs 4-D input, filter and output", check->name);
  int32_t padding, stride_w, stride_h, dilation_w, dilation_h, activation;
  if (depthwise) {
    const tflaccel_depthwise_conv_2d_params *p = &op->params->depthwise_conv_2d;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
    dilation_w = p->dilation_w, dilation_h = p->dilation_h, activation = p->fused_activation;
  } else {
    const tflaccel_conv_2d_params *p = &op->params->conv_2d;
    padding = p->padding, stride_w = p->stride_w, stride_h = p->stride_h;
    dilation_w = p->dilation_w, dilation_h = p->dilation_h, activation = p->fused_activation;
  }
  if (!check_constant_float(check, filter, "weights", -1)) return 0;
  int32_t out_c = depthwise ? filter->dims[3] : filter->dims[0];
  if (bias != NULL && !check_constant_float(check, bias, "bias", out_c)) return 0;
  if (!check_activation(check, activation)) return 0;
  if (stride_w < 1 || stride_h < 1 || dilation_w < 0 || dilation_h < 0)
    return decline(check, "%s: strides must be positive and dilations non-negative", check->name);
  if (padding != TFLACCEL_PADDING_SAME && padding != TFLACCEL_PADDING_VALID)
    return decline(check, "%s: unknown padding %d", check->name, (int)padding);
  if (depthwise) {
    if (filter->dims[0] != 1 || input->dims[3] < 1 || out_c % input->dims[3] != 0)
      return decline(check, "%s: filter [1,KH,KW,C*M] does not fit %d input channels", check->name,
                     input->dims[3]);
  } else if (filter->dims[3] != input->dims[3]) {
    return decline(check, "%s with %d groups (grouped convolution is not supported)", check->name,
                   filter->dims[3] > 0 ? input->dims[3] / filter->dims[3] : 0);
  }
  int32_t dh = dilation_h ? dilation_h : 1, dw = dilation_w ? dilation_w : 1;
  int32_t out_h = gpu_conv_output_size(padding, input->dims[1], filter->dims[1], stride_h, dh);
  int32_t out_w = gpu_conv_output_size(padding, input->dims[2], filter->dims[2], stride_w, dw);
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h || output->dims[2] != out_w ||
      output->dims[3] != out_c)
    return decline(check, "%s: output shape does not follow from input, filter and strides",
                   check->name);
  return 1;
}

static int check_tconv(const support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  gpu_tconv_shape shape;
  gpu_tconv_describe(graph, op, &shape);
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, shape.input);
  const tflaccel_tensor_desc *weights = gpu_op_input(graph, op, shape.weights);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, shape.bias);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input == NULL || weights == NULL)
    return decline(check, "%s needs input and weights", check->name);
  if (op->code == TFLACCEL_OP_CUSTOM && bias == NULL)
    return decline(check, "%s needs a bias", check->name);
  if (input->rank != 4 || weights->rank != 4 || output->rank != 4)
    return decline(check, "%s needs 4-D input, weights and output", check->name);
  if (!check_constant_float(check, weights, "weights", -1)) return 0;
  if (bias != NULL && !check_constant_float(check, bias, "bias", weights->dims[0])) return 0;
  if (!check_activation(check, shape.activation)) return 0;
  if (shape.stride_h < 1 || shape.stride_w < 1)
    return decline(check, "%s: strides must be positive", check->name);
  if (shape.padding != TFLACCEL_PADDING_SAME && shape.padding != TFLACCEL_PADDING_VALID)
    return decline(check, "%s: unknown padding %d", check->name, (int)shape.padding);
  if (weights->dims[3] != input->dims[3] || output->dims[3] != weights->dims[0] ||
      output->dims[0] != input->dims[0])
    return decline(check, "%s: weights, input and output channels do not match", check->name);
  if (op->code == TFLACCEL_OP_TRANSPOSE_CONV) {
    const tflaccel_tensor_desc *out_shape = gpu_op_input(graph, op, 0);
    if (out_shape == NULL || out_shape->dtype != TFLACCEL_DTYPE_INT32 ||
        element_count(out_shape) != 4)
      return decline(check, "TRANSPOSE_CONV output_shape must be 4 int32 values");
    if (is_constant(out_shape))
      for (int i = 0; i < 4; ++i)
        if (gpu_index_value(out_shape, i) != output->dims[i])
          return decline(check, "TRANSPOSE_CONV output_shape differs from the output tensor");
  } else {
    /* MediaPipe's output size: stride * (in - 1) + K - total padding. */
    int32_t pad_h = shape.padding == TFLACCEL_PADDING_SAME
                        ? weights->dims[1] - (input->dims[1] - 1) % shape.stride_h - 1
                        : 0;
    int32_t pad_w = shape.padding == TFLACCEL_PADDING_SAME
                        ? weights->dims[2] - (input->dims[2] - 1) % shape.stride_w - 1
                        : 0;
    if (pad_h < 0) pad_h = 0;
    if (pad_w < 0) pad_w = 0;
    if (output->dims[1] != shape.stride_h * (input->dims[1] - 1) + weights->dims[1] - pad_h ||
        output->dims[2] != shape.stride_w * (input->dims[2] - 1) + weights->dims[2] - pad_w)
      return decline(check, "%s: output size does not follow from input and strides", check->name);
  }
  return 1;
}

static int check_fully_connected(const support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *weights = gpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  const tflaccel_fully_connected_params *params = &op->params->fully_connected;
  if (weights->rank != 2) return decline(check, "FULLY_CONNECTED weights must be 2-D");
  if (!check_constant_float(check, weights, "weights", -1)) return 0;
  if (bias != NULL && !check_constant_float(check, bias, "bias", weights->dims[0])) return 0;
  if (params->weights_format != 0)
    return decline(check, "FULLY_CONNECTED with shuffled weights format %d",
                   (int)params->weights_format);
  if (!check_activation(check, params->fused_activation)) return 0;
  int32_t units = weights->dims[0], depth = weights->dims[1];
  int64_t count = element_count(input);
  if (depth < 1 || count % depth != 0)
    return decline(check, "FULLY_CONNECTED input of %lld elements is not rows of %d",
                   (long long)count, (int)depth);
  if (output->rank == 0 || output->dims[output->rank - 1] != units ||
      element_count(output) != count / depth * units)
    return decline(check, "FULLY_CONNECTED output shape does not hold %lld rows of %d units",
                   (long long)(count / depth), (int)units);
  return 1;
}

static int check_binary(const support_check *check, int has_activation) {
  const tflaccel_tensor_desc *a = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *b = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *out = gpu_op_output(check->graph, check->op, 0);
  if (a->dtype != out->dtype || b->dtype != out->dtype)
    return decline(check, "%s inputs and output differ in dtype", check->name);
  gpu_shape out_shape = gpu_shape_of(out);
  gpu_shape a_shape = gpu_shape_of(a), b_shape = gpu_shape_of(b);
  if (!gpu_broadcasts_into(a_shape, out_shape) || !gpu_broadcasts_into(b_shape, out_shape))
    return decline(check, "%s inputs do not broadcast to the output shape", check->name);
  for (int d = 0; d < 4; ++d) {
    int32_t da[4], db[4], dout[4];
    gpu_shape_dims(a_shape, da);
    gpu_shape_dims(b_shape, db);
    gpu_shape_dims(out_shape, dout);
    int32_t expected = da[d] > db[d] ? da[d] : db[d];
    if (expected != dout[d])
      return decline(check, "%s output dim %d is %d, broadcasting gives %d", check->name, d,
                     (int)dout[d], (int)expected);
  }
  if (has_activation && !check_activation(check, check->op->params->arithmetic.fused_activation))
    return 0;
  return 1;
}

static int check_pool(const support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  const tflaccel_pool_2d_params *p = &check->op->params->pool_2d;
  if (input->rank != 4 || output->rank != 4)
    return decline(check, "%s needs 4-D input and output", check->name);
  if (p->stride_w < 1 || p->stride_h < 1 || p->filter_w < 1 || p->filter_h < 1)
    return decline(check, "%s: strides and filter sizes must be positive", check->name);
  if (p->padding != TFLACCEL_PADDING_SAME && p->padding != TFLACCEL_PADDING_VALID)
    return decline(check, "%s: unknown padding %d", check->name, (int)p->padding);
  if (!check_activation(check, p->fused_activation)) return 0;
  int32_t out_h = gpu_conv_output_size(p->padding, input->dims[1], p->filter_h, p->stride_h, 1);
  int32_t out_w = gpu_conv_output_size(p->padding, input->dims[2], p->filter_w, p->stride_w, 1);
  if (output->dims[0] != input->dims[0] || output->dims[1] != out_h || output->dims[2] != out_w ||
      output->dims[3] != input->dims[3])
    return decline(check, "%s: output shape does not follow from the window", check->name);
  return 1;
}

static int check_pad(const support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *paddings = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (paddings == NULL || !is_index_constant(paddings) || paddings->rank != 2 ||
      paddings->dims[0] != (int32_t)input->rank || paddings->dims[1] != 2)
    return decline(check, "%s paddings must be a constant int32/int64 [rank, 2] tensor",
                   check->name);
  if (input->rank != output->rank) return decline(check, "%s changes the rank", check->name);
  for (uint32_t d = 0; d < input->rank; ++d) {
    int64_t before = gpu_index_value(paddings, 2 * d), after = gpu_index_value(paddings, 2 * d + 1);
    if (before < 0 || after < 0) return decline(check, "%s with negative padding", check->name);
    if (input->dims[d] + before + after != output->dims[d])
      return decline(check, "%s dim %u does not add up to the output's", check->name, d);
  }
  const tflaccel_tensor_desc *value = gpu_op_input(check->graph, check->op, 2);
  if (value != NULL) {
    if (!is_constant(value) || value->dtype != input->dtype || element_count(value) != 1)
      return decline(check, "PADV2 constant_values must be one constant %s value",
                     dtype_name(input->dtype));
  }
  return 1;
}

static int check_concat(const support_check *check) {
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, op, 0);
  const tflaccel_concatenation_params *params = &op->params->concatenation;
  if (op->input_count < 1 || op->input_count > GPU_MAX_CONCAT_INPUTS)
    return decline(check, "CONCATENATION of %u inputs (at most %d)", op->input_count,
                   GPU_MAX_CONCAT_INPUTS);
  int32_t axis = params->axis < 0 ? params->axis + (int32_t)output->rank : params->axis;
  if (axis < 0 || axis >= (int32_t)output->rank)
    return decline(check, "CONCATENATION axis %d is outside rank %u", (int)params->axis,
                   output->rank);
  if (!check_activation(check, params->fused_activation)) return 0;
  int64_t total = 0;
  for (uint32_t i = 0; i < op->input_count; ++i) {
    const tflaccel_tensor_desc *input = gpu_op_input(check->graph, op, i);
    if (input == NULL || input->rank != output->rank || input->dtype != output->dtype)
      return decline(check, "CONCATENATION input %u differs in rank or dtype", i);
    for (uint32_t d = 0; d < output->rank; ++d)
      if ((int32_t)d != axis && input->dims[d] != output->dims[d])
        return decline(check, "CONCATENATION input %u dim %u differs from the output's", i, d);
    total += input->dims[axis];
  }
  if (total != output->dims[axis])
    return decline(check, "CONCATENATION inputs do not add up to the output along axis %d",
                   (int)axis);
  return 1;
}

static int check_resize(const support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *size = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  const tflaccel_resize_params *p = &check->op->params->resize;
  if (input->rank != 4 || output->rank != 4)
    return decline(check, "%s needs 4-D input and output", check->name);
  if (p->align_corners && p->half_pixel_centers)
    return decline(check, "%s: align_corners and half_pixel_centers are exclusive", check->name);
  if (output->dims[0] != input->dims[0] || output->dims[3] != input->dims[3])
    return decline(check, "%s must keep batch and channels", check->name);
  if (size != NULL && is_constant(size)) {
    if (size->dtype != TFLACCEL_DTYPE_INT32 || element_count(size) != 2 ||
        gpu_index_value(size, 0) != output->dims[1] || gpu_index_value(size, 1) != output->dims[2])
      return decline(check, "%s size input differs from the output tensor", check->name);
  }
  return 1;
}

static int check_mean(const support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *axes = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (axes == NULL || !is_index_constant(axes) || axes->rank > 1)
    return decline(check, "MEAN axes must be a constant int32/int64 scalar or vector");
  int reduced[GPU_MAX_RANK] = {0};
  for (int64_t i = 0; i < element_count(axes); ++i) {
    int64_t axis = gpu_index_value(axes, i);
    if (axis < 0) axis += input->rank;
    if (axis < 0 || axis >= (int64_t)input->rank)
      return decline(check, "MEAN axis %lld is outside rank %u",
                     (long long)gpu_index_value(axes, i), input->rank);
    reduced[axis] = 1;
  }
  int64_t expected = 1;
  for (uint32_t d = 0; d < input->rank; ++d)
    if (!reduced[d]) expected *= input->dims[d];
  if (element_count(output) != expected)
    return decline(check, "MEAN output shape does not match the reduction");
  return 1;
}

static int check_depth_to_space(const support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  int32_t block = check->op->params->block_size.block_size;
  if (input->rank != 4 || output->rank != 4)
    return decline(check, "DEPTH_TO_SPACE needs 4-D input and output");
  if (block < 1 || output->dims[0] != input->dims[0] || output->dims[1] != input->dims[1] * block ||
      output->dims[2] != input->dims[2] * block ||
      (int64_t)input->dims[3] != (int64_t)output->dims[3] * block * block)
    return decline(check, "DEPTH_TO_SPACE shapes do not match block size %d", (int)block);
  return 1;
}

static int check_strided_slice(const support_check *check) {
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  gpu_slice_box box;
  char why[TFLACCEL_REASON_SIZE];
  if (!gpu_slice_plan(check->graph, check->op, &box, why, sizeof why))
    return decline(check, "%s", why);
  int matches = box.final_rank == output->rank;
  for (uint32_t d = 0; matches && d < output->rank; ++d)
    matches = box.final_dims[d] == output->dims[d];
  if (!matches) return decline(check, "STRIDED_SLICE result shape differs from the output's");
  return 1;
}

/* LSTM, basic kernel (TFLite's LstmCell, gpu_lower_lstm.c): TANH, no
 * clipping (TFLite's basic kernel requires both), 2-D tensors (TFLite's
 * kernel takes nothing else), constant float32 weights and bias. */
static int check_lstm(const support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_lstm_params *params = &op->params->lstm;
  if (params->fused_activation != TFLACCEL_ACT_TANH)
    return decline(check, "LSTM basic kernel with fused activation %d (TFLite requires TANH)",
                   (int)params->fused_activation);
  if (params->cell_clip != 0.0f || params->proj_clip != 0.0f)
    return decline(check, "LSTM basic kernel with cell_clip %g, proj_clip %g (TFLite requires 0)",
                   (double)params->cell_clip, (double)params->proj_clip);
  static const char *const names[9] = {"input", "prev_activ", "weights",
                                       "bias", "prev_state", "activ",
                                       "state", "concat_temp", "activ_temp"};
  const tflaccel_tensor_desc *tensors[9];
  for (uint32_t i = 0; i < 9; ++i) {
    tensors[i] = i < 5 ? gpu_op_input(graph, op, i) : gpu_op_output(graph, op, i - 5);
    if (tensors[i]->rank != (i == 3 ? 1u : 2u))
      return decline(check, "LSTM %s has rank %u, the basic kernel takes %s", names[i],
                     tensors[i]->rank, i == 3 ? "a vector" : "2-D tensors only");
  }
  int32_t batch = tensors[0]->dims[0], input_depth = tensors[0]->dims[1];
  int32_t depth = tensors[1]->dims[1];
  int64_t total = (int64_t)input_depth + depth, gates = 4 * (int64_t)depth;
  if (!check_constant_float(check, tensors[2], "weights", gates * total) ||
      !check_constant_float(check, tensors[3], "bias", gates))
    return 0;
  /* [rows, columns] of every tensor but the bias. */
  const int64_t expected[9][2] = {{batch, input_depth}, {batch, depth}, {gates, total},
                                  {gates, 0},           {batch, depth}, {batch, depth},
                                  {batch, depth},       {batch, total}, {batch, gates}};
  for (uint32_t i = 0; i < 9; ++i) {
    if (i == 3) continue;
    if (tensors[i]->dims[0] != expected[i][0] || tensors[i]->dims[1] != expected[i][1])
      return decline(check, "LSTM %s is [%d, %d], expected [%lld, %lld]", names[i],
                     tensors[i]->dims[0], tensors[i]->dims[1], (long long)expected[i][0],
                     (long long)expected[i][1]);
  }
  return 1;
}

/* The op's own rules, after the common tensor checks. */
static int check_op(const support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  switch (op->code) {
    case TFLACCEL_OP_CONV_2D:
    case TFLACCEL_OP_DEPTHWISE_CONV_2D: return check_conv(check);
    case TFLACCEL_OP_TRANSPOSE_CONV: return check_tconv(check);
    case TFLACCEL_OP_FULLY_CONNECTED: return check_fully_connected(check);
    case TFLACCEL_OP_ADD:
    case TFLACCEL_OP_SUB:
    case TFLACCEL_OP_MUL:
    case TFLACCEL_OP_DIV: return check_binary(check, 1);
    case TFLACCEL_OP_MAXIMUM:
    case TFLACCEL_OP_MINIMUM:
    case TFLACCEL_OP_LOGICAL_AND: return check_binary(check, 0);
    case TFLACCEL_OP_PRELU: {
      const tflaccel_tensor_desc *alpha = gpu_op_input(graph, op, 1);
      if (!check_same_shape(check, input, output, "input and output")) return 0;
      if (!gpu_broadcasts_into(gpu_shape_of(alpha), gpu_shape_of(input)))
        return decline(check, "PRELU alpha does not broadcast to the input");
      return 1;
    }
    case TFLACCEL_OP_RELU:
    case TFLACCEL_OP_RELU6:
    case TFLACCEL_OP_RELU_N1_TO_1:
    case TFLACCEL_OP_LOGISTIC:
    case TFLACCEL_OP_HARD_SWISH:
    case TFLACCEL_OP_TANH:
    case TFLACCEL_OP_EXP:
    case TFLACCEL_OP_LEAKY_RELU: return check_same_shape(check, input, output, "input and output");
    case TFLACCEL_OP_PAD:
    case TFLACCEL_OP_PADV2: return check_pad(check);
    case TFLACCEL_OP_MAX_POOL_2D:
    case TFLACCEL_OP_AVERAGE_POOL_2D: return check_pool(check);
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS:
      if (element_count(input) != element_count(output))
        return decline(check, "%s changes the element count", check->name);
      return 1;
    case TFLACCEL_OP_CONCATENATION: return check_concat(check);
    case TFLACCEL_OP_RESIZE_BILINEAR:
    case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR: return check_resize(check);
    case TFLACCEL_OP_MEAN: return check_mean(check);
    case TFLACCEL_OP_DEPTH_TO_SPACE: return check_depth_to_space(check);
    case TFLACCEL_OP_SOFTMAX: return check_same_shape(check, input, output, "input and output");
    case TFLACCEL_OP_STRIDED_SLICE: return check_strided_slice(check);
    case TFLACCEL_OP_CUSTOM: return check_tconv(check);
    case TFLACCEL_OP_LSTM: return check_lstm(check);
    default: return decline(check, "there is no GPU kernel for %s", check->name);
  }
}

/* Inputs and outputs each op must have: [min, max] inputs, one output
 * (four for the basic LSTM cell). */
static int check_arity(const support_check *check) {
  const tflaccel_op_desc *op = check->op;
  uint32_t min = 1, max = 1, outputs = 1;
  switch (op->code) {
    case TFLACCEL_OP_LSTM: min = 5, max = 5, outputs = 4; break; /* the basic cell */
    case TFLACCEL_OP_CONV_2D:
    case TFLACCEL_OP_DEPTHWISE_CONV_2D:
    case TFLACCEL_OP_FULLY_CONNECTED: min = 2, max = 3; break;
    case TFLACCEL_OP_TRANSPOSE_CONV: min = 3, max = 4; break;
    case TFLACCEL_OP_CUSTOM: min = 3, max = 3; break;
    case TFLACCEL_OP_ADD:
    case TFLACCEL_OP_SUB:
    case TFLACCEL_OP_MUL:
    case TFLACCEL_OP_DIV:
    case TFLACCEL_OP_MAXIMUM:
    case TFLACCEL_OP_MINIMUM:
    case TFLACCEL_OP_LOGICAL_AND:
    case TFLACCEL_OP_PRELU:
    case TFLACCEL_OP_PAD:
    case TFLACCEL_OP_MEAN: min = 2, max = 2; break;
    case TFLACCEL_OP_PADV2: min = 2, max = 3; break;
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_EXPAND_DIMS:
    case TFLACCEL_OP_RESIZE_BILINEAR:
    case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR: min = 1, max = 2; break;
    case TFLACCEL_OP_STRIDED_SLICE: min = 4, max = 4; break;
    case TFLACCEL_OP_CONCATENATION: min = 1, max = op->input_count; break;
    default: break;
  }
  if (op->input_count < min || op->input_count > max)
    return decline(check, "%s has %u inputs, expected %u to %u", check->name, op->input_count, min,
                   max);
  for (uint32_t i = 0; i < min; ++i)
    if (gpu_op_input(check->graph, op, i) == NULL)
      return decline(check, "%s input %u is missing", check->name, i);
  if (op->output_count != outputs)
    return decline(check, "%s has %u outputs, expected %u", check->name, op->output_count,
                   outputs);
  for (uint32_t i = 0; i < outputs; ++i)
    if (gpu_op_output(check->graph, op, i) == NULL)
      return decline(check, "%s output %u is missing", check->name, i);
  return 1;
}

int gpu_op_supported(const tflaccel_graph_view *graph, uint32_t op_index, const char *plugin_name,
                     char *reason, size_t reason_size) {
  const tflaccel_op_desc *op = &graph->ops[op_index];
  support_check check = {graph, op, op_name(op), plugin_name, reason, reason_size};
  if (check.name == NULL)
    return decline(&check, "there is no GPU kernel for op code %d", (int)op->code);
  if (op->code == TFLACCEL_OP_LSTM && op->params->lstm.kernel_type != GPU_LSTM_BASIC_KERNEL)
    return decline(&check, "LSTM with the full kernel (kernel_type %d) has no GPU kernel: only "
                   "the basic LSTM cell runs on the GPU", (int)op->params->lstm.kernel_type);
  if (op->code == TFLACCEL_OP_CUSTOM &&
      (op->custom_code == NULL || strcmp(op->custom_code, GPU_CUSTOM_TRANSPOSE_CONV_BIAS) != 0))
    return decline(&check, "there is no GPU kernel for custom op %s",
                   op->custom_code ? op->custom_code : "(unnamed)");
  if (!check_arity(&check)) return 0;
  /* Quantization is the first thing to say about a quantized op. */
  for (uint32_t i = 0; i < op->input_count + op->output_count; ++i) {
    int is_input = i < op->input_count;
    const tflaccel_tensor_desc *tensor =
        is_input ? gpu_op_input(graph, op, i) : gpu_op_output(graph, op, i - op->input_count);
    if (tensor == NULL || (is_input && is_index_input(op, i))) continue;
    char role[32];
    if (is_input)
      snprintf(role, sizeof role, "input %u", i);
    else
      snprintf(role, sizeof role, "output");
    if (!check_value_tensor(&check, tensor, role)) return 0;
  }
  return check_op(&check);
}
