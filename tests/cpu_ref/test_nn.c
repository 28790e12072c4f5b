/* cpu_ref's convolution-like kernels against hand-computed values and
 * plain reference loops written here (double accumulation, scatter form for
 * transposed convolution): CONV_2D, DEPTHWISE_CONV_2D, pooling,
 * FULLY_CONNECTED, TRANSPOSE_CONV and Convolution2DTransposeBias. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

#define F32 TFLACCEL_DTYPE_FLOAT32
#define TOLERANCE 1e-5f

static float activate(float value, int32_t activation) {
  switch (activation) {
  case TFLACCEL_ACT_RELU: return value < 0 ? 0 : value;
  case TFLACCEL_ACT_RELU6: return value < 0 ? 0 : (value > 6 ? 6 : value);
  case TFLACCEL_ACT_RELU_N1_TO_1: return value < -1 ? -1 : (value > 1 ? 1 : value);
  default: return value;
  }
}

/* TFLite's SAME/VALID output size and leading padding, written out. */
static int out_size(int32_t padding, int in, int k, int stride, int dilation) {
  int effective = (k - 1) * dilation + 1;
  return padding == TFLACCEL_PADDING_SAME ? (in + stride - 1) / stride
                                          : (in - effective + stride) / stride;
}

static int leading_pad(int in, int out, int k, int stride, int dilation) {
  int total = (out - 1) * stride + (k - 1) * dilation + 1 - in;
  return total > 0 ? total / 2 : 0;
}

typedef struct conv_case {
  int n, h, w, c, o, kh, kw, fc; /* fc: filter input channels */
  int stride_h, stride_w, dilation_h, dilation_w;
  int32_t padding, activation;
  int with_bias;
} conv_case;

static void reference_conv(const conv_case *k, const float *in, const float *filter,
                           const float *bias, int oh, int ow, float *out) {
  int groups = k->c / k->fc, per_group = k->o / groups;
  int pad_h = leading_pad(k->h, oh, k->kh, k->stride_h, k->dilation_h);
  int pad_w = leading_pad(k->w, ow, k->kw, k->stride_w, k->dilation_w);
  for (int b = 0; b < k->n; b++)
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow; x++)
        for (int oc = 0; oc < k->o; oc++) {
          double sum = bias != NULL ? bias[oc] : 0.0;
          int group = oc / per_group;
          for (int ky = 0; ky < k->kh; ky++)
            for (int kx = 0; kx < k->kw; kx++)
              for (int ic = 0; ic < k->fc; ic++) {
                int iy = y * k->stride_h - pad_h + ky * k->dilation_h;
                int ix = x * k->stride_w - pad_w + kx * k->dilation_w;
                if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w) continue;
                sum += (double)in[((b * k->h + iy) * k->w + ix) * k->c + group * k->fc + ic] *
                       filter[((oc * k->kh + ky) * k->kw + kx) * k->fc + ic];
              }
          out[((b * oh + y) * ow + x) * k->o + oc] = activate((float)sum, k->activation);
        }
}

