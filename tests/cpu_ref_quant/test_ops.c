/* cpu_ref's quantized and recurrent kernels run through the plugin's ABI
 * (tests/cpu_ref/op_builder), against expectations computed here in real
 * arithmetic: a quantized result must be round(real / scale) + zero point,
 * clamped, except that exact ties (within 1%) may go either way. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

#define U8 TFLACCEL_DTYPE_UINT8
#define I8 TFLACCEL_DTYPE_INT8
#define I16 TFLACCEL_DTYPE_INT16
#define I32 TFLACCEL_DTYPE_INT32
#define F32 TFLACCEL_DTYPE_FLOAT32

/* real / scale + zero_point rounded and clamped; allows one unit either way
 * only when the value sits on a tie. */
static void assert_requantized(int32_t actual, double real, double scale, int32_t zero_point,
                               int32_t low, int32_t high, const char *what, int index) {
  const double value = real / scale + zero_point;
  double expected = round(value);
  expected = expected < low ? low : (expected > high ? high : expected);
  const double fraction = value - floor(value);
  const double slack = fabs(fraction - 0.5) < 0.01 && value > low && value < high ? 1.0 : 0.0;
  ck_assert_msg(fabs(actual - expected) <= slack, "%s[%d] = %d, expected %.0f (real %.4f)", what,
                index, actual, expected, value);
}

/* uint8 CONV_2D 3x3 SAME with zero points on input, weights and output, and
 * a fused RELU: every output against the real-valued convolution. */
START_TEST(conv_uint8_zero_points) {
  test_graph g;
  tg_init(&g);
  const int32_t in_dims[4] = {1, 3, 3, 2}, w_dims[4] = {2, 3, 3, 2}, b_dims[1] = {2};
  const int32_t out_dims[4] = {1, 3, 3, 2};
  uint8_t input[18], weights[36];
  for (int i = 0; i < 18; i++) input[i] = (uint8_t)(37 * i % 256);
  for (int i = 0; i < 36; i++) weights[i] = (uint8_t)(90 + 11 * i % 60);
  const int32_t bias[2] = {-300, 450};
  const float in_scale = 0.05f, w_scale = 0.02f, out_scale = 0.07f;
  const int32_t in_zp = 128, w_zp = 115, out_zp = 20;
  uint32_t in = tg_input(&g, U8, 4, in_dims, input);
  uint32_t w = tg_const(&g, U8, 4, w_dims, weights);
  uint32_t b = tg_const(&g, I32, 1, b_dims, bias);
  uint32_t out = tg_tensor(&g, U8, 4, out_dims);
  tg_quantize(&g, in, in_scale, in_zp);
  tg_quantize(&g, w, w_scale, w_zp);
  tg_quantize(&g, b, in_scale * w_scale, 0);
  tg_quantize(&g, out, out_scale, out_zp);
  tflaccel_op_params *params = tg_op(&g, TFLACCEL_OP_CONV_2D, 3, (uint32_t[]){in, w, b}, 1, &out);
  params->conv_2d.padding = TFLACCEL_PADDING_SAME;
  params->conv_2d.stride_w = params->conv_2d.stride_h = 1;
  params->conv_2d.dilation_w = params->conv_2d.dilation_h = 1;
  params->conv_2d.fused_activation = TFLACCEL_ACT_RELU;
  tg_run_ok(&g, 2);
  const uint8_t *result = tg_result(&g, out);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++)
      for (int oc = 0; oc < 2; oc++) {
        double acc = bias[oc];
        for (int ky = 0; ky < 3; ky++)
          for (int kx = 0; kx < 3; kx++)
            for (int ic = 0; ic < 2; ic++) {
              int iy = y + ky - 1, ix = x + kx - 1;
              if (iy < 0 || iy >= 3 || ix < 0 || ix >= 3) continue;
              acc += (input[(iy * 3 + ix) * 2 + ic] - in_zp) *
                     (double)(weights[((oc * 3 + ky) * 3 + kx) * 2 + ic] - w_zp);
            }
        const int index = (y * 3 + x) * 2 + oc;
        /* RELU: nothing below the zero point. */
        assert_requantized(result[index], acc * (double)in_scale * w_scale, out_scale, out_zp,
                           out_zp, 255, "conv", index);
      }
  tg_free(&g);
}
END_TEST

/* int8 CONV_2D with per-channel weight scales 25x apart: channel 1
 * saturates at 127 / -128 where channel 0 stays in range. */
START_TEST(conv_int8_per_channel) {
  test_graph g;
  tg_init(&g);
  const int32_t in_dims[4] = {1, 1, 4, 3}, w_dims[4] = {2, 1, 1, 3}, b_dims[1] = {2};
  const int32_t out_dims[4] = {1, 1, 4, 2};
  const int8_t input[12] = {-10, 20, 30, 100, -100, 5, 127, 127, 127, -128, -128, -128};
  const int8_t weights[6] = {10, -20, 30, 10, -20, 30};
  const int32_t bias[2] = {15, -40};
  static float w_scales[2] = {0.02f, 0.5f};
  static int32_t w_zero_points[2] = {0, 0};
  static float b_scales[2] = {0.002f, 0.05f};
  static int32_t b_zero_points[2] = {0, 0};
  uint32_t in = tg_input(&g, I8, 4, in_dims, input);
  uint32_t w = tg_const(&g, I8, 4, w_dims, weights);
  uint32_t b = tg_const(&g, I32, 1, b_dims, bias);
  uint32_t out = tg_tensor(&g, I8, 4, out_dims);
  tg_quantize(&g, in, 0.1f, -10);
  tg_quantize(&g, out, 0.2f, 5);
  g.tensors[w].quantization =
      (tflaccel_quantization){2, w_scales, w_zero_points, 0};
  g.tensors[b].quantization =
      (tflaccel_quantization){2, b_scales, b_zero_points, 0};
  tflaccel_op_params *params = tg_op(&g, TFLACCEL_OP_CONV_2D, 3, (uint32_t[]){in, w, b}, 1, &out);
  params->conv_2d.padding = TFLACCEL_PADDING_VALID;
  params->conv_2d.stride_w = params->conv_2d.stride_h = 1;
  params->conv_2d.dilation_w = params->conv_2d.dilation_h = 1;
  tg_run_ok(&g, 1);
  const int8_t *result = tg_result(&g, out);
  int saturated_high = 0, saturated_low = 0;
  for (int p = 0; p < 4; p++)
    for (int oc = 0; oc < 2; oc++) {
      double acc = bias[oc];
      for (int ic = 0; ic < 3; ic++) acc += (input[p * 3 + ic] + 10) * (double)weights[oc * 3 + ic];
      const double real = acc * 0.1 * (double)w_scales[oc];
      assert_requantized(result[p * 2 + oc], real, 0.2, 5, -128, 127, "per-channel conv",
                         p * 2 + oc);
      saturated_high += result[p * 2 + oc] == 127;
      saturated_low += result[p * 2 + oc] == -128;
    }
  ck_assert_int_gt(saturated_high, 0);
  ck_assert_int_gt(saturated_low, 0);
  tg_free(&g);
}
END_TEST

