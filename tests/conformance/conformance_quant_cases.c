/* The quantized conformance cases (conformance_cases.h): what the GPU
 * plugins' float view (plugins/gpu_common/gpu_quant.h) must compute within
 * one LSB of cpu_ref's integer kernels: int8 and uint8 convolutions with
 * per-tensor and per-axis weights and int32 biases, requantizing ops (an
 * output scale unlike the input's), fused activations as the output range,
 * QUANTIZE (from float, between grids, to int16) and DEQUANTIZE. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tests/conformance/conformance_cases.h"

/* Case flags of this file (above conformance_cases.h's). */
enum {
  QF_UINT8 = 1 << 16,    /* uint8 activations and weights (else int8) */
  QF_PER_AXIS = 1 << 17, /* one weight scale per output channel */
  /* A fine output grid (scale 0.002, inputs in [-8, 8)): multipliers of
   * 0.04 to 0.08, whose fixed-point requantization rounds at 1/16 to 1/32
   * LSB first and then to the LSB (TFLite 2.9's double rounding, which
   * the float view must reproduce to match it in fp32: CF_EXACT_FP32). */
  QF_FINE_OUTPUT = 1 << 18,
};

#define MAX_CHANNELS 8

int cf_integer_at(int32_t dtype, const void *values, int64_t k) {
  switch (dtype) {
    case TFLACCEL_DTYPE_UINT8:
      return ((const uint8_t *)values)[k];
    case TFLACCEL_DTYPE_INT16:
      return ((const int16_t *)values)[k];
    default:
      return ((const int8_t *)values)[k];
  }
}

static int32_t conv_out(int32_t padding, int32_t in, int32_t k, int32_t stride) {
  if (padding == TFLACCEL_PADDING_SAME) return (in + stride - 1) / stride;
  return (in - k + stride) / stride;
}

/* Activation grids: input and output differ (every conv requantizes). */
static const float in_scale = 0.02f, out_scale = 0.05f;
static const int32_t in_zero_int8 = 3, out_zero_int8 = -5, in_zero_uint8 = 128,
                     out_zero_uint8 = 100;
static const float weight_scales[MAX_CHANNELS] = {0.004f, 0.006f, 0.005f,  0.007f,
                                                  0.003f, 0.008f, 0.0045f, 0.0055f};
static const int32_t zeros[MAX_CHANNELS] = {0};
static const int32_t weight_zero_uint8 = 120;
static float bias_scales[MAX_CHANNELS];

/* CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED on quantized tensors, with
 * an int32 bias of scale input scale * weight scale. */