/* Runs one CONV_2D case with `threads` threads; returns the output. */
static float *run_conv(const conv_case *k, int32_t threads, int *count_out) {
  int oh = out_size(k->padding, k->h, k->kh, k->stride_h, k->dilation_h);
  int ow = out_size(k->padding, k->w, k->kw, k->stride_w, k->dilation_w);
  int in_count = k->n * k->h * k->w * k->c, filter_count = k->o * k->kh * k->kw * k->fc;
  int out_count = k->n * oh * ow * k->o;
  float *in = malloc(sizeof(float) * in_count), *filter = malloc(sizeof(float) * filter_count);
  float *bias = malloc(sizeof(float) * k->o), *expected = malloc(sizeof(float) * out_count);
  float *actual = malloc(sizeof(float) * out_count);
  tg_random_floats(in, in_count, 11, -1, 1);
  tg_random_floats(filter, filter_count, 12, -1, 1);
  tg_random_floats(bias, k->o, 13, -1, 1);
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){k->n, k->h, k->w, k->c}, in);
  uint32_t tf = tg_const(&graph, F32, 4, (int32_t[]){k->o, k->kh, k->kw, k->fc}, filter);
  uint32_t tb = k->with_bias ? tg_const(&graph, F32, 1, (int32_t[]){k->o}, bias) : TFLACCEL_NO_TENSOR;
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){k->n, oh, ow, k->o});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_CONV_2D, 3, (uint32_t[]){tin, tf, tb}, 1, (uint32_t[]){tout});
  params->conv_2d.padding = k->padding;
  params->conv_2d.stride_h = k->stride_h;
  params->conv_2d.stride_w = k->stride_w;
  params->conv_2d.dilation_h = k->dilation_h;
  params->conv_2d.dilation_w = k->dilation_w;
  params->conv_2d.fused_activation = k->activation;
  tg_run_ok(&graph, threads);
  memcpy(actual, tg_result(&graph, tout), sizeof(float) * out_count);
  reference_conv(k, in, filter, k->with_bias ? bias : NULL, oh, ow, expected);
  tg_assert_floats(actual, expected, out_count, TOLERANCE);
  tg_free(&graph);
  free(in);
  free(filter);
  free(bias);
  free(expected);
  *count_out = out_count;
  return actual;
}

START_TEST(conv_same_stride2_hand_computed) {
  /* 4x4 input 1..16, 3x3 filter of ones, SAME, stride 2: TFLite pads 0 rows
   * at the top and 1 at the bottom (the odd padding goes last). */
  float in[16], ones[9];
  for (int i = 0; i < 16; i++) in[i] = (float)(i + 1);
  for (int i = 0; i < 9; i++) ones[i] = 1;
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 4, 4, 1}, in);
  uint32_t tf = tg_const(&graph, F32, 4, (int32_t[]){1, 3, 3, 1}, ones);
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 2, 2, 1});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_CONV_2D, 2, (uint32_t[]){tin, tf}, 1, (uint32_t[]){tout});
  params->conv_2d.padding = TFLACCEL_PADDING_SAME;
  params->conv_2d.stride_h = params->conv_2d.stride_w = 2;
  params->conv_2d.dilation_h = params->conv_2d.dilation_w = 1;
  tg_run_ok(&graph, 1);
  const float expected[4] = {54, 45, 72, 54};
  tg_assert_floats(tg_result(&graph, tout), expected, 4, 0);
  tg_free(&graph);
}
END_TEST

START_TEST(conv_against_reference) {
  const conv_case cases[] = {
      /* n h w c o kh kw fc  sh sw dh dw  padding  activation  bias */
      {2, 7, 6, 3, 5, 3, 3, 3, 1, 1, 1, 1, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE, 1},
      {1, 9, 8, 5, 7, 3, 3, 5, 2, 2, 1, 1, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_RELU6, 1},
      {1, 10, 9, 3, 6, 3, 2, 3, 2, 1, 2, 3, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_RELU, 1},
      {1, 5, 5, 7, 3, 1, 1, 7, 1, 1, 1, 1, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_RELU_N1_TO_1, 0},
      /* grouped: 6 input channels, filter of 2 -> 3 groups of 3 outputs */
      {1, 6, 6, 6, 9, 3, 3, 2, 1, 1, 1, 1, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE, 1},
      {1, 8, 8, 4, 4, 5, 5, 4, 2, 2, 1, 1, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int count_1, count_2;
    float *one = run_conv(&cases[i], 1, &count_1);
    float *two = run_conv(&cases[i], 2, &count_2);
    ck_assert_int_eq(count_1, count_2);
    ck_assert_msg(memcmp(one, two, sizeof(float) * count_1) == 0,
                  "case %zu: 1 and 2 threads differ", i);
    free(one);
    free(two);
  }
}
END_TEST

START_TEST(conv_rejects_bad_output_shape) {
  float in[16] = {0}, filter[9] = {0};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 4, 4, 1}, in);
  uint32_t tf = tg_const(&graph, F32, 4, (int32_t[]){1, 3, 3, 1}, filter);
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 4, 4, 1});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_CONV_2D, 2, (uint32_t[]){tin, tf}, 1, (uint32_t[]){tout});
  params->conv_2d.padding = TFLACCEL_PADDING_VALID;
  params->conv_2d.stride_h = params->conv_2d.stride_w = 1;
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!tg_supported(&graph, 0, reason));
  ck_assert_str_eq(reason,
                   "CONV_2D: output shape [1,4,4,1] differs from the expected [1,2,2,1]");
  tg_free(&graph);
}
END_TEST