/* FULLY_CONNECTED int8 whose results run past both int8 limits, and a
 * RELU6 variant clamped at the quantized 6.0. */
START_TEST(fully_connected_saturation) {
  for (int relu6 = 0; relu6 <= 1; relu6++) {
    test_graph g;
    tg_init(&g);
    const int32_t in_dims[2] = {1, 4}, w_dims[2] = {4, 4}, out_dims[2] = {1, 4};
    const int8_t input[4] = {127, -128, 64, 1};
    const int8_t weights[16] = {127, -127, 127, 0, -127, 127, -127, 0, 1, 2, 3, 4, 0, 0, 0, 1};
    uint32_t in = tg_input(&g, I8, 2, in_dims, input);
    uint32_t w = tg_const(&g, I8, 2, w_dims, weights);
    uint32_t out = tg_tensor(&g, I8, 2, out_dims);
    tg_quantize(&g, in, 0.05f, 0);
    tg_quantize(&g, w, 0.01f, 0);
    tg_quantize(&g, out, 0.03f, -20);
    tflaccel_op_params *params = tg_op(&g, TFLACCEL_OP_FULLY_CONNECTED, 3,
                                       (uint32_t[]){in, w, TFLACCEL_NO_TENSOR}, 1, &out);
    params->fully_connected.fused_activation = relu6 ? TFLACCEL_ACT_RELU6 : TFLACCEL_ACT_NONE;
    tg_run_ok(&g, 1);
    const int8_t *result = tg_result(&g, out);
    const int32_t low = relu6 ? -20 : -128, high = relu6 ? -20 + 200 > 127 ? 127 : -20 + 200 : 127;
    for (int u = 0; u < 4; u++) {
      double acc = 0;
      for (int i = 0; i < 4; i++) acc += input[i] * (double)weights[u * 4 + i];
      assert_requantized(result[u], acc * 0.05 * 0.01, 0.03, -20, low, high, "fc", u);
    }
    ck_assert_int_eq(result[0], 127);
    ck_assert_int_eq(result[1], low);
    tg_free(&g);
  }
}
END_TEST

/* ADD and SUB of int8 tensors with different scales, the second input
 * broadcast along the rows. */
START_TEST(add_sub_broadcast) {
  for (int sub = 0; sub <= 1; sub++) {
    test_graph g;
    tg_init(&g);
    const int32_t a_dims[3] = {1, 2, 3}, b_dims[3] = {1, 1, 3};
    const int8_t a[6] = {-128, -5, 0, 17, 100, 127};
    const int8_t b[3] = {-100, 3, 90};
    uint32_t ta = tg_input(&g, I8, 3, a_dims, a);
    uint32_t tb = tg_input(&g, I8, 3, b_dims, b);
    uint32_t out = tg_tensor(&g, I8, 3, a_dims);
    tg_quantize(&g, ta, 0.1f, 0);
    tg_quantize(&g, tb, 0.2f, -5);
    tg_quantize(&g, out, 0.25f, 3);
    tg_op(&g, sub ? TFLACCEL_OP_SUB : TFLACCEL_OP_ADD, 2, (uint32_t[]){ta, tb}, 1, &out);
    tg_run_ok(&g, 1);
    const int8_t *result = tg_result(&g, out);
    for (int i = 0; i < 6; i++) {
      const double x = 0.1 * a[i], y = 0.2 * (b[i % 3] + 5);
      assert_requantized(result[i], sub ? x - y : x + y, 0.25, 3, -128, 127, "add/sub", i);
    }
    tg_free(&g);
  }
}
END_TEST

/* MUL uint8 with broadcasting of a scalar. */
START_TEST(mul_uint8_scalar) {
  test_graph g;
  tg_init(&g);
  const int32_t a_dims[2] = {2, 2}, b_dims[1] = {1};
  const uint8_t a[4] = {0, 60, 128, 255};
  const uint8_t b[1] = {200};
  uint32_t ta = tg_input(&g, U8, 2, a_dims, a);
  uint32_t tb = tg_const(&g, U8, 1, b_dims, b);
  uint32_t out = tg_tensor(&g, U8, 2, a_dims);
  tg_quantize(&g, ta, 0.02f, 128);
  tg_quantize(&g, tb, 0.01f, 100);
  tg_quantize(&g, out, 0.015f, 120);
  tg_op(&g, TFLACCEL_OP_MUL, 2, (uint32_t[]){ta, tb}, 1, &out);
  tg_run_ok(&g, 1);
  const uint8_t *result = tg_result(&g, out);
  for (int i = 0; i < 4; i++)
    assert_requantized(result[i], 0.02 * (a[i] - 128) * 0.01 * (200 - 100), 0.015, 120, 0, 255,
                       "mul", i);
  tg_free(&g);
}
END_TEST

