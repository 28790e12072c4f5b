/* Emitting the float view's rounding (gpu_quant.h): the GPU_POST_QUANTIZE
 * post-op that puts a computed value onto its quantized tensor's grid,
 * fused into the dispatch that computes the tensor where it has room, else
 * a dispatch of its own that rounds the tensor in place. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EMIT_QUANT_H
#define TFLACCEL_GPU_COMMON_GPU_EMIT_QUANT_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_lowering_state.h"

/* Whether tensor is a quantized graph tensor whose computed value is not
 * yet on its grid. */
int lower_needs_grid(const gpu_lowering *lw, uint32_t tensor);

/* Appends the rounding of tensor's grid to dispatch's post-ops and marks
 * the tensor on its grid (*added 1); *added 0 (nothing done) when the
 * dispatch has no room. When a CONV_2D, DEPTHWISE_CONV_2D or
 * FULLY_CONNECTED computes tensor, the rounding follows TFLite's
 * fixed-point requantization, which rounds twice (at 2^-right shift LSB,
 * then to the LSB): its per-channel steps are a constant bound as
 * *argument, the next free argument (then incremented; NULL when none is
 * free, and then it rounds once). */
tflaccel_status lower_add_grid_post(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor,
                                    uint32_t *argument, int *added);

/* A dispatch that rounds the stored tensor onto its grid in place. */
tflaccel_status lower_round_in_place(gpu_lowering *lw, uint32_t tensor);

/* After the op at position is lowered: its quantized outputs that its
 * dispatches did not round (kernels without room, or that only move
 * values to another grid) are rounded now. Ops that only move values
 * within one grid (reshapes, slices, max pooling, ...) need nothing. */
tflaccel_status lower_round_op_outputs(gpu_lowering *lw, uint32_t position);

/* The dense kind of partition tensor t and, for an 8- or 16-bit one, its
 * grid: k[0..5) as the layout conversions take them (gpu_dense_kind, scale
 * float bits, zero point, qmin, qmax). A quantized tensor is the float
 * view's edge (its integers are bound as the core holds them, and
 * converted on the GPU in the dispatch list); one that is not quantized
 * (a CAST input) is read on the grid of scale 1, zero point 0. */
void lower_dense_kind_params(const gpu_lowering *lw, uint32_t t, int32_t k[5]);

#endif