typedef struct depthwise_case {
  int h, w, c, m, kh, kw, stride, dilation;
  int32_t padding, activation;
} depthwise_case;

START_TEST(depthwise_against_reference) {
  const depthwise_case cases[] = {
      {7, 7, 3, 2, 3, 3, 2, 1, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE},
      {9, 8, 5, 1, 3, 3, 1, 2, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_RELU6},
      {6, 5, 5, 1, 5, 5, 1, 1, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_RELU},
      {5, 6, 2, 3, 2, 3, 2, 1, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_RELU_N1_TO_1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const depthwise_case *k = &cases[i];
    int oc = k->c * k->m;
    int oh = out_size(k->padding, k->h, k->kh, k->stride, k->dilation);
    int ow = out_size(k->padding, k->w, k->kw, k->stride, k->dilation);
    int pad_h = leading_pad(k->h, oh, k->kh, k->stride, k->dilation);
    int pad_w = leading_pad(k->w, ow, k->kw, k->stride, k->dilation);
    float in[2 * 9 * 8 * 5], filter[5 * 5 * 6], bias[6], expected[2 * 9 * 8 * 6];
    tg_random_floats(in, sizeof in / sizeof in[0], 21 + (uint32_t)i, -1, 1);
    tg_random_floats(filter, sizeof filter / sizeof filter[0], 22, -1, 1);
    tg_random_floats(bias, 6, 23, -1, 1);
    for (int b = 0; b < 2; b++)
      for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++)
          for (int c = 0; c < k->c; c++)
            for (int m = 0; m < k->m; m++) {
              int o = c * k->m + m;
              double sum = bias[o];
              for (int ky = 0; ky < k->kh; ky++)
                for (int kx = 0; kx < k->kw; kx++) {
                  int iy = y * k->stride - pad_h + ky * k->dilation;
                  int ix = x * k->stride - pad_w + kx * k->dilation;
                  if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w) continue;
                  sum += (double)in[((b * k->h + iy) * k->w + ix) * k->c + c] *
                         filter[(ky * k->kw + kx) * oc + o];
                }
              expected[((b * oh + y) * ow + x) * oc + o] = activate((float)sum, k->activation);
            }
    for (int32_t threads = 1; threads <= 2; threads++) {
      test_graph graph;
      tg_init(&graph);
      uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){2, k->h, k->w, k->c}, in);
      uint32_t tf = tg_const(&graph, F32, 4, (int32_t[]){1, k->kh, k->kw, oc}, filter);
      uint32_t tb = tg_const(&graph, F32, 1, (int32_t[]){oc}, bias);
      uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){2, oh, ow, oc});
      tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_DEPTHWISE_CONV_2D, 3,
                                         (uint32_t[]){tin, tf, tb}, 1, (uint32_t[]){tout});
      params->depthwise_conv_2d.padding = k->padding;
      params->depthwise_conv_2d.stride_h = params->depthwise_conv_2d.stride_w = k->stride;
      params->depthwise_conv_2d.dilation_h = params->depthwise_conv_2d.dilation_w = k->dilation;
      params->depthwise_conv_2d.depth_multiplier = k->m;
      params->depthwise_conv_2d.fused_activation = k->activation;
      tg_run_ok(&graph, threads);
      tg_assert_floats(tg_result(&graph, tout), expected, 2 * oh * ow * oc, TOLERANCE);
      tg_free(&graph);
    }
  }
}
END_TEST