/* SOFTMAX uint8 and int8: probabilities, their sum, and equal inputs. */
START_TEST(softmax_quantized) {
  test_graph g;
  tg_init(&g);
  const int32_t dims[2] = {2, 5};
  const uint8_t input[10] = {10, 20, 30, 40, 50, 77, 77, 77, 77, 77};
  uint32_t in = tg_input(&g, U8, 2, dims, input);
  uint32_t out = tg_tensor(&g, U8, 2, dims);
  tg_quantize(&g, in, 0.1f, 0);
  tg_quantize(&g, out, 1.0f / 256, 0);
  tg_op(&g, TFLACCEL_OP_SOFTMAX, 1, &in, 1, &out)->softmax.beta = 1.0f;
  tg_run_ok(&g, 1);
  const uint8_t *result = tg_result(&g, out);
  double sum_exp = 0;
  for (int i = 0; i < 5; i++) sum_exp += exp(0.1 * (input[i] - 50));
  int total = 0;
  for (int i = 0; i < 5; i++) {
    assert_requantized(result[i], exp(0.1 * (input[i] - 50)) / sum_exp, 1.0 / 256, 0, 0, 255,
                       "softmax", i);
    total += result[i];
  }
  ck_assert_int_le(abs(total - 256), 3);
  for (int i = 5; i < 10; i++) ck_assert_int_eq(result[i], 51); /* 256 / 5 = 51.2 */
  tg_free(&g);

  /* int8 in, int8 out (zero point -128). */
  tg_init(&g);
  const int8_t input8[4] = {-128, 0, 0, 127};
  const int32_t dims8[2] = {1, 4};
  in = tg_input(&g, I8, 2, dims8, input8);
  out = tg_tensor(&g, I8, 2, dims8);
  tg_quantize(&g, in, 0.02f, 0);
  tg_quantize(&g, out, 1.0f / 256, -128);
  tg_op(&g, TFLACCEL_OP_SOFTMAX, 1, &in, 1, &out)->softmax.beta = 1.0f;
  tg_run_ok(&g, 1);
  const int8_t *result8 = tg_result(&g, out);
  sum_exp = 0;
  for (int i = 0; i < 4; i++) sum_exp += exp(0.02 * (input8[i] - 127));
  for (int i = 0; i < 4; i++)
    assert_requantized(result8[i], exp(0.02 * (input8[i] - 127)) / sum_exp, 1.0 / 256, -128, -128,
                       127, "softmax int8", i);
  ck_assert_int_eq(result8[1], result8[2]);
  tg_free(&g);
}
END_TEST

/* QUANTIZE float -> int8, requantize int8 -> uint8, DEQUANTIZE back. */
START_TEST(quantize_dequantize) {
  test_graph g;
  tg_init(&g);
  const int32_t dims[1] = {6};
  const float input[6] = {-3.0f, -0.26f, 0.0f, 0.24f, 1.0f, 40.0f};
  uint32_t in = tg_input(&g, F32, 1, dims, input);
  uint32_t q8 = tg_tensor(&g, I8, 1, dims);
  uint32_t qu8 = tg_tensor(&g, U8, 1, dims);
  uint32_t back = tg_tensor(&g, F32, 1, dims);
  tg_quantize(&g, q8, 0.1f, 3);
  tg_quantize(&g, qu8, 0.05f, 140);
  tg_op(&g, TFLACCEL_OP_QUANTIZE, 1, &in, 1, &q8);
  tg_op(&g, TFLACCEL_OP_QUANTIZE, 1, &q8, 1, &qu8);
  tg_op(&g, TFLACCEL_OP_DEQUANTIZE, 1, &qu8, 1, &back);
  tg_mark_output(&g, q8);
  tg_mark_output(&g, qu8);
  tg_run_ok(&g, 1);
  const int8_t *r8 = tg_result(&g, q8);
  const uint8_t *ru8 = tg_result(&g, qu8);
  const float *rf = tg_result(&g, back);
  const int8_t expected8[6] = {-27, 0, 3, 5, 13, 127}; /* round(x / 0.1) + 3, clamped */
  for (int i = 0; i < 6; i++) {
    ck_assert_int_eq(r8[i], expected8[i]);
    /* (q - 3) * 0.1 re-expressed with scale 0.05 and zero point 140 */
    const int32_t expected_u8 = (int32_t)(2 * (expected8[i] - 3) + 140);
    ck_assert_int_eq(ru8[i], expected_u8 < 0 ? 0 : (expected_u8 > 255 ? 255 : expected_u8));
    ck_assert_float_eq_tol(rf[i], 0.05f * (ru8[i] - 140), 1e-6f);
  }
  tg_free(&g);
}
END_TEST

/* MEAN over height and width (global average pooling) of int8. */
START_TEST(mean_spatial_int8) {
  test_graph g;
  tg_init(&g);
  const int32_t in_dims[4] = {1, 2, 3, 2}, out_dims[4] = {1, 1, 1, 2}, axis_dims[1] = {2};
  const int8_t input[12] = {-128, 127, 5, 6, 7, 8, 100, -100, 0, 0, -3, 50};
  const int32_t axes[2] = {1, 2};
  uint32_t in = tg_input(&g, I8, 4, in_dims, input);
  uint32_t axis = tg_const(&g, I32, 1, axis_dims, axes);
  uint32_t out = tg_tensor(&g, I8, 4, out_dims);
  tg_quantize(&g, in, 0.5f, -10);
  tg_quantize(&g, out, 0.25f, 4);
  tg_op(&g, TFLACCEL_OP_MEAN, 2, (uint32_t[]){in, axis}, 1, &out)->reducer.keep_dims = 1;
  tg_run_ok(&g, 1);
  const int8_t *result = tg_result(&g, out);
  /* TFLite 2.9's int8 global mean (x86 reference kernel): sums of
   * (x + 10), 41 and 151, times 0.5 / 0.25 = 82 and 302, divided by 6
   * rounding half away from zero (13.67 -> 14, 50.33 -> 50), plus 4. Real
   * means 17.67 and 54.33. (Later releases' optimized kernel gives 17 and
   * 55: raw sums, one multiplier 0.5 / (6 * 0.25) with double rounding and
   * a bias; TFLite 2.9.1 gives 18 and 54 on this very case.) */
  ck_assert_int_eq(result[0], 18);
  ck_assert_int_eq(result[1], 54);
  for (int c = 0; c < 2; c++) {
    double sum = 0;
    for (int p = 0; p < 6; p++) sum += 0.5 * (input[p * 2 + c] + 10);
    ck_assert(fabs(result[c] - (sum / 6 / 0.25 + 4)) <= 1.0);
  }
  tg_free(&g);
}
END_TEST