static void build_quantized_conv(cf_graph *graph, const cf_case *spec) {
  int is_uint8 = (spec->flags & QF_UINT8) != 0, per_axis = (spec->flags & QF_PER_AXIS) != 0;
  int32_t dtype = is_uint8 ? TFLACCEL_DTYPE_UINT8 : TFLACCEL_DTYPE_INT8;
  int depthwise = spec->op == TFLACCEL_OP_DEPTHWISE_CONV_2D;
  int connected = spec->op == TFLACCEL_OP_FULLY_CONNECTED;
  int32_t in_c = spec->shape[spec->rank - 1];
  int32_t out_c = depthwise ? in_c : spec->out_c;
  ck_assert_int_le(out_c, MAX_CHANNELS);
  int fine = (spec->flags & QF_FINE_OUTPUT) != 0;
  static const float fine_out_scale = 0.002f; /* the graph keeps the pointer */
  uint32_t input =
      cf_input(graph, dtype, spec->rank, spec->shape, fine ? -8.0f : (is_uint8 ? 0.0f : -128.0f),
               fine ? 8.0f : (is_uint8 ? 256.0f : 128.0f));
  cf_quantize(graph, input, 1, &in_scale, is_uint8 ? &in_zero_uint8 : &in_zero_int8, 0);

  int32_t filter_dims[4] = {depthwise ? 1 : out_c, spec->kh, spec->kw, depthwise ? out_c : in_c};
  int32_t fc_dims[2] = {out_c, in_c};
  uint32_t filter = connected ? cf_constant_integers(graph, dtype, 2, fc_dims, -60, 60)
                              : cf_constant_integers(graph, dtype, 4, filter_dims,
                                                     is_uint8 ? 60 : -60, is_uint8 ? 180 : 60);
  if (connected && is_uint8) filter = cf_constant_integers(graph, dtype, 2, fc_dims, 60, 180);
  int32_t axis = depthwise ? 3 : 0;
  cf_quantize(graph, filter, per_axis ? (uint32_t)out_c : 1, weight_scales,
              is_uint8 ? &weight_zero_uint8 : zeros, axis);
  for (int32_t c = 0; c < out_c; ++c) bias_scales[c] = in_scale * weight_scales[per_axis ? c : 0];
  uint32_t bias = cf_constant_integers(graph, TFLACCEL_DTYPE_INT32, 1, &out_c, -2000, 2000);
  cf_quantize(graph, bias, per_axis ? (uint32_t)out_c : 1, bias_scales, zeros, 0);

  uint32_t output;
  if (connected) {
    int32_t dims[2] = {spec->shape[0], out_c};
    output = cf_tensor(graph, dtype, 2, dims);
  } else {
    int32_t stride = spec->stride ? spec->stride : 1;
    int32_t dims[4] = {spec->shape[0], conv_out(spec->padding, spec->shape[1], spec->kh, stride),
                       conv_out(spec->padding, spec->shape[2], spec->kw, stride), out_c};
    output = cf_tensor(graph, dtype, 4, dims);
  }
  cf_quantize(graph, output, 1, fine ? &fine_out_scale : &out_scale,
              is_uint8 ? &out_zero_uint8 : &out_zero_int8, 0);
  uint32_t inputs[3] = {input, filter, bias};
  tflaccel_op_params *p = cf_op(graph, spec->op, 3, inputs, output);
  int32_t stride = spec->stride ? spec->stride : 1;
  if (connected)
    p->fully_connected.fused_activation = spec->activation;
  else if (depthwise)
    p->depthwise_conv_2d = (tflaccel_depthwise_conv_2d_params){spec->padding,    stride, stride, 1,
                                                               spec->activation, 1,      1};
  else
    p->conv_2d = (tflaccel_conv_2d_params){spec->padding, stride, stride, spec->activation, 1, 1};
  cf_output(graph, output);
}

/* Three FULLY_CONNECTED layers of spec->shape[1] units, each output on a
 * grid of its own, spec->activation on the middle one: the tensors between
 * them are what gpu_vk and gpu_gl keep as words of 8-bit integers between
 * conv2d dispatches (GPU_IN_WORDS). */
static const float chain_scales[4] = {0.02f, 0.05f, 0.04f, 0.03f};
static const int32_t chain_zeros_int8[4] = {3, -5, 7, -2},
                     chain_zeros_uint8[4] = {128, 100, 90, 140};
static float chain_bias_scales[3];

static void build_quantized_fully_connected_chain(cf_graph *graph, const cf_case *spec) {
  int is_uint8 = (spec->flags & QF_UINT8) != 0;
  int32_t dtype = is_uint8 ? TFLACCEL_DTYPE_UINT8 : TFLACCEL_DTYPE_INT8;
  const int32_t *grid_zeros = is_uint8 ? chain_zeros_uint8 : chain_zeros_int8;
  int32_t width = spec->shape[1];
  uint32_t value = cf_input(graph, dtype, 2, spec->shape, is_uint8 ? 0.0f : -128.0f,
                            is_uint8 ? 256.0f : 128.0f);
  cf_quantize(graph, value, 1, &chain_scales[0], &grid_zeros[0], 0);
  for (int layer = 0; layer < 3; ++layer) {
    int32_t weight_dims[2] = {width, width};
    uint32_t weights = cf_constant_integers(graph, dtype, 2, weight_dims, is_uint8 ? 60 : -60,
                                            is_uint8 ? 180 : 60);
    cf_quantize(graph, weights, 1, &weight_scales[layer], is_uint8 ? &weight_zero_uint8 : zeros,
                0);
    chain_bias_scales[layer] = chain_scales[layer] * weight_scales[layer];
    uint32_t bias = cf_constant_integers(graph, TFLACCEL_DTYPE_INT32, 1, &width, -2000, 2000);
    cf_quantize(graph, bias, 1, &chain_bias_scales[layer], zeros, 0);
    uint32_t output = cf_tensor(graph, dtype, 2, spec->shape);
    cf_quantize(graph, output, 1, &chain_scales[layer + 1], &grid_zeros[layer + 1], 0);
    cf_op(graph, TFLACCEL_OP_FULLY_CONNECTED, 3, (uint32_t[]){value, weights, bias}, output)
        ->fully_connected.fused_activation = layer == 1 ? spec->activation : TFLACCEL_ACT_NONE;
    value = output;
  }
  cf_output(graph, value);
}