START_TEST(average_pool_counts_valid_elements) {
  /* 3x3 input, 3x3 window, SAME, stride 1: the corner window holds 4
   * values and averages over 4, not 9. */
  float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, 3, 3, 1}, in);
  uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, 3, 3, 1});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_AVERAGE_POOL_2D, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tout});
  params->pool_2d.padding = TFLACCEL_PADDING_SAME;
  params->pool_2d.stride_h = params->pool_2d.stride_w = 1;
  params->pool_2d.filter_h = params->pool_2d.filter_w = 3;
  tg_run_ok(&graph, 1);
  const float expected[9] = {3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7};
  tg_assert_floats(tg_result(&graph, tout), expected, 9, 1e-6f);
  tg_free(&graph);
}
END_TEST

START_TEST(pools_against_reference) {
  struct {
    int32_t code, padding, activation;
    int h, w, c, fh, fw, stride;
  } cases[] = {
      {TFLACCEL_OP_AVERAGE_POOL_2D, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE, 7, 6, 3, 3, 3, 2},
      {TFLACCEL_OP_AVERAGE_POOL_2D, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_RELU, 7, 7, 5, 2, 3, 2},
      {TFLACCEL_OP_MAX_POOL_2D, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_RELU6, 8, 8, 5, 3, 3, 2},
      {TFLACCEL_OP_MAX_POOL_2D, TFLACCEL_PADDING_VALID, TFLACCEL_ACT_NONE, 6, 9, 2, 2, 2, 2},
      {TFLACCEL_OP_L2_POOL_2D, TFLACCEL_PADDING_SAME, TFLACCEL_ACT_NONE, 5, 5, 3, 2, 2, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int oh = out_size(cases[i].padding, cases[i].h, cases[i].fh, cases[i].stride, 1);
    int ow = out_size(cases[i].padding, cases[i].w, cases[i].fw, cases[i].stride, 1);
    int pad_h = leading_pad(cases[i].h, oh, cases[i].fh, cases[i].stride, 1);
    int pad_w = leading_pad(cases[i].w, ow, cases[i].fw, cases[i].stride, 1);
    int c = cases[i].c;
    float in[9 * 9 * 5], expected[9 * 9 * 5];
    tg_random_floats(in, sizeof in / sizeof in[0], 31 + (uint32_t)i, -8, 8);
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow; x++)
        for (int ch = 0; ch < c; ch++) {
          double sum = 0, max = -INFINITY;
          int count = 0;
          for (int fy = 0; fy < cases[i].fh; fy++)
            for (int fx = 0; fx < cases[i].fw; fx++) {
              int iy = y * cases[i].stride - pad_h + fy, ix = x * cases[i].stride - pad_w + fx;
              if (iy < 0 || iy >= cases[i].h || ix < 0 || ix >= cases[i].w) continue;
              double v = in[(iy * cases[i].w + ix) * c + ch];
              sum += cases[i].code == TFLACCEL_OP_L2_POOL_2D ? v * v : v;
              max = v > max ? v : max;
              count++;
            }
          double value = cases[i].code == TFLACCEL_OP_MAX_POOL_2D ? max
                         : cases[i].code == TFLACCEL_OP_L2_POOL_2D ? sqrt(sum / count)
                                                                   : sum / count;
          expected[(y * ow + x) * c + ch] = activate((float)value, cases[i].activation);
        }
    test_graph graph;
    tg_init(&graph);
    uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, cases[i].h, cases[i].w, c}, in);
    uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, oh, ow, c});
    tflaccel_op_params *params =
        tg_op(&graph, cases[i].code, 1, (uint32_t[]){tin}, 1, (uint32_t[]){tout});
    params->pool_2d.padding = cases[i].padding;
    params->pool_2d.stride_h = params->pool_2d.stride_w = cases[i].stride;
    params->pool_2d.filter_h = cases[i].fh;
    params->pool_2d.filter_w = cases[i].fw;
    params->pool_2d.fused_activation = cases[i].activation;
    tg_run_ok(&graph, 2);
    tg_assert_floats(tg_result(&graph, tout), expected, oh * ow * c, TOLERANCE);
    tg_free(&graph);
  }
}
END_TEST

