/* The cases of the quantized elementwise binary ops that
 * tests/cpu_ref_quant/test_binary_exact.c checks over all 256 x 256 input
 * pairs, shared with bench/quant_binary_models.c, which writes each as a
 * .tflite so that TensorFlow Lite itself can be run on them
 * (bench/quant-vs-litert.sh). */
#ifndef TFLACCEL_TESTS_CPU_REF_QUANT_BINARY_CASES_H
#define TFLACCEL_TESTS_CPU_REF_QUANT_BINARY_CASES_H

#include <stdint.h>

#include "tflaccel/ops.h"
#include "tflaccel/types.h"

enum { ACT_NONE = TFLACCEL_ACT_NONE, ACT_RELU = TFLACCEL_ACT_RELU,
       ACT_RELU_N1_TO_1 = TFLACCEL_ACT_RELU_N1_TO_1, ACT_RELU6 = TFLACCEL_ACT_RELU6 };

typedef struct binary_case {
  const char *name;
  int32_t op, dtype;
  float s1, s2, s_out;
  int32_t zp1, zp2, zp_out;
  int32_t activation;
} binary_case;

#define U8 TFLACCEL_DTYPE_UINT8
#define I8 TFLACCEL_DTYPE_INT8

static const binary_case exhaustive_cases[] = {
    /* name, op, dtype, s1, s2, s_out, zp1, zp2, zp_out, activation */
    {"add u8 equal scales", TFLACCEL_OP_ADD, U8, 0.02f, 0.02f, 0.04f, 128, 128, 128, ACT_NONE},
    {"add u8 ties (scales 1/2, out 1)", TFLACCEL_OP_ADD, U8, 0.5f, 0.5f, 1.0f, 0, 1, 0, ACT_NONE},
    {"add u8 scales 500x apart, relu", TFLACCEL_OP_ADD, U8, 0.001f, 0.5f, 0.3f, 0, 255, 17,
     ACT_RELU},
    {"add u8 scales 384x apart, relu6", TFLACCEL_OP_ADD, U8, 1.5f, 0.00390625f, 0.05f, 255, 0, 0,
     ACT_RELU6},
    {"add u8 mobilenet-like residual", TFLACCEL_OP_ADD, U8, 0.3385f, 0.2547f, 0.4166f, 133, 125,
     129, ACT_NONE},
    {"sub u8 relu_n1_to_1", TFLACCEL_OP_SUB, U8, 0.0078125f, 0.1f, 0.0078125f, 127, 3, 128,
     ACT_RELU_N1_TO_1},
    {"sub u8 scales 1000x apart", TFLACCEL_OP_SUB, U8, 0.7f, 0.0007f, 0.9f, 0, 255, 0, ACT_NONE},
    {"mul u8 saturating", TFLACCEL_OP_MUL, U8, 0.05f, 0.02f, 0.1f, 128, 0, 255, ACT_NONE},
    {"mul u8 multiplier above one, relu", TFLACCEL_OP_MUL, U8, 0.5f, 0.25f, 0.004f, 0, 255, 10,
     ACT_RELU},
    {"maximum u8", TFLACCEL_OP_MAXIMUM, U8, 0.1f, 0.1f, 0.1f, 3, 3, 3, ACT_NONE},
    {"minimum u8", TFLACCEL_OP_MINIMUM, U8, 0.1f, 0.1f, 0.1f, 250, 250, 250, ACT_NONE},
    {"add i8 scales 300x apart, relu6", TFLACCEL_OP_ADD, I8, 0.01f, 3.0f, 0.05f, -128, 127, -128,
     ACT_RELU6},
    {"add i8 ties", TFLACCEL_OP_ADD, I8, 0.25f, 0.25f, 0.5f, 0, -1, 0, ACT_NONE},
    {"sub i8 power-of-two scales", TFLACCEL_OP_SUB, I8, 0.25f, 0.125f, 0.125f, 5, -5, 0,
     ACT_NONE},
    {"sub i8 relu", TFLACCEL_OP_SUB, I8, 0.04f, 0.09f, 0.07f, -128, 127, -100, ACT_RELU},
    {"mul i8 relu_n1_to_1", TFLACCEL_OP_MUL, I8, 0.1f, 0.1f, 0.0001f, -128, 127, 0,
     ACT_RELU_N1_TO_1},
    {"mul i8 small multiplier", TFLACCEL_OP_MUL, I8, 0.003f, 0.002f, 0.05f, 7, -9, -3, ACT_NONE},
    {"squared_difference i8 scales 10x apart", TFLACCEL_OP_SQUARED_DIFFERENCE, I8, 0.05f, 0.5f,
     0.2f, -3, 100, -128, ACT_NONE},
    {"squared_difference i8 ties", TFLACCEL_OP_SQUARED_DIFFERENCE, I8, 0.0625f, 0.0625f,
     0.015625f, 0, 0, -128, ACT_NONE},
    {"maximum i8", TFLACCEL_OP_MAXIMUM, I8, 0.1f, 0.1f, 0.1f, -128, -128, -128, ACT_NONE},
    {"minimum i8", TFLACCEL_OP_MINIMUM, I8, 0.1f, 0.1f, 0.1f, 127, 127, 127, ACT_NONE},
};

#define BINARY_CASE_COUNT (sizeof exhaustive_cases / sizeof exhaustive_cases[0])

#endif