/* ADD of two quantized inputs on different grids into a third (TFLite's
 * requantizing add), with its fused activation. */
static const float add_scales[3] = {0.03f, 0.05f, 0.06f};
static const int32_t add_zeros_int8[3] = {10, -3, 2}, add_zeros_uint8[3] = {130, 120, 110};

static void build_quantized_add_requantizing(cf_graph *graph, const cf_case *spec) {
  int is_uint8 = (spec->flags & QF_UINT8) != 0;
  int32_t dtype = is_uint8 ? TFLACCEL_DTYPE_UINT8 : TFLACCEL_DTYPE_INT8;
  uint32_t tensors[3];
  for (int i = 0; i < 3; ++i) {
    tensors[i] = i < 2 ? cf_input(graph, dtype, spec->rank, spec->shape, is_uint8 ? 0.0f : -128.0f,
                                  is_uint8 ? 256.0f : 128.0f)
                       : cf_tensor(graph, dtype, spec->rank, spec->shape);
    cf_quantize(graph, tensors[i], 1, &add_scales[i],
                is_uint8 ? &add_zeros_uint8[i] : &add_zeros_int8[i], 0);
  }
  cf_op(graph, TFLACCEL_OP_ADD, 2, tensors, tensors[2])->arithmetic.fused_activation =
      spec->activation;
  cf_output(graph, tensors[2]);
}

/* AVERAGE_POOL_2D on uint8: the mean rounded to the (unchanged) grid. */
static void build_quantized_average_pool(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_UINT8, 4, spec->shape, 0.0f, 256.0f);
  cf_quantize(graph, input, 1, &in_scale, &in_zero_uint8, 0);
  int32_t dims[4] = {spec->shape[0], spec->shape[1] / 2, spec->shape[2] / 2, spec->shape[3]};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_UINT8, 4, dims);
  cf_quantize(graph, output, 1, &in_scale, &in_zero_uint8, 0);
  cf_op(graph, TFLACCEL_OP_AVERAGE_POOL_2D, 1, &input, output)->pool_2d =
      (tflaccel_pool_2d_params){TFLACCEL_PADDING_VALID, 2, 2, 2, 2, TFLACCEL_ACT_NONE};
  cf_output(graph, output);
}

/* float -> QUANTIZE (int8) -> QUANTIZE (int8, another grid), or with
 * QF_UINT8 a single QUANTIZE to int16 (symmetric, as TFLite's 16x8). */
static const float quantize_scales[2] = {0.02f, 0.035f};
static const int32_t quantize_zeros[2] = {-4, 7};
static const float int16_scale = 1.0f / 4096.0f;

static void build_quantize(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -3.0f, 3.0f);
  if (spec->flags & QF_UINT8) {
    uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_INT16, spec->rank, spec->shape);
    cf_quantize(graph, output, 1, &int16_scale, zeros, 0);
    cf_op(graph, TFLACCEL_OP_QUANTIZE, 1, &input, output);
    cf_output(graph, output);
    return;
  }
  uint32_t first = cf_tensor(graph, TFLACCEL_DTYPE_INT8, spec->rank, spec->shape);
  cf_quantize(graph, first, 1, &quantize_scales[0], &quantize_zeros[0], 0);
  cf_op(graph, TFLACCEL_OP_QUANTIZE, 1, &input, first);
  uint32_t second = cf_tensor(graph, TFLACCEL_DTYPE_INT8, spec->rank, spec->shape);
  cf_quantize(graph, second, 1, &quantize_scales[1], &quantize_zeros[1], 0);
  cf_op(graph, TFLACCEL_OP_QUANTIZE, 1, &first, second);
  cf_output(graph, second);
}