START_TEST(fully_connected_cases) {
  /* [2,3] x [4,3]^T + bias, RELU. */
  float in[6] = {1, 2, 3, -1, 0, 1};
  float weights[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  float bias[4] = {0.5f, -10, 0, 1};
  test_graph graph;
  tg_init(&graph);
  uint32_t tin = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, in);
  uint32_t tw = tg_const(&graph, F32, 2, (int32_t[]){4, 3}, weights);
  uint32_t tb = tg_const(&graph, F32, 1, (int32_t[]){4}, bias);
  uint32_t tout = tg_tensor(&graph, F32, 2, (int32_t[]){2, 4});
  tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_FULLY_CONNECTED, 3,
                                     (uint32_t[]){tin, tw, tb}, 1, (uint32_t[]){tout});
  params->fully_connected.fused_activation = TFLACCEL_ACT_RELU;
  tg_run_ok(&graph, 1);
  const float expected[8] = {1.5f, 0, 3, 7, 0, 0, 1, 1};
  tg_assert_floats(tg_result(&graph, tout), expected, 8, 0);
  tg_free(&graph);

  /* keep_num_dims, no bias, input [1,2,3] -> [1,2,4]; and a larger case
   * against a reference with 2 threads. */
  tg_init(&graph);
  tin = tg_input(&graph, F32, 3, (int32_t[]){1, 2, 3}, in);
  tw = tg_const(&graph, F32, 2, (int32_t[]){4, 3}, weights);
  tout = tg_tensor(&graph, F32, 3, (int32_t[]){1, 2, 4});
  params = tg_op(&graph, TFLACCEL_OP_FULLY_CONNECTED, 3,
                 (uint32_t[]){tin, tw, TFLACCEL_NO_TENSOR}, 1, (uint32_t[]){tout});
  params->fully_connected.keep_num_dims = 1;
  tg_run_ok(&graph, 1);
  const float expected_keep[8] = {1, 2, 3, 6, -1, 0, 1, 0};
  tg_assert_floats(tg_result(&graph, tout), expected_keep, 8, 0);
  tg_free(&graph);

  enum { BATCH = 3, DEPTH = 37, UNITS = 29 };
  float big_in[BATCH * DEPTH], big_w[UNITS * DEPTH], big_b[UNITS], big_expected[BATCH * UNITS];
  tg_random_floats(big_in, BATCH * DEPTH, 41, -1, 1);
  tg_random_floats(big_w, UNITS * DEPTH, 42, -1, 1);
  tg_random_floats(big_b, UNITS, 43, -1, 1);
  for (int b = 0; b < BATCH; b++)
    for (int u = 0; u < UNITS; u++) {
      double sum = big_b[u];
      for (int d = 0; d < DEPTH; d++) sum += (double)big_in[b * DEPTH + d] * big_w[u * DEPTH + d];
      big_expected[b * UNITS + u] = activate((float)sum, TFLACCEL_ACT_RELU6);
    }
  tg_init(&graph);
  tin = tg_input(&graph, F32, 2, (int32_t[]){BATCH, DEPTH}, big_in);
  tw = tg_const(&graph, F32, 2, (int32_t[]){UNITS, DEPTH}, big_w);
  tb = tg_const(&graph, F32, 1, (int32_t[]){UNITS}, big_b);
  tout = tg_tensor(&graph, F32, 2, (int32_t[]){BATCH, UNITS});
  params = tg_op(&graph, TFLACCEL_OP_FULLY_CONNECTED, 3, (uint32_t[]){tin, tw, tb}, 1,
                 (uint32_t[]){tout});
  params->fully_connected.fused_activation = TFLACCEL_ACT_RELU6;
  tg_run_ok(&graph, 2);
  tg_assert_floats(tg_result(&graph, tout), big_expected, BATCH * UNITS, TOLERANCE);
  tg_free(&graph);
}
END_TEST

