/* What an op builder's support check (ops/) may call: the op being asked
 * about, the one-line decline, and the rules several op families share. */
#ifndef TFLACCEL_GPU_COMMON_GPU_SUPPORT_CHECK_H
#define TFLACCEL_GPU_COMMON_GPU_SUPPORT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "core/facts/dtype.h"
#include "tflaccel/accelerator.h"

/* One question "does the GPU layer run this op?" and where its answer goes. */
typedef struct gpu_support_check {
  const tflaccel_graph_view *graph;
  const tflaccel_op_desc *op;
  const char *name; /* the op's name for messages */
  const char *plugin;
  char *reason;
  size_t reason_size;
  int32_t precision; /* tflaccel_precision the partition compiles at */
  /* Set to 1 by a decline made only because int32 values pass the
   * precision's exact integers (gpu_int_bounds.h); NULL: nobody asks. */
  int32_t *inexact_integers;
} gpu_support_check;

/* Writes "<plugin>: <message>" into check->reason and returns 0. */
int gpu_decline(const gpu_support_check *check, const char *format, ...)
    __attribute__((format(printf, 2, 3)));


/* Whether tensor is a constant with data (weights, indices). */
int gpu_tensor_is_constant(const tflaccel_tensor_desc *tensor);
/* A constant of int32 or int64 values (shapes, paddings, axes, sizes). */
int gpu_tensor_is_index_constant(const tflaccel_tensor_desc *tensor);
/* The product of its dims. */
int64_t gpu_tensor_element_count(const tflaccel_tensor_desc *tensor);

/* A fused activation a clamp post-op expresses. */
int gpu_check_activation(const gpu_support_check *check, int32_t activation);
/* a and b have the same shape ("<name>: <what> shapes differ" if not). */
int gpu_check_same_shape(const gpu_support_check *check, const tflaccel_tensor_desc *a,
                         const tflaccel_tensor_desc *b, const char *what);
/* A constant float32 tensor, or a quantized one the float view dequantizes
 * (gpu_quant.h), of expected_count elements (any count when negative)
 * whose data covers its shape. */
int gpu_check_constant_float(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                             const char *role, int64_t expected_count);

/* The float view's rules for an op with quantized tensors: not an op with
 * integer-only semantics it does not reproduce (the LSTMs), and no change
 * of grid where the output shares its input's storage (the reshapes). */
int gpu_check_float_view(const gpu_support_check *check);

#endif
