/* What an op builder (ops/) may call to emit dispatches: binding tensors
 * and constants, temporaries, post-ops, work sizes, and finishing a
 * dispatch with the elementwise consumers it absorbs. These helpers never
 * call an op builder, so that op files -> emit helpers <- driver stays a
 * DAG. */
#ifndef TFLACCEL_GPU_COMMON_GPU_EMIT_H
#define TFLACCEL_GPU_COMMON_GPU_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/gpu_common/gpu_lowering_state.h"

/* An OUT_OF_MEMORY status naming the plugin and what could not grow. */
tflaccel_status lower_out_of_memory(const gpu_lowering *lw, const char *what);

/* The tensor whose storage tensor shares (following RESHAPE aliases). */
uint32_t lower_storage_root(const gpu_lowering *lw, uint32_t tensor);

/* A new dispatch of kernel (its index in *dispatch). */
tflaccel_status lower_add_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t *dispatch);

/* A dispatch of kernel reading `input` as t1, with `count` kernel
 * parameters from values; the caller finishes it. */
tflaccel_status lower_start_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t input,
                                     const int32_t *values, size_t count, uint32_t *dispatch);

/* Whether argument `argument` of dispatch d can read an 8-bit tensor as
 * words (GPU_IN_WORDS): t1 of GPU_KERNEL_CONV2D, and nothing else. */
static inline int lower_reads_words_as(const gpu_dispatch *d, uint32_t argument) {
  return d->kernel == GPU_KERNEL_CONV2D && argument == 1;
}

/* GPU_KERNEL_CONV2D dispatch `dispatch` reads its t1, 8-bit tensor
 * `tensor`, as words of four integers (GPU_IN_WORDS, offsets in words):
 * sets the flag and the grid the kernel dequantizes with ([12..16)). */
void lower_read_words(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor);

/* Argument `argument` (1..6) of dispatch reads tensor (materialising a
 * constant in slice layout on first use). */
tflaccel_status lower_bind_input(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                 uint32_t tensor);
/* Argument `argument` reads constant bytes at byte offset. */
void lower_bind_constants(gpu_lowering *lw, uint32_t dispatch, uint32_t argument, uint64_t offset);

/* A temporary tensor of that shape (stored in the arena when written). */
tflaccel_status lower_temporary(gpu_lowering *lw, gpu_shape shape, uint32_t *tensor);

/* Slice strides (b, y, x, s) and the splat flag for reading operand at the
 * coordinates of out (broadcasting along the dims where it has 1). */
void lower_operand_strides(gpu_shape operand, gpu_shape out, int32_t strides[5]);

/* Appends a post-op; returns 0 when the dispatch has no room left. */
int lower_add_post(gpu_lowering *lw, uint32_t dispatch, const int32_t post[12]);
/* A clamp post-op for a fused activation (nothing for NONE). */
void lower_add_activation(gpu_lowering *lw, uint32_t dispatch, int32_t activation);

/* Ends a dispatch that computes tensor `output`:
 * absorbs the elementwise ops that follow it (as post-ops, using arguments
 * from first_free_argument on), binds the final tensor as t0 and sets the
 * default work size (W, B * H, S). */
tflaccel_status lower_finish(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                             uint32_t output);
/* Sets a finished dispatch's work size to one work group of `items` per
 * output pixel and slice (the reduce kernels: a long axis or window split
 * over a group, item 0 combining the partials). */
void lower_group_per_output(gpu_lowering *lw, uint32_t dispatch, uint32_t items, uint32_t pixels,
                            uint32_t slices);
/* lower_finish, giving the tensor bound as t0 (output or the last op it
 * absorbed). */
tflaccel_status lower_finish_to(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                                uint32_t output, uint32_t *written);

/* Binds tensor as t0 of dispatch (when it is not yet stored, in the arena)
 * and writes the output header. */
tflaccel_status lower_bind_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor);

/* Binds tensor as t6, the second output of the kernels that have one
 * (gpu_kernel_writes_glsl_binding). */
tflaccel_status lower_bind_second_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor);

/* Sets global (and a preferred local) work size. */
void lower_set_work(gpu_lowering *lw, uint32_t dispatch, uint32_t x, uint32_t y, uint32_t z);

/* A box gather into output, finished with lower_finish: output element L
 * is input's element at box coordinate L (start, stride and size per dim
 * of the input's 4-D view). */
tflaccel_status lower_box_gather(gpu_lowering *lw, uint32_t input, uint32_t output,
                                 const int32_t start[4], const int32_t stride[4],
                                 const int32_t size[4]);

/* The padding a fused PAD adds before/after H and W of the op at position
 * (zeros when none is fused), and the tensor the op really reads. */
typedef struct lower_fused_pad {
  int32_t top, bottom, left, right;
  uint32_t source;
} lower_fused_pad;
void lower_fused_pad_of(const gpu_lowering *lw, uint32_t position, lower_fused_pad *pad);

#endif