/* TFLite's scatter form: every input pixel adds its taps into the output. */
static void reference_transpose_conv(const float *in, int h, int w, int ic, const float *weights,
                                     int oc, int kh, int kw, const float *bias, int stride,
                                     int pad_h, int pad_w, int oh, int ow, float *out) {
  double *sums = calloc((size_t)oh * ow * oc, sizeof(double));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int ky = 0; ky < kh; ky++)
        for (int kx = 0; kx < kw; kx++) {
          int out_y = y * stride - pad_h + ky, out_x = x * stride - pad_w + kx;
          if (out_y < 0 || out_y >= oh || out_x < 0 || out_x >= ow) continue;
          for (int o = 0; o < oc; o++)
            for (int i = 0; i < ic; i++)
              sums[(out_y * ow + out_x) * oc + o] +=
                  (double)in[(y * w + x) * ic + i] * weights[((o * kh + ky) * kw + kx) * ic + i];
        }
  for (int p = 0; p < oh * ow; p++)
    for (int o = 0; o < oc; o++)
      out[p * oc + o] = (float)(sums[p * oc + o] + (bias != NULL ? bias[o] : 0.0));
  free(sums);
}

START_TEST(transpose_conv_builtin) {
  struct {
    int h, w, ic, oc, k, stride, oh, ow;
    int32_t padding;
    int with_bias;
  } cases[] = {
      {3, 3, 2, 3, 3, 2, 6, 6, TFLACCEL_PADDING_SAME, 1},
      {3, 4, 3, 2, 3, 2, 7, 9, TFLACCEL_PADDING_VALID, 0},
      {4, 4, 1, 1, 2, 2, 8, 8, TFLACCEL_PADDING_SAME, 1},
      {5, 5, 3, 4, 3, 1, 5, 5, TFLACCEL_PADDING_SAME, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int h = cases[i].h, w = cases[i].w, ic = cases[i].ic, oc = cases[i].oc, k = cases[i].k;
    int oh = cases[i].oh, ow = cases[i].ow, stride = cases[i].stride;
    /* TFLite pads as a forward conv from the output size would. */
    int fwd_h = out_size(cases[i].padding, oh, k, stride, 1);
    int fwd_w = out_size(cases[i].padding, ow, k, stride, 1);
    int pad_h = leading_pad(oh, fwd_h, k, stride, 1), pad_w = leading_pad(ow, fwd_w, k, stride, 1);
    float in[5 * 5 * 3], weights[4 * 3 * 3 * 3], bias[4], expected[9 * 9 * 4];
    tg_random_floats(in, sizeof in / sizeof in[0], 51 + (uint32_t)i, -1, 1);
    tg_random_floats(weights, sizeof weights / sizeof weights[0], 52, -1, 1);
    tg_random_floats(bias, 4, 53, -1, 1);
    reference_transpose_conv(in, h, w, ic, weights, oc, k, k, cases[i].with_bias ? bias : NULL,
                             stride, pad_h, pad_w, oh, ow, expected);
    int32_t shape[4] = {1, oh, ow, oc};
    test_graph graph;
    tg_init(&graph);
    uint32_t tshape = tg_const(&graph, TFLACCEL_DTYPE_INT32, 1, (int32_t[]){4}, shape);
    uint32_t tw = tg_const(&graph, F32, 4, (int32_t[]){oc, k, k, ic}, weights);
    uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, h, w, ic}, in);
    uint32_t tb = cases[i].with_bias ? tg_const(&graph, F32, 1, (int32_t[]){oc}, bias)
                                     : TFLACCEL_NO_TENSOR;
    uint32_t tout = tg_tensor(&graph, F32, 4, shape);
    tflaccel_op_params *params = tg_op(&graph, TFLACCEL_OP_TRANSPOSE_CONV, 4,
                                       (uint32_t[]){tshape, tw, tin, tb}, 1, (uint32_t[]){tout});
    params->transpose_conv.padding = cases[i].padding;
    params->transpose_conv.stride_h = params->transpose_conv.stride_w = stride;
    tg_run_ok(&graph, 2);
    tg_assert_floats(tg_result(&graph, tout), expected, oh * ow * oc, TOLERANCE);
    tg_free(&graph);
  }
}
END_TEST