/* PAD of uint8 pads with the zero point; CONCATENATION requantizes an
 * input whose scale differs from the output's. */
START_TEST(pad_and_concatenation) {
  test_graph g;
  tg_init(&g);
  const int32_t in_dims[2] = {1, 2}, pad_dims[2] = {2, 2}, out_dims[2] = {2, 4};
  const uint8_t input[2] = {1, 2};
  const int32_t paddings[4] = {1, 0, 1, 1};
  uint32_t in = tg_input(&g, U8, 2, in_dims, input);
  uint32_t pads = tg_const(&g, I32, 2, pad_dims, paddings);
  uint32_t out = tg_tensor(&g, U8, 2, out_dims);
  tg_quantize(&g, in, 0.5f, 77);
  tg_quantize(&g, out, 0.5f, 77);
  tg_op(&g, TFLACCEL_OP_PAD, 2, (uint32_t[]){in, pads}, 1, &out);
  tg_run_ok(&g, 1);
  const uint8_t expected[8] = {77, 77, 77, 77, 77, 1, 2, 77};
  ck_assert_mem_eq(tg_result(&g, out), expected, 8);
  tg_free(&g);

  tg_init(&g);
  const int32_t a_dims[2] = {1, 2}, cat_dims[2] = {1, 4};
  const uint8_t a[2] = {10, 200}, b[2] = {0, 255};
  uint32_t ta = tg_input(&g, U8, 2, a_dims, a);
  uint32_t tb = tg_input(&g, U8, 2, a_dims, b);
  out = tg_tensor(&g, U8, 2, cat_dims);
  tg_quantize(&g, ta, 0.1f, 100);
  tg_quantize(&g, tb, 0.3f, 0);
  tg_quantize(&g, out, 0.1f, 100);
  tg_op(&g, TFLACCEL_OP_CONCATENATION, 2, (uint32_t[]){ta, tb}, 1, &out)->concatenation.axis = 1;
  tg_run_ok(&g, 1);
  const uint8_t *result = tg_result(&g, out);
  ck_assert_int_eq(result[0], 10); /* same quantization: copied */
  ck_assert_int_eq(result[1], 200);
  ck_assert_int_eq(result[2], 100); /* 0.0 */
  ck_assert_int_eq(result[3], 255); /* 76.5 saturates */
  tg_free(&g);
}
END_TEST

/* tflm__person_detect's biases carry quantized_dimension 3 on 1-D tensors.
 * TFLite's loader refuses that; TFLite Micro, which the model is for, runs
 * it, as the bias's quantization is metadata no kernel reads. cpu_ref runs
 * it and computes what it computes with a well-formed bias (axis 0). A bias
 * with a wrong number of scales is still declined, naming the tensor. */
static void person_detect_graph(test_graph *g, int32_t bias_axis, uint32_t bias_scale_count,
                                uint32_t *out) {
  tg_init(g);
  static const int32_t in_dims[4] = {1, 4, 4, 1}, w_dims[4] = {1, 3, 3, 2}, b_dims[1] = {2};
  static const int32_t out_dims[4] = {1, 4, 4, 2};
  static const int8_t input[16] = {-128, -90, -50, -10, 0, 10, 50, 90, 127, 3, -3, 7, -7, 64, -64, 1};
  static const int8_t weights[18] = {1,  -2, 3,  -4, 5,  -6, 7,   -8,  9,
                                     10, 20, 30, 40, 50, 60, -70, -80, -127};
  static const int32_t bias[2] = {100, -200};
  static float scales[2] = {0.01f, 0.02f}, bias_scales[2] = {0.001f, 0.002f};
  static int32_t zero_points[2] = {0, 0};
  uint32_t in = tg_input(g, I8, 4, in_dims, input);
  uint32_t w = tg_const(g, I8, 4, w_dims, weights);
  uint32_t b = tg_const(g, I32, 1, b_dims, bias);
  *out = tg_tensor(g, I8, 4, out_dims);
  tg_quantize(g, in, 0.1f, 0);
  tg_quantize(g, *out, 0.05f, 0);
  g->tensors[w].quantization = (tflaccel_quantization){2, scales, zero_points, 3};
  g->tensors[b].quantization =
      (tflaccel_quantization){bias_scale_count, bias_scales, zero_points, bias_axis};
  g->tensors[b].name = "Conv2d_0/Conv2D_Fold_bias";
  tflaccel_op_params *params =
      tg_op(g, TFLACCEL_OP_DEPTHWISE_CONV_2D, 3, (uint32_t[]){in, w, b}, 1, out);
  params->depthwise_conv_2d.padding = TFLACCEL_PADDING_SAME;
  params->depthwise_conv_2d.stride_w = params->depthwise_conv_2d.stride_h = 1;
  params->depthwise_conv_2d.dilation_w = params->depthwise_conv_2d.dilation_h = 1;
  params->depthwise_conv_2d.depth_multiplier = 2;
}

/* TFLite's CONV_2D on uint8 takes a bias scale up to 0.02 output scales away
 * from input_scale * filter_scale (here 0.001, output scale 0.07: up to
 * 0.0014 away) and refuses the model beyond. */
