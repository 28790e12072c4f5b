/* The per-op conformance cases: each builds a small graph that every
 * plugin runs and cpu_ref checks. */
#ifndef TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_CASES_H
#define TFLACCEL_TESTS_CONFORMANCE_CONFORMANCE_CASES_H

#include <stdint.h>

#include "tests/conformance/conformance_graph.h"

/* Builder flags. */
enum {
  CF_NO_BIAS = 1 << 0,
  CF_KEEP_DIMS = 1 << 1,
  CF_FLATTEN = 1 << 2,  /* FULLY_CONNECTED over all of a 4-D input */
  CF_SWAP = 1 << 3,     /* binary: operands swapped; concat: negative axis */
  CF_CONSTANT = 1 << 4, /* binary: the second operand is a constant */
  CF_ALIGN = 1 << 5,    /* resize: align_corners */
  CF_HALF_PIXEL = 1 << 6,
  CF_PADV2 = 1 << 7,
  CF_INT64 = 1 << 8, /* ARG_MAX, ARG_MIN: int64 output (else int32) */
  CF_EXACT_FP32 = 1 << 9, /* quantized outputs: in fp32, equal to cpu_ref's (0 LSB) on the GPU plugins */
  CF_CHAIN = 1 << 10, /* MediaPipe transforms: the computed matrix feeds the two other ops */
  CF_BATCH_MAJOR = 1 << 11, /* UNIDIRECTIONAL_SEQUENCE_LSTM: input [B, T, I] (else [T, B, I]) */
  CF_GPU_RUNS = 1 << 12, /* the GPU plugins must run it, not decline it */
  CF_GPU_FP16_NEEDS_FP32 = 1 << 13, /* ... in fp16 with its int32 ops (from ARG_MAX on) at fp32:
                                       their values pass fp16's exact integers */
};

typedef struct cf_case cf_case;
struct cf_case {
  const char *name;
  void (*build)(cf_graph *graph, const cf_case *spec);
  int32_t op;
  uint32_t rank;
  int32_t shape[4]; /* the main input */
  uint32_t rank2;
  int32_t shape2[4]; /* a second input: operand, alpha */
  int32_t out_c, kh, kw, stride, dilation, padding, activation, multiplier, axis, block;
  int32_t flags;
  float value; /* softmax beta, pad value, leaky alpha */
  uint32_t int_count;
  int32_t ints[12]; /* paddings, axes, sizes, begin/end/strides */
  int32_t masks[3]; /* strided slice: begin, end, shrink-axis masks */
};

extern const cf_case cf_cases[];
extern const uint32_t cf_case_count;

/* The quantized cases (conformance_quant_cases.c): the float view of the
 * GPU plugins against cpu_ref's integer kernels. */
extern const cf_case cf_quant_cases[];
extern const uint32_t cf_quant_case_count;

/* The int32 cases (conformance_int_cases.c): int32 values held as exact
 * float values on the GPU plugins, and GATHER_ND. */
extern const cf_case cf_int_cases[];
extern const uint32_t cf_int_case_count;

/* Element k of an int8, uint8 or int16 buffer. */
int cf_integer_at(int32_t dtype, const void *values, int64_t k);

#endif