START_TEST(transpose_conv_bias_custom) {
  /* MediaPipe's op: SAME pads max(0, k - (in - 1) % stride - 1) in total.
   * k=3, stride 2, in 4: total 1, leading 0, out = 2 * 3 + 3 - 1 = 8;
   * k=4, in 3: total 3, leading 1, out 5; k=2, in 4: total 0, out 8;
   * k=5, in 5: total 4, leading 2, out 9. VALID never pads. */
  struct {
    int in, k, out, pad;
    int32_t padding;
  } cases[] = {{4, 3, 8, 0, TFLACCEL_PADDING_SAME},
               {3, 4, 5, 1, TFLACCEL_PADDING_SAME},
               {4, 2, 8, 0, TFLACCEL_PADDING_SAME},
               {3, 3, 7, 0, TFLACCEL_PADDING_VALID},
               {5, 5, 9, 2, TFLACCEL_PADDING_SAME}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int n = cases[i].in, k = cases[i].k, out = cases[i].out, ic = 3, oc = 2;
    float in[5 * 5 * 3], weights[2 * 5 * 5 * 3], bias[2], expected[11 * 11 * 2];
    tg_random_floats(in, sizeof in / sizeof in[0], 61 + (uint32_t)i, -1, 1);
    tg_random_floats(weights, sizeof weights / sizeof weights[0], 62, -1, 1);
    tg_random_floats(bias, 2, 63, -1, 1);
    reference_transpose_conv(in, n, n, ic, weights, oc, k, k, bias, 2, cases[i].pad,
                             cases[i].pad, out, out, expected);
    test_graph graph;
    tg_init(&graph);
    uint32_t tin = tg_input(&graph, F32, 4, (int32_t[]){1, n, n, ic}, in);
    uint32_t tw = tg_const(&graph, F32, 4, (int32_t[]){oc, k, k, ic}, weights);
    uint32_t tb = tg_const(&graph, F32, 1, (int32_t[]){oc}, bias);
    uint32_t tout = tg_tensor(&graph, F32, 4, (int32_t[]){1, out, out, oc});
    tflaccel_op_params *params = tg_custom_op(&graph, "Convolution2DTransposeBias", 3,
                                              (uint32_t[]){tin, tw, tb}, 1, (uint32_t[]){tout});
    params->transpose_conv_bias.padding = cases[i].padding;
    params->transpose_conv_bias.stride_h = params->transpose_conv_bias.stride_w = 2;
    tg_run_ok(&graph, 1);
    tg_assert_floats(tg_result(&graph, tout), expected, out * out * oc, TOLERANCE);
    tg_free(&graph);
  }
}
END_TEST

/* LSTM, basic kernel: depth 2, input 3, batch 2, weights chosen so that
 * every gate sum is exact: activ_temp by hand, then
 * state = sig(g0) * tanh(g1) + sig(g2) * prev_state and
 * activ = sig(g3) * tanh(state), evaluated in double. */