START_TEST(uint8_conv_bias_scale_tolerance) {
  const float bias_scales[2] = {0.002f, 0.0035f};
  for (int k = 0; k < 2; k++) {
    test_graph g;
    tg_init(&g);
    const int32_t in_dims[4] = {1, 2, 2, 1}, w_dims[4] = {1, 1, 1, 1}, b_dims[1] = {1};
    const uint8_t input[4] = {0, 50, 100, 200}, weights[1] = {140};
    const int32_t bias[1] = {10};
    uint32_t in = tg_input(&g, U8, 4, in_dims, input);
    uint32_t w = tg_const(&g, U8, 4, w_dims, weights);
    uint32_t b = tg_const(&g, I32, 1, b_dims, bias);
    uint32_t out = tg_tensor(&g, U8, 4, in_dims);
    tg_quantize(&g, in, 0.05f, 100);
    tg_quantize(&g, w, 0.02f, 128);
    tg_quantize(&g, b, bias_scales[k], 0);
    tg_quantize(&g, out, 0.07f, 10);
    g.tensors[b].name = "bias";
    tflaccel_op_params *params = tg_op(&g, TFLACCEL_OP_CONV_2D, 3, (uint32_t[]){in, w, b}, 1, &out);
    params->conv_2d.padding = TFLACCEL_PADDING_VALID;
    params->conv_2d.stride_w = params->conv_2d.stride_h = 1;
    params->conv_2d.dilation_w = params->conv_2d.dilation_h = 1;
    char reason[TFLACCEL_REASON_SIZE] = "";
    if (k == 0) {
      ck_assert_msg(tg_supported(&g, 0, reason), "%s", reason);
    } else {
      ck_assert_int_eq(tg_supported(&g, 0, reason), 0);
      ck_assert_msg(strstr(reason, "tensor 2 (bias): bias scale 0.0035 is 0.0357") == reason &&
                        strstr(reason, "(TFLite allows 0.02)") != NULL,
                    "%s", reason);
    }
    tg_free(&g);
  }
}
END_TEST

START_TEST(runs_person_detect_bias) {
  test_graph g, reference;
  uint32_t out, reference_out;
  person_detect_graph(&g, 3, 2, &out);
  person_detect_graph(&reference, 0, 2, &reference_out);
  tg_run_ok(&g, 1);
  tg_run_ok(&reference, 1);
  ck_assert_mem_eq(tg_result(&g, out), tg_result(&reference, reference_out), 32);
  tg_free(&g);
  tg_free(&reference);

  /* Three scales for two channels: declined, naming the bias. */
  person_detect_graph(&g, 3, 3, &out);
  static float three_scales[3] = {0.001f, 0.002f, 0.003f};
  static int32_t three_zero_points[3] = {0, 0, 0};
  g.tensors[2].quantization.scales = three_scales;
  g.tensors[2].quantization.zero_points = three_zero_points;
  char reason[TFLACCEL_REASON_SIZE] = "";
  ck_assert_int_eq(tg_supported(&g, 0, reason), 0);
  ck_assert_str_eq(reason,
                   "tensor 2 (Conv2d_0/Conv2D_Fold_bias): 3 bias scales for 2 channels (need 1 or 2)");
  tg_free(&g);
}
END_TEST

/* Depthwise with the valid axis runs: the same graph with the bias fixed. */
START_TEST(depthwise_int8_multiplier) {
  test_graph g;
  tg_init(&g);
  const int32_t in_dims[4] = {1, 2, 2, 1}, w_dims[4] = {1, 2, 2, 2}, b_dims[1] = {2};
  const int32_t out_dims[4] = {1, 1, 1, 2};
  const int8_t input[4] = {10, -20, 30, -40}, weights[8] = {1, -1, 2, -2, 3, -3, 4, -4};
  const int32_t bias[2] = {7, -7};
  static float scales[2] = {0.01f, 0.03f};
  static int32_t zero_points[2] = {0, 0};
  uint32_t in = tg_input(&g, I8, 4, in_dims, input);
  uint32_t w = tg_const(&g, I8, 4, w_dims, weights);
  uint32_t b = tg_const(&g, I32, 1, b_dims, bias);
  uint32_t out = tg_tensor(&g, I8, 4, out_dims);
  tg_quantize(&g, in, 0.1f, -2);
  tg_quantize(&g, out, 0.02f, 1);
  g.tensors[w].quantization = (tflaccel_quantization){2, scales, zero_points, 3};
  tflaccel_op_params *params =
      tg_op(&g, TFLACCEL_OP_DEPTHWISE_CONV_2D, 3, (uint32_t[]){in, w, b}, 1, &out);
  params->depthwise_conv_2d.padding = TFLACCEL_PADDING_VALID;
  params->depthwise_conv_2d.stride_w = params->depthwise_conv_2d.stride_h = 1;
  params->depthwise_conv_2d.dilation_w = params->depthwise_conv_2d.dilation_h = 1;
  params->depthwise_conv_2d.depth_multiplier = 2;
  tg_run_ok(&g, 1);
  const int8_t *result = tg_result(&g, out);
  for (int oc = 0; oc < 2; oc++) {
    double acc = bias[oc];
    for (int p = 0; p < 4; p++) acc += (input[p] + 2) * (double)weights[p * 2 + oc];
    assert_requantized(result[oc], acc * 0.1 * (double)scales[oc], 0.02, 1, -128, 127,
                       "depthwise", oc);
  }
  tg_free(&g);
}
END_TEST

/* How exact ties are requantized, per op and dtype, on accumulators
 * {-6, -10, -5, 6, -24, -25, 7, -2} scaled by 0.25 (scales 1 * 1 / 4, all
 * zero points 0, or 128 for uint8, weights 1, bias 0). The expected values
 * are TFLite's (2.9.1 and 2.14 give the same on this case): int8 CONV_2D and
 * FULLY_CONNECTED go through ruy, whose last rounding breaks ties upward
 * (-1.5 -> -1, -2.5 -> -2, -0.5 -> 0); DEPTHWISE_CONV_2D and uint8 CONV_2D
 * (gemmlowp) break them away from zero (-1.5 -> -2, -2.5 -> -3, -0.5 -> -1).
 * Both round twice: -5 * 0.5 = -2.5 first rounds (upward in both) to -2,
 * which then halves exactly to -1. */