/* int8 -> DEQUANTIZE -> float: the real values, exactly. */
static void build_dequantize(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_INT8, spec->rank, spec->shape, -128.0f, 128.0f);
  cf_quantize(graph, input, 1, &quantize_scales[0], &quantize_zeros[0], 0);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape);
  cf_op(graph, TFLACCEL_OP_DEQUANTIZE, 1, &input, output);
  cf_output(graph, output);
}

/* The int8 UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite's 8x8_16): int8 input,
 * output and output state on one grid (h in [-1, 1)), an int16 cell state
 * (scale 2^-11), int8 weights, int32 biases in the input x weights unit,
 * five intermediates (the fifth the hidden state, on the output's grid).
 * Time-major: input the main input's shape [T, B, I], out_c cells. */
static const float lstm_state_scale = 1.0f / 128.0f, lstm_cell_scale = 1.0f / 2048.0f,
                   lstm_gate_scale = 1.0f / 4096.0f;
static const int32_t lstm_state_zero = 2;
static float lstm_bias_scales[4];

static void build_quantized_sequence_lstm(cf_graph *graph, const cf_case *spec) {
  int32_t batch = spec->shape[1], input_depth = spec->shape[2], cells = spec->out_c;
  int32_t input_weight_dims[2] = {cells, input_depth}, recurrent_dims[2] = {cells, cells};
  int32_t state_dims[2] = {batch, cells};
  int32_t output_dims[3] = {spec->shape[0], batch, cells};
  uint32_t inputs[20];
  for (uint32_t i = 0; i < 20; ++i) inputs[i] = TFLACCEL_NO_TENSOR;
  inputs[0] = cf_input(graph, TFLACCEL_DTYPE_INT8, 3, spec->shape, -128.0f, 128.0f);
  cf_quantize(graph, inputs[0], 1, &in_scale, &in_zero_int8, 0);
  for (uint32_t g = 0; g < 4; ++g) {
    inputs[1 + g] =
        cf_constant_integers(graph, TFLACCEL_DTYPE_INT8, 2, input_weight_dims, -127, 127);
    cf_quantize(graph, inputs[1 + g], 1, &weight_scales[g], zeros, 0);
    inputs[5 + g] = cf_constant_integers(graph, TFLACCEL_DTYPE_INT8, 2, recurrent_dims, -127, 127);
    cf_quantize(graph, inputs[5 + g], 1, &weight_scales[4 + g], zeros, 0);
    lstm_bias_scales[g] = in_scale * weight_scales[g];
    inputs[12 + g] = cf_constant_integers(graph, TFLACCEL_DTYPE_INT32, 1, &cells, -20000, 20000);
    cf_quantize(graph, inputs[12 + g], 1, &lstm_bias_scales[g], zeros, 0);
  }
  inputs[18] = cf_tensor(graph, TFLACCEL_DTYPE_INT8, 2, state_dims);
  cf_quantize(graph, inputs[18], 1, &lstm_state_scale, &lstm_state_zero, 0);
  graph->tensors[inputs[18]].flags = TFLACCEL_TENSOR_VARIABLE;
  inputs[19] = cf_tensor(graph, TFLACCEL_DTYPE_INT16, 2, state_dims);
  cf_quantize(graph, inputs[19], 1, &lstm_cell_scale, zeros, 0);
  graph->tensors[inputs[19]].flags = TFLACCEL_TENSOR_VARIABLE;
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_INT8, 3, output_dims);
  cf_quantize(graph, output, 1, &lstm_state_scale, &lstm_state_zero, 0);
  /* The intermediates live in the next op's row (the LSTM is the only op). */
  uint32_t *intermediates = graph->op_inputs[1];
  for (uint32_t i = 0; i < 5; ++i) {
    intermediates[i] =
        cf_tensor(graph, i < 4 ? TFLACCEL_DTYPE_INT16 : TFLACCEL_DTYPE_INT8, 2, state_dims);
    if (i < 4)
      cf_quantize(graph, intermediates[i], 1, &lstm_gate_scale, zeros, 0);
    else
      cf_quantize(graph, intermediates[i], 1, &lstm_state_scale, &lstm_state_zero, 0);
  }
  ck_assert_uint_eq(graph->op_count, 0);
  tflaccel_op_params *p =
      cf_op(graph, TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 20, inputs, output);
  p->sequence_lstm.fused_activation = TFLACCEL_ACT_TANH;
  p->sequence_lstm.cell_clip = spec->value;
  p->sequence_lstm.time_major = 1;
  graph->ops[0].intermediates = intermediates;
  graph->ops[0].intermediate_count = 5;
  cf_output(graph, output);
}