START_TEST(lstm_basic_hand_computed) {
  const float in[6] = {1, 0, -1, 0.5f, 2, 0};
  const float prev_activ[4] = {0.5f, -0.5f, 0, 1};
  const float prev_state[4] = {1, -1, 0.5f, 0};
  const float weights[40] = {0.5f, 0, 0, 1, 0,     /* input gate, channel 0 */
                             0, 1, 0, 0, -1,       /* input gate, channel 1 */
                             1, 0, 1, 0, 0,        /* new input, channel 0 */
                             0, 0, 0, 0.5f, 0.5f,  /* new input, channel 1 */
                             0, 0, 2, 0, 0,        /* forget gate, channel 0 */
                             -1, 0, 0, 0, 1,       /* forget gate, channel 1 */
                             0, 0.5f, 0, 0, 0,     /* output gate, channel 0 */
                             0.25f, 0, 0, 0, 0};   /* output gate, channel 1 */
  const float bias[8] = {0, 0.5f, -0.5f, 1, 0, 0, 0.25f, -0.25f};
  test_graph graph;
  tg_init(&graph);
  uint32_t t_in = tg_input(&graph, F32, 2, (int32_t[]){2, 3}, in);
  uint32_t t_activ_in = tg_input(&graph, F32, 2, (int32_t[]){2, 2}, prev_activ);
  uint32_t t_weights = tg_const(&graph, F32, 2, (int32_t[]){8, 5}, weights);
  uint32_t t_bias = tg_const(&graph, F32, 1, (int32_t[]){8}, bias);
  uint32_t t_state_in = tg_input(&graph, F32, 2, (int32_t[]){2, 2}, prev_state);
  uint32_t t_activ = tg_tensor(&graph, F32, 2, (int32_t[]){2, 2});
  uint32_t t_state = tg_tensor(&graph, F32, 2, (int32_t[]){2, 2});
  uint32_t t_concat = tg_tensor(&graph, F32, 2, (int32_t[]){2, 5});
  uint32_t t_gates = tg_tensor(&graph, F32, 2, (int32_t[]){2, 8});
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_LSTM, 5,
            (uint32_t[]){t_in, t_activ_in, t_weights, t_bias, t_state_in}, 4,
            (uint32_t[]){t_activ, t_state, t_concat, t_gates});
  params->lstm.kernel_type = 1;
  params->lstm.fused_activation = TFLACCEL_ACT_TANH;
  tg_run_ok(&graph, 1);
  const float concat[10] = {1, 0, -1, 0.5f, -0.5f, 0.5f, 2, 0, 0, 1};
  const float gates[16] = {1, 1, -0.5f, 1, -2, -1.5f, 0.25f, 0,
                           0.25f, 1.5f, 0, 1.5f, 0, 0.5f, 1.25f, -0.125f};
  const float state[4] = {-0.21863179f, 0.37434442f, 0.25f, 0.74002611f};
  const float activ[4] = {-0.12098803f, 0.17889294f, 0.19037524f, 0.29494475f};
  tg_assert_floats(tg_result(&graph, t_concat), concat, 10, 0);
  tg_assert_floats(tg_result(&graph, t_gates), gates, 16, 0);
  tg_assert_floats(tg_result(&graph, t_state), state, 4, TOLERANCE);
  tg_assert_floats(tg_result(&graph, t_activ), activ, 4, TOLERANCE);

  /* TFLite's basic kernel requires TANH and no clipping: anything else is
   * declined. */
  char reason[TFLACCEL_REASON_SIZE];
  params->lstm.cell_clip = 1.0f;
  ck_assert(!tg_supported(&graph, 0, reason));
  params->lstm.cell_clip = 0.0f;
  params->lstm.fused_activation = TFLACCEL_ACT_RELU;
  ck_assert(!tg_supported(&graph, 0, reason));
  params->lstm.fused_activation = TFLACCEL_ACT_TANH;
  ck_assert_msg(tg_supported(&graph, 0, reason), "%s", reason);
  tg_free(&graph);
}
END_TEST

static Suite *nn_suite(void) {
  Suite *suite = suite_create("cpu_ref nn kernels");
  TCase *tc = tcase_create("nn");
  tcase_add_test(tc, conv_same_stride2_hand_computed);
  tcase_add_test(tc, conv_against_reference);
  tcase_add_test(tc, conv_rejects_bad_output_shape);
  tcase_add_test(tc, depthwise_against_reference);
  tcase_add_test(tc, average_pool_counts_valid_elements);
  tcase_add_test(tc, pools_against_reference);
  tcase_add_test(tc, fully_connected_cases);
  tcase_add_test(tc, transpose_conv_builtin);
  tcase_add_test(tc, transpose_conv_bias_custom);
  tcase_add_test(tc, lstm_basic_hand_computed);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(nn_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