START_TEST(requantization_ties) {
  static const int32_t accumulators[8] = {-6, -10, -5, 6, -24, -25, 7, -2};
  static const int32_t ties_up[8] = {-1, -2, -1, 2, -6, -6, 2, 0};
  static const int32_t ties_away[8] = {-2, -3, -1, 2, -6, -6, 2, -1};
  const int32_t op_codes[4] = {TFLACCEL_OP_CONV_2D, TFLACCEL_OP_FULLY_CONNECTED,
                               TFLACCEL_OP_DEPTHWISE_CONV_2D, TFLACCEL_OP_CONV_2D};
  const int32_t dtypes[4] = {I8, I8, I8, U8};
  for (int k = 0; k < 4; k++) {
    const int32_t dtype = dtypes[k], code = op_codes[k];
    const int32_t zero_point = dtype == U8 ? 128 : 0;
    uint8_t input[8], weight[1] = {(uint8_t)(dtype == U8 ? 129 : 1)};
    for (int i = 0; i < 8; i++) input[i] = (uint8_t)(accumulators[i] + zero_point);
    const int32_t bias[1] = {0};
    const int32_t conv_dims[4] = {1, 1, 8, 1}, fc_dims[2] = {8, 1}, w4_dims[4] = {1, 1, 1, 1};
    const int32_t w2_dims[2] = {1, 1}, b_dims[1] = {1};
    const int fc = code == TFLACCEL_OP_FULLY_CONNECTED;
    test_graph g;
    tg_init(&g);
    uint32_t in = tg_input(&g, dtype, fc ? 2 : 4, fc ? fc_dims : conv_dims, input);
    uint32_t w = tg_const(&g, dtype, fc ? 2 : 4, fc ? w2_dims : w4_dims, weight);
    uint32_t b = tg_const(&g, I32, 1, b_dims, bias);
    uint32_t out = tg_tensor(&g, dtype, fc ? 2 : 4, fc ? fc_dims : conv_dims);
    tg_quantize(&g, in, 1.0f, zero_point);
    tg_quantize(&g, w, 1.0f, dtype == U8 ? 128 : 0);
    tg_quantize(&g, b, 1.0f, 0);
    tg_quantize(&g, out, 4.0f, zero_point);
    tflaccel_op_params *params = tg_op(&g, code, 3, (uint32_t[]){in, w, b}, 1, &out);
    if (code == TFLACCEL_OP_CONV_2D) {
      params->conv_2d.padding = TFLACCEL_PADDING_VALID;
      params->conv_2d.stride_w = params->conv_2d.stride_h = 1;
      params->conv_2d.dilation_w = params->conv_2d.dilation_h = 1;
    } else if (code == TFLACCEL_OP_DEPTHWISE_CONV_2D) {
      params->depthwise_conv_2d.padding = TFLACCEL_PADDING_VALID;
      params->depthwise_conv_2d.stride_w = params->depthwise_conv_2d.stride_h = 1;
      params->depthwise_conv_2d.dilation_w = params->depthwise_conv_2d.dilation_h = 1;
      params->depthwise_conv_2d.depth_multiplier = 1;
    }
    tg_run_ok(&g, 1);
    const void *result = tg_result(&g, out);
    const int32_t *expected = dtype == I8 && code != TFLACCEL_OP_DEPTHWISE_CONV_2D ? ties_up
                                                                                  : ties_away;
    for (int i = 0; i < 8; i++) {
      const int32_t value = dtype == U8 ? ((const uint8_t *)result)[i] - zero_point
                                        : ((const int8_t *)result)[i];
      ck_assert_msg(value == expected[i], "case %d (op %d): accumulator %d gave %d, expected %d",
                    k, code, accumulators[i], value, expected[i]);
    }
    tg_free(&g);
  }
}
END_TEST

/* ---- state: SVDF through compile / execute / reset_state ---------------- */

typedef struct svdf_case {
  test_graph graph;
  uint32_t input, output;
  int8_t input_values[2];
} svdf_case;

/* SVDF int8 with unit scales, so each output is exactly
 * sum(weights_time * memory) + bias: features = [1 2] . [3 4] = 11. */
static void build_svdf(svdf_case *c) {
  test_graph *g = &c->graph;
  tg_init(g);
  const int32_t in_dims[2] = {1, 2}, wf_dims[2] = {1, 2}, wt_dims[2] = {1, 3}, b_dims[1] = {1};
  const int32_t state_dims[2] = {1, 3}, out_dims[2] = {1, 1};
  const int8_t weights_feature[2] = {1, 2};
  const int16_t weights_time[3] = {1, 2, 3};
  const int32_t bias[1] = {1};
  c->input_values[0] = 3;
  c->input_values[1] = 4;
  c->input = tg_input(g, I8, 2, in_dims, c->input_values);
  uint32_t wf = tg_const(g, I8, 2, wf_dims, weights_feature);
  uint32_t wt = tg_const(g, I16, 2, wt_dims, weights_time);
  uint32_t b = tg_const(g, I32, 1, b_dims, bias);
  uint32_t state = tg_tensor(g, I16, 2, state_dims);
  g->tensors[state].flags = TFLACCEL_TENSOR_VARIABLE;
  c->output = tg_tensor(g, I8, 2, out_dims);
  tg_quantize(g, c->input, 1.0f, 0);
  tg_quantize(g, wf, 1.0f, 0);
  tg_quantize(g, wt, 1.0f, 0);
  tg_quantize(g, b, 1.0f, 0);
  tg_quantize(g, state, 1.0f, 0);
  tg_quantize(g, c->output, 1.0f, 0);
  tflaccel_op_params *params =
      tg_op(g, TFLACCEL_OP_SVDF, 5, (uint32_t[]){c->input, wf, wt, b, state}, 1, &c->output);
  params->svdf.rank = 1;
  params->svdf.fused_activation = TFLACCEL_ACT_NONE;
}