/* int16 -> QUANTIZE -> int32 (tflm__keyword_scrambled's output: its
 * softmax's int16 grid, 1/65535 with zero point -32768, requantized onto
 * an int32 grid of scale 1/32767), the int32 quantized at the GPU
 * partition's edge. */
static const float softmax_scale = 1.5259022e-05f, int32_scale = 3.0518509e-05f;
static const int32_t softmax_zero = -32768;

static void build_quantize_int32(cf_graph *graph, const cf_case *spec) {
  uint32_t input =
      cf_input(graph, TFLACCEL_DTYPE_INT16, spec->rank, spec->shape, -32768.0f, 32768.0f);
  cf_quantize(graph, input, 1, &softmax_scale, &softmax_zero, 0);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_INT32, spec->rank, spec->shape);
  cf_quantize(graph, output, 1, &int32_scale, zeros, 0);
  cf_op(graph, TFLACCEL_OP_QUANTIZE, 1, &input, output);
  cf_output(graph, output);
}

/* TFLite's integer SVDF: int8 input and output, int8 feature weights,
 * int16 time weights and state (symmetric), an int32 bias in the state x
 * time weights unit (CF_NO_BIAS: none); input [B, I], out_c units,
 * multiplier the rank, kw the memory. The state starts from int16 values
 * of its own (see conformance_cases.c's build_svdf). The fused activation
 * is set and ignored (TFLite's integer SVDF clamps to the output range
 * only). Scales: feature products of up to about 8 onto a state grid of
 * 2^-12, time products onto the output's 0.05. */
static const float svdf_feature_scale = 0.006f, svdf_time_scale = 1.0f / 16384.0f,
                   svdf_state_scale = 1.0f / 4096.0f;
static float svdf_bias_scale;

static void build_quantized_svdf(cf_graph *graph, const cf_case *spec) {
  int32_t batch = spec->shape[0], inputs = spec->shape[1], units = spec->out_c;
  int32_t rank = spec->multiplier, memory = spec->kw, filters = units * rank;
  int32_t feature_dims[2] = {filters, inputs}, time_dims[2] = {filters, memory};
  int32_t state_dims[2] = {batch, filters * memory}, output_dims[2] = {batch, units};
  svdf_bias_scale = svdf_state_scale * svdf_time_scale;
  uint32_t op_inputs[5];
  op_inputs[0] = cf_input(graph, TFLACCEL_DTYPE_INT8, 2, spec->shape, -128.0f, 128.0f);
  cf_quantize(graph, op_inputs[0], 1, &in_scale, &in_zero_int8, 0);
  op_inputs[1] = cf_constant_integers(graph, TFLACCEL_DTYPE_INT8, 2, feature_dims, -127, 127);
  cf_quantize(graph, op_inputs[1], 1, &svdf_feature_scale, zeros, 0);
  op_inputs[2] = cf_constant_integers(graph, TFLACCEL_DTYPE_INT16, 2, time_dims, -12000, 12000);
  cf_quantize(graph, op_inputs[2], 1, &svdf_time_scale, zeros, 0);
  op_inputs[3] = TFLACCEL_NO_TENSOR;
  if (!(spec->flags & CF_NO_BIAS)) {
    op_inputs[3] =
        cf_constant_integers(graph, TFLACCEL_DTYPE_INT32, 1, &units, -30000000, 30000000);
    cf_quantize(graph, op_inputs[3], 1, &svdf_bias_scale, zeros, 0);
  }
  op_inputs[4] = cf_constant_integers(graph, TFLACCEL_DTYPE_INT16, 2, state_dims, -8000, 8000);
  cf_quantize(graph, op_inputs[4], 1, &svdf_state_scale, zeros, 0);
  graph->tensors[op_inputs[4]].flags = TFLACCEL_TENSOR_VARIABLE; /* its data: the initial value */
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_INT8, 2, output_dims);
  cf_quantize(graph, output, 1, &out_scale, &out_zero_int8, 0);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_SVDF, 5, op_inputs, output);
  p->svdf.rank = rank;
  p->svdf.fused_activation = spec->activation;
  cf_output(graph, output);
}

#define SAME TFLACCEL_PADDING_SAME
#define VALID TFLACCEL_PADDING_VALID

const cf_case cf_quant_cases[] = {
    {.name = "quantized int8 conv 3x3 per-axis c5->6 relu6", .build = build_quantized_conv,
     .op = TFLACCEL_OP_CONV_2D, .rank = 4, .shape = {1, 7, 6, 5}, .out_c = 6, .kh = 3, .kw = 3,
     .padding = SAME, .activation = TFLACCEL_ACT_RELU6, .flags = QF_PER_AXIS},
    {.name = "quantized int8 conv 1x1 per-tensor c8->3 stride 2", .build = build_quantized_conv,
     .op = TFLACCEL_OP_CONV_2D, .rank = 4, .shape = {1, 6, 6, 8}, .out_c = 3, .kh = 1, .kw = 1,
     .stride = 2, .padding = VALID},
    {.name = "quantized uint8 conv 3x3 per-tensor c3->8 relu", .build = build_quantized_conv,
     .op = TFLACCEL_OP_CONV_2D, .rank = 4, .shape = {1, 9, 9, 3}, .out_c = 8, .kh = 3, .kw = 3,
     .stride = 2, .padding = SAME, .activation = TFLACCEL_ACT_RELU, .flags = QF_UINT8},
    {.name = "quantized int8 depthwise 3x3 per-axis c7", .build = build_quantized_conv,
     .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4, .shape = {1, 8, 7, 7}, .kh = 3, .kw = 3,
     .padding = SAME, .activation = TFLACCEL_ACT_RELU6, .flags = QF_PER_AXIS},
    {.name = "quantized uint8 depthwise 3x3 c6 stride 2", .build = build_quantized_conv,
     .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4, .shape = {1, 8, 8, 6}, .kh = 3, .kw = 3,
     .stride = 2, .padding = SAME, .activation = TFLACCEL_ACT_RELU6, .flags = QF_UINT8},
    {.name = "quantized int8 conv 1x1 per-axis c8->8 double rounding (ties upward)",
     .build = build_quantized_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 16, 16, 8}, .out_c = 8, .kh = 1, .kw = 1, .padding = VALID,
     .flags = QF_PER_AXIS | QF_FINE_OUTPUT | CF_EXACT_FP32},
    {.name = "quantized int8 depthwise 3x3 per-axis c8 double rounding (ties away)",
     .build = build_quantized_conv, .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4,
     .shape = {1, 16, 16, 8}, .kh = 3, .kw = 3, .padding = SAME,
     .flags = QF_PER_AXIS | QF_FINE_OUTPUT | CF_EXACT_FP32},
    {.name = "quantized int8 fully connected 12->5", .build = build_quantized_conv,
     .op = TFLACCEL_OP_FULLY_CONNECTED, .rank = 2, .shape = {2, 12}, .out_c = 5},
    {.name = "quantized uint8 fully connected 10->7", .build = build_quantized_conv,
     .op = TFLACCEL_OP_FULLY_CONNECTED, .rank = 2, .shape = {1, 10}, .out_c = 7,
     .flags = QF_UINT8},
    /* Inputs of whole words, which the GPU plugins read in place
     * (GPU_IN_WORDS); the int8 12->5 above is one too. */
    {.name = "quantized uint8 fully connected 16->6 (input read in place)",
     .build = build_quantized_conv, .op = TFLACCEL_OP_FULLY_CONNECTED, .rank = 2,
     .shape = {3, 16}, .out_c = 6, .flags = QF_UINT8},
    {.name = "quantized int8 fully connected 8->7 per axis (input read in place)",
     .build = build_quantized_conv, .op = TFLACCEL_OP_FULLY_CONNECTED, .rank = 2,
     .shape = {1, 8}, .out_c = 7, .flags = QF_PER_AXIS},
    /* Layers whose tensors between them gpu_vk and gpu_gl keep as words. */
    {.name = "quantized int8 fully connected chain 8->8->8->8 relu (words between layers)",
     .build = build_quantized_fully_connected_chain, .op = TFLACCEL_OP_FULLY_CONNECTED,
     .rank = 2, .shape = {2, 8}, .activation = TFLACCEL_ACT_RELU},
    {.name = "quantized uint8 fully connected chain 7->7->7->7 (one row: words between layers)",
     .build = build_quantized_fully_connected_chain, .op = TFLACCEL_OP_FULLY_CONNECTED,
     .rank = 2, .shape = {1, 7}, .flags = QF_UINT8},
    {.name = "quantized int8 add requantizing relu", .build = build_quantized_add_requantizing,
     .op = TFLACCEL_OP_ADD, .rank = 4, .shape = {1, 5, 3, 6}, .activation = TFLACCEL_ACT_RELU},
    {.name = "quantized uint8 add requantizing", .build = build_quantized_add_requantizing,
     .op = TFLACCEL_OP_ADD, .rank = 4, .shape = {1, 4, 4, 5}, .flags = QF_UINT8},
    {.name = "quantized uint8 average pool 2x2", .build = build_quantized_average_pool,
     .op = TFLACCEL_OP_AVERAGE_POOL_2D, .rank = 4, .shape = {1, 6, 8, 5}},
    {.name = "quantize float -> int8 -> int8 (requantize)", .build = build_quantize,
     .op = TFLACCEL_OP_QUANTIZE, .rank = 4, .shape = {1, 3, 5, 6}},
    {.name = "quantize float -> int16", .build = build_quantize, .op = TFLACCEL_OP_QUANTIZE,
     .rank = 2, .shape = {3, 9}, .flags = QF_UINT8},
    {.name = "dequantize int8 -> float", .build = build_dequantize, .op = TFLACCEL_OP_DEQUANTIZE,
     .rank = 4, .shape = {1, 4, 3, 5}},
    {.name = "quantized int8 sequence lstm 4 steps batch 2 input 6 cells 5 clip 3",
     .build = build_quantized_sequence_lstm, .op = TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
     .rank = 3, .shape = {4, 2, 6}, .out_c = 5, .value = 3.0f},
    {.name = "quantize int16 -> int32", .build = build_quantize_int32,
     .op = TFLACCEL_OP_QUANTIZE, .rank = 2, .shape = {4, 11}},
    /* The integer SVDF: its int16 state shifts by one frame each run. */
    {.name = "quantized int8 svdf rank 1 input 8 units 8 memory 4 (relu ignored)",
     .build = build_quantized_svdf, .op = TFLACCEL_OP_SVDF, .rank = 2, .shape = {1, 8},
     .out_c = 8, .multiplier = 1, .kw = 4, .activation = TFLACCEL_ACT_RELU},
    {.name = "quantized int8 svdf rank 2 batch 2 input 6 units 3 memory 3 no bias",
     .build = build_quantized_svdf, .op = TFLACCEL_OP_SVDF, .rank = 2, .shape = {2, 6},
     .out_c = 3, .multiplier = 2, .kw = 3, .flags = CF_NO_BIAS},
};

const uint32_t cf_quant_case_count = sizeof cf_quant_cases / sizeof cf_quant_cases[0];