static int8_t execute_once(test_plugin *plugin, tflaccel_executable *executable,
                           const svdf_case *c) {
  const tflaccel_device_vtable *vt = plugin->device->vtable;
  tflaccel_buffer *in_buffer = NULL, *out_buffer = NULL;
  tflaccel_status status = vt->buffer_create(plugin->device, 2, &in_buffer);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  status = vt->buffer_create(plugin->device, 1, &out_buffer);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  status = vt->buffer_write(plugin->device, in_buffer, 0, c->input_values, 2);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_binding bindings[2] = {{c->input, in_buffer, 0, 2}, {c->output, out_buffer, 0, 1}};
  status = vt->execute(plugin->device, executable, bindings, 2, NULL);
  ck_assert_msg(status == NULL, "execute: %s", tflaccel_status_message(status));
  int8_t result = 0;
  status = vt->buffer_read(plugin->device, out_buffer, 0, &result, 1);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  vt->buffer_destroy(plugin->device, in_buffer);
  vt->buffer_destroy(plugin->device, out_buffer);
  return result;
}

START_TEST(svdf_state_persists_and_resets) {
  svdf_case c;
  build_svdf(&c);
  test_plugin plugin;
  tp_open(&plugin);
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  ck_assert_ptr_nonnull(vt->reset_state);
  uint32_t ops[1] = {0};
  tflaccel_partition_desc partition = {sizeof partition, 1, ops, 1, &c.input, 1, &c.output};
  tflaccel_compile_options options = {
      .struct_size = sizeof options, .precision = TFLACCEL_PRECISION_FP32, .thread_count = 1};
  tflaccel_graph_view view = tg_view(&c.graph);
  tflaccel_executable *executable = NULL;
  tflaccel_status status = vt->compile(plugin.device, &view, &partition, &options, &executable);
  ck_assert_msg(status == NULL, "compile: %s", tflaccel_status_message(status));
  /* memory after each run: [0 0 11], [0 11 11], [11 11 11] */
  ck_assert_int_eq(execute_once(&plugin, executable, &c), 3 * 11 + 1);
  ck_assert_int_eq(execute_once(&plugin, executable, &c), (2 + 3) * 11 + 1);
  ck_assert_int_eq(execute_once(&plugin, executable, &c), (1 + 2 + 3) * 11 + 1);
  status = vt->reset_state(plugin.device, executable);
  ck_assert_msg(status == NULL, "reset_state: %s", tflaccel_status_message(status));
  ck_assert_int_eq(execute_once(&plugin, executable, &c), 3 * 11 + 1);
  vt->executable_destroy(plugin.device, executable);
  tp_close(&plugin);
  tg_free(&c.graph);
}
END_TEST

/* A float32 LSTM (no peephole, no projection) over two steps against a
 * direct evaluation of the LSTM equations, the state carried between steps. */
START_TEST(lstm_float_two_steps) {
  test_graph g;
  tg_init(&g);
  enum { BATCH = 1, TIME = 2, IN = 3, CELLS = 2 };
  const int32_t in_dims[3] = {BATCH, TIME, IN}, wx_dims[2] = {CELLS, IN};
  const int32_t wh_dims[2] = {CELLS, CELLS}, b_dims[1] = {CELLS}, state_dims[2] = {BATCH, CELLS};
  const int32_t out_dims[3] = {BATCH, TIME, CELLS};
  float input[BATCH * TIME * IN], wx[4][CELLS * IN], wh[4][CELLS * CELLS], bias[4][CELLS];
  tg_random_floats(input, BATCH * TIME * IN, 3, -1, 1);
  for (int gate = 0; gate < 4; gate++) {
    tg_random_floats(wx[gate], CELLS * IN, 10 + gate, -0.8f, 0.8f);
    tg_random_floats(wh[gate], CELLS * CELLS, 20 + gate, -0.8f, 0.8f);
    tg_random_floats(bias[gate], CELLS, 30 + gate, -0.5f, 0.5f);
  }
  /* 24 inputs are more than op_builder's slots: the op points at this array. */
  static uint32_t inputs[24];
  for (int i = 0; i < 24; i++) inputs[i] = TFLACCEL_NO_TENSOR;
  inputs[0] = tg_input(&g, F32, 3, in_dims, input);
  for (int gate = 0; gate < 4; gate++) {
    inputs[1 + gate] = tg_const(&g, F32, 2, wx_dims, wx[gate]);
    inputs[5 + gate] = tg_const(&g, F32, 2, wh_dims, wh[gate]);
    inputs[12 + gate] = tg_const(&g, F32, 1, b_dims, bias[gate]);
  }
  inputs[18] = tg_tensor(&g, F32, 2, state_dims);
  inputs[19] = tg_tensor(&g, F32, 2, state_dims);
  g.tensors[inputs[18]].flags = TFLACCEL_TENSOR_VARIABLE;
  g.tensors[inputs[19]].flags = TFLACCEL_TENSOR_VARIABLE;
  uint32_t out = tg_tensor(&g, F32, 3, out_dims);
  tflaccel_op_params *params =
      tg_op(&g, TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 0, inputs, 1, &out);
  g.ops[g.op_count - 1].inputs = inputs;
  g.ops[g.op_count - 1].input_count = 24;
  params->sequence_lstm.fused_activation = TFLACCEL_ACT_TANH;
  params->sequence_lstm.cell_clip = 0.0f;
  /* tg_run runs twice and wants equal results: the state makes them
   * differ, so run a single execute through the ABI. */
  test_plugin plugin;
  tp_open(&plugin);
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  uint32_t ops[1] = {0};
  tflaccel_partition_desc partition = {sizeof partition, 1, ops, 1, &inputs[0], 1, &out};
  tflaccel_compile_options options = {
      .struct_size = sizeof options, .precision = TFLACCEL_PRECISION_FP32, .thread_count = 1};
  tflaccel_graph_view view = tg_view(&g);
  tflaccel_executable *executable = NULL;
  tflaccel_status status = vt->compile(plugin.device, &view, &partition, &options, &executable);
  ck_assert_msg(status == NULL, "compile: %s", tflaccel_status_message(status));
  tflaccel_buffer *in_buffer = NULL, *out_buffer = NULL;
  ck_assert_ptr_null(vt->buffer_create(plugin.device, sizeof input, &in_buffer));
  ck_assert_ptr_null(vt->buffer_create(plugin.device, sizeof(float) * TIME * CELLS, &out_buffer));
  ck_assert_ptr_null(vt->buffer_write(plugin.device, in_buffer, 0, input, sizeof input));
  tflaccel_binding bindings[2] = {{inputs[0], in_buffer, 0, sizeof input},
                                  {out, out_buffer, 0, sizeof(float) * TIME * CELLS}};
  status = vt->execute(plugin.device, executable, bindings, 2, NULL);
  ck_assert_msg(status == NULL, "execute: %s", tflaccel_status_message(status));
  float result[TIME * CELLS];
  ck_assert_ptr_null(vt->buffer_read(plugin.device, out_buffer, 0, result, sizeof result));

  double h[CELLS] = {0}, cell[CELLS] = {0};
  for (int t = 0; t < TIME; t++) {
    double gates[4][CELLS];
    for (int gate = 0; gate < 4; gate++)
      for (int c = 0; c < CELLS; c++) {
        double sum = bias[gate][c];
        for (int i = 0; i < IN; i++) sum += wx[gate][c * IN + i] * input[t * IN + i];
        for (int j = 0; j < CELLS; j++) sum += wh[gate][c * CELLS + j] * h[j];
        gates[gate][c] = gate == 2 ? tanh(sum) : 1.0 / (1.0 + exp(-sum));
      }
    for (int c = 0; c < CELLS; c++) {
      cell[c] = gates[1][c] * cell[c] + gates[0][c] * gates[2][c];
      h[c] = gates[3][c] * tanh(cell[c]);
      ck_assert_msg(fabs(result[t * CELLS + c] - h[c]) < 1e-5, "lstm h[%d][%d] = %g, expected %g",
                    t, c, result[t * CELLS + c], h[c]);
    }
  }
  vt->buffer_destroy(plugin.device, in_buffer);
  vt->buffer_destroy(plugin.device, out_buffer);
  vt->executable_destroy(plugin.device, executable);
  tp_close(&plugin);
  tg_free(&g);
}
END_TEST

/* Scales that each pass alone (finite, positive, within the loader's
 * [1e-30, 1e30]) but whose ratio is no multiplier a kernel can apply (2^31
 * and above, or a float product overflowing to inf): each quantized kernel
 * that rescales refuses at compile with a status naming the op, instead of
 * running with a multiplier of 0 (a result of zeros). _i picks
 * the op: MUL, ADD, requantizing QUANTIZE, RELU, spatial MEAN (int8). */
START_TEST(absurd_multipliers_refused) {
  test_graph g;
  tg_init(&g);
  const int32_t dims[4] = {1, 2, 2, 1}, out_dims[4] = {1, 1, 1, 1}, axis_dims[1] = {2};
  const int8_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  const int32_t axes[2] = {1, 2};
  const char *name = "";
  uint32_t ta = tg_input(&g, I8, 4, dims, a);
  tg_quantize(&g, ta, 1e30f, 0);
  if (_i == 0 || _i == 1) {
    uint32_t tb = tg_const(&g, I8, 4, dims, b);
    uint32_t out = tg_tensor(&g, I8, 4, dims);
    tg_quantize(&g, tb, 1e30f, 0);
    tg_quantize(&g, out, 1e-30f, 0);
    name = _i == 0 ? "MUL" : "ADD";
    tg_op(&g, _i == 0 ? TFLACCEL_OP_MUL : TFLACCEL_OP_ADD, 2, (uint32_t[]){ta, tb}, 1, &out);
  } else if (_i == 2 || _i == 3) {
    uint32_t out = tg_tensor(&g, I8, 4, dims);
    tg_quantize(&g, out, 1e-30f, 0);
    name = _i == 2 ? "QUANTIZE" : "RELU";
    tg_op(&g, _i == 2 ? TFLACCEL_OP_QUANTIZE : TFLACCEL_OP_RELU, 1, &ta, 1, &out);
  } else {
    uint32_t axis = tg_const(&g, I32, 1, axis_dims, axes);
    uint32_t out = tg_tensor(&g, I8, 4, out_dims);
    tg_quantize(&g, out, 1e-30f, 0);
    name = "MEAN";
    tg_op(&g, TFLACCEL_OP_MEAN, 2, (uint32_t[]){ta, axis}, 1, &out)->reducer.keep_dims = 1;
  }
  tflaccel_status status = tg_run(&g, 1);
  ck_assert_msg(status != NULL, "%s with a multiplier of about 1e60 ran", name);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, name) != NULL && strchr(message, '\n') == NULL, "%s: %s", name,
                message);
  /* ADD and QUANTIZE refuse these scales in their checks already; the
   * others in prepare, through q_require_multiplier. */
  if (_i != 1 && _i != 2)
    ck_assert_msg(strstr(message, "not a multiplier") != NULL &&
                      tflaccel_status_code_of(status) == TFLACCEL_INVALID_MODEL,
                  "%s: %s", name, message);
  tflaccel_status_free(status);
  tg_free(&g);
}
END_TEST

static Suite *quant_ops_suite(void) {
  Suite *suite = suite_create("cpu_ref_quant_ops");
  TCase *tc = tcase_create("ops");
  tcase_add_test(tc, conv_uint8_zero_points);
  tcase_add_test(tc, conv_int8_per_channel);
  tcase_add_test(tc, fully_connected_saturation);
  tcase_add_test(tc, add_sub_broadcast);
  tcase_add_test(tc, mul_uint8_scalar);
  tcase_add_test(tc, softmax_quantized);
  tcase_add_test(tc, quantize_dequantize);
  tcase_add_test(tc, mean_spatial_int8);
  tcase_add_test(tc, pad_and_concatenation);
  tcase_add_test(tc, runs_person_detect_bias);
  tcase_add_test(tc, uint8_conv_bias_scale_tolerance);
  tcase_add_test(tc, depthwise_int8_multiplier);
  tcase_add_test(tc, requantization_ties);
  tcase_add_test(tc, svdf_state_persists_and_resets);
  tcase_add_test(tc, lstm_float_two_steps);
  tcase_add_loop_test(tc, absurd_multipliers_refused, 0, 5);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(quant_ops_suite());
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
