/* The kernels every GPU backend provides, and how their parameters lie.
 *
 * A dispatch runs one kernel with seven tensor arguments t0..t6 (t0 is the
 * output) and a block of GPU_PARAMS_PER_DISPATCH int32 parameters, read by
 * the kernel from a parameter buffer. The layout below is a contract with
 * the kernel sources (kernels/cl/common.cl and, later, the GLSL twins):
 * change both together.
 *
 *   [0..7)    element offset of t0..t6 in its buffer (bytes for the dense
 *             side of the layout conversions)
 *   [7]       number of post-ops
 *   [8..13)   output B, H, W, C, S (gpu_layout.h)
 *   [13]      0 when t0 holds slices; else 1 + the gpu_dense_kind of a
 *             dense NHWC partition output t0 (C channels per pixel, no
 *             slices), written lane by lane; only with
 *             GPU_FEATURE_DENSE_OUTPUT: float32 (offsets in floats), or
 *             the integers of a quantized output (uint8, int8, int16;
 *             offsets in bytes), quantized in the epilogue as
 *             GPU_KERNEL_FROM_SLICES quantizes them; with
 *             GPU_OUT_DENSE_GRID (an 8-bit output) the store itself
 *             rounds onto the grid of the GPU_POST_QUANTIZE post-op that
 *             lies just past the [7] applied ones, and stores its integers.
 *             Flag GPU_IN_WORDS: t1 is an 8-bit tensor read as words
 *             (GPU_KERNEL_CONV2D only, GPU_FEATURE_INPUT_WORDS): a
 *             partition input as the core holds it, or an arena tensor
 *             between two GPU_KERNEL_CONV2D dispatches that its writer
 *             stored dense (the writer's t0 offset in bytes, the
 *             reader's t1 offset in words)
 *   [14], [15] with a quantized dense t0: its scale float bits and zero
 *             point (its range is its integer type's)
 *   [16..64)  up to GPU_MAX_POSTS post-ops of GPU_POST_SIZE ints
 *   [64..128) the kernel's own parameters (listed with each kernel id)
 *
 * Post-ops are what fusion produces: every kernel applies them, in order,
 * to each slice it computes before storing it (bias and the op's own fused
 * activation come first, then absorbed elementwise ops). A post-op layout:
 *   [0] type (gpu_post_type), [1] code (gpu_unary_code or gpu_binary_code),
 *   [2] argument slot of its tensor (1..6), [3..7) slice strides of the
 *   tensor for output b, y, x, s (0 along broadcast dims), [7] 1 when the
 *   tensor has one channel broadcast to all, [8], [9] float bits (clamp
 *   bounds, leaky alpha), [10] 1 when the tensor is the left operand.
 * A GPU_POST_QUANTIZE post-op (the float view of a quantized tensor,
 * gpu_quant.h) rounds the value to its tensor's integer grid: [8] scale
 * float bits, [9] zero point, [10] qmin, [11] qmax; [1] 0 rounds x / scale
 * half away from zero (TFLite's requantization), 1 rounds x / scale +
 * zero point half away from zero, ties within GPU_GRID_TIE_SLACK (the
 * integer kernels that average integers: pooling, bilinear resize); 2 and
 * 3 round as TFLite's fixed-point multiplier does, twice: t = round(x *
 * (f / scale)) with f = 2^right shift read per channel from the operand
 * of [2]..[7] (or, with [2] 0, one f for all channels: [3] float bits),
 * then t * (1 / f) rounded with ties upward (2: int8 CONV_2D and
 * FULLY_CONNECTED, which TFLite runs in ruy) or away from zero (3). */
#ifndef TFLACCEL_GPU_COMMON_GPU_KERNEL_CATALOG_H
#define TFLACCEL_GPU_COMMON_GPU_KERNEL_CATALOG_H

#include <stdint.h>

#define GPU_MAX_ARGS 7
#define GPU_PARAMS_PER_DISPATCH 128
#define GPU_P_OFFSETS 0
#define GPU_P_POST_COUNT 7
#define GPU_P_OUT 8
#define GPU_P_OUT_DENSE 13
#define GPU_P_OUT_SCALE 14
#define GPU_P_OUT_ZERO 15
#define GPU_OUT_DENSE_KIND_MASK 7 /* [13]: 1 + gpu_dense_kind */
#define GPU_IN_WORDS 8            /* [13]: t1's slices are words of 8-bit integers */
#define GPU_OUT_DENSE_GRID 16      /* [13]: the store rounds onto the next post-op's grid */
#define GPU_P_POSTS 16
#define GPU_POST_SIZE 12
#define GPU_MAX_POSTS 4
#define GPU_P_KERNEL 64
#define GPU_P_KERNEL_SIZE 64

typedef enum gpu_post_type {
  GPU_POST_CLAMP = 1,
  GPU_POST_UNARY = 2,
  GPU_POST_BINARY = 3,
  GPU_POST_PRELU = 4,
  GPU_POST_QUANTIZE = 5, /* x -> (clamp(round(x / scale) + zp, qmin, qmax) - zp) * scale */
} gpu_post_type;

/* A dispatch's post-op list as the kernel may know it when it is built (a
 * Vulkan specialization constant; gpu_post_list in gpu_program.h): with
 * the count, the types and the output's store known, the compiler drops
 * the post-op loop and its branches (a loop read from the parameters costs
 * about 1 us a dispatch on NVIDIA's GLSL compiler, bench/RESULTS.md wave 9).
 * 0: nothing known, the kernel reads the parameters. Otherwise
 *   bits 0..2    [7] + 1 (the number of post-ops, plus one)
 *   bits 3..7    [13] (the dense output's kind, GPU_IN_WORDS and
 *                GPU_OUT_DENSE_GRID)
 *   bits 8 + 6i  post-op i (0..3, up to the one GPU_OUT_DENSE_GRID names):
 *                its type (3 bits), then for GPU_POST_QUANTIZE its
 *                rounding [1] (2 bits) and 1 when its f is an operand. */
#define GPU_POST_LIST_COUNT_SHIFT 0
#define GPU_POST_LIST_DENSE_SHIFT 3
#define GPU_POST_LIST_POSTS_SHIFT 8
#define GPU_POST_LIST_POST_BITS 6

/* The grid values of one post-op (gpu_post_list_pushed_grid: the last
 * GPU_POST_QUANTIZE the list describes) that a backend passes beside the
 * parameter offset (gpu_vk: push constants, gpu_gl: uniforms), in this
 * order: its [8] scale bits, [9] zero point, [10] qmin, [11] qmax, then,
 * for the fixed-point roundings with one f for all channels, f / scale
 * and 1 / f (float bits, computed once on the host). Read from there, they
 * are no load from the parameter buffer after the dot product and no
 * division: on NVIDIA both showed in every small quantized dispatch
 * (bench/RESULTS.md wave 11). */
enum {
  GPU_GRID_VALUE_SCALE = 0,
  GPU_GRID_VALUE_ZERO = 1,
  GPU_GRID_VALUE_QMIN = 2,
  GPU_GRID_VALUE_QMAX = 3,
  GPU_GRID_VALUE_RATE = 4,         /* f / scale */
  GPU_GRID_VALUE_INVERSE_STEP = 5, /* 1 / f */
  GPU_GRID_VALUE_COUNT = 6,
};

/* How near (in LSB) to a half an averaged value rounds as a tie: the float
 * view's error in x / scale, far below it, must not decide a tie that the
 * integer kernel computes exactly. Kept in kernels/cl/common.cl and
 * kernels/glsl/common.glsl as 1/1024. */
#define GPU_GRID_TIE_SLACK (1.0f / 1024.0f)

/* What the dense side of the layout conversions (TO_SLICES, FROM_SLICES)
 * holds, their parameter [0]: what a tensor's values are outside the GPU
 * layer; inside, every tensor holds float values (bool as 0/1, integer
 * indices as exact integers). The 8- and 16-bit kinds are (de)quantized
 * with [1] scale float bits, [2] zero point, [3] qmin, [4] qmax (scale 1,
 * zero point 0 when the tensor is not quantized, e.g. a CAST input). */
typedef enum gpu_dense_kind {
  GPU_DENSE_FLOAT32 = 0,
  GPU_DENSE_BOOL = 1,  /* bytes */
  GPU_DENSE_UINT8 = 2,
  GPU_DENSE_INT8 = 3,
  GPU_DENSE_INT16 = 4,
  GPU_DENSE_INT32 = 5, /* ARG_MAX outputs, CAST inputs */
  GPU_DENSE_INT64 = 6, /* FROM_SLICES only (ARG_MAX outputs) */
} gpu_dense_kind;

typedef enum gpu_unary_code {
  GPU_UNARY_RELU = 1,
  GPU_UNARY_RELU6 = 2,
  GPU_UNARY_RELU_N1_TO_1 = 3,
  GPU_UNARY_LOGISTIC = 4,
  GPU_UNARY_HARD_SWISH = 5,
  GPU_UNARY_TANH = 6,
  GPU_UNARY_EXP = 7,
  GPU_UNARY_LEAKY_RELU = 8,
  GPU_UNARY_SQRT = 9,
} gpu_unary_code;

typedef enum gpu_binary_code {
  GPU_BINARY_ADD = 1,
  GPU_BINARY_SUB = 2,
  GPU_BINARY_MUL = 3,
  GPU_BINARY_DIV = 4,
  GPU_BINARY_MAXIMUM = 5,
  GPU_BINARY_MINIMUM = 6,
  GPU_BINARY_LOGICAL_AND = 7,
  GPU_BINARY_FLOOR_DIV = 8,
} gpu_binary_code;

/* Kernel ids; gpu_kernel_name() gives the entry point's name. The comment
 * lists the tensor arguments and the kernel parameters ([64 + i]). */
typedef enum gpu_kernel_id {
  /* t0 slices <- t1 dense; [0] its gpu_dense_kind (integers dequantized). */
  GPU_KERNEL_TO_SLICES = 0,
  /* t0 dense <- t1 slices; output shape is t1's; [0] its gpu_dense_kind
   * (integers quantized: rounded half away from zero, clamped). */
  GPU_KERNEL_FROM_SLICES,
  /* t0 <- t1 read with the operand strides [0..5) (b, y, x, s, splat). */
  GPU_KERNEL_ELEMENTWISE,
  /* t0 <- conv(t1, weights t2, bias t3); [0..3) input H, W, S, [3] KH,
   * [4] KW, [5] stride H, [6] stride W, [7] dilation H, [8] dilation W,
   * [9] pad top, [10] pad left, [11] output slices per work item. With
   * GPU_IN_WORDS ([13]; GPU_FEATURE_INPUT_WORDS) t1 is a uint8 or int8
   * tensor's integers, dense (a partition input as the core holds it, or
   * one another conv2d dispatch stored so), each input slice one word (C
   * a multiple of 4, or a single pixel; offset in words), dequantized as
   * GPU_KERNEL_TO_SLICES would: [12] scale float bits, [13] zero point,
   * plus 128 for int8, [14] 0x80808080 for int8 (each byte's sign bit
   * flipped makes it q + 128, an unsigned byte), 0 for uint8, [15] the
   * channels of the last slice that are the tensor's (1..4; the others
   * read as 0). The float twin's input is bound in place; this keeps the
   * quantized one from paying a conversion dispatch more
   * (bench/RESULTS.md, wave 12), and lets a chain of 8-bit layers run
   * one program (wave 13). */
  GPU_KERNEL_CONV2D,
  /* 1x1 only, same parameters: one work group of up to 64 items per output
   * slice, splitting the input slices (global: items, pixels, slices). */
  GPU_KERNEL_CONV2D_SPLIT,
  /* Same parameters but [11] the input channels, weights as [KH][KW][input
   * channel][output channel] scalars, bias scalars: one item per output
   * channel, groups of up to 256 items (a multiple of 64) per pixel
   * (global: channels rounded up to the group, pixels, 1), cpu_ref's
   * summation order; KH * KW * inputs <= 4096. */
  GPU_KERNEL_CONV_ORDERED,
  /* Same parameters as GPU_KERNEL_CONV2D; [11] depth multiplier. */
  GPU_KERNEL_DEPTHWISE_CONV2D,
  /* Transposed: [0..3) input H, W, S, [3] KH, [4] KW, [5] stride H,
   * [6] stride W, [7] pad top, [8] pad left. */
  GPU_KERNEL_TRANSPOSE_CONV2D,
  /* [0..3) input H, W, S, [3] KH, [4] KW, [5] stride H, [6] stride W,
   * [7] pad top, [8] pad left, [9] 1 = max else average, [10] first and
   * [11] end of the counted rows, [12], [13] of the counted columns (rows
   * and columns outside the input but inside these read as 0: a fused PAD). */
  GPU_KERNEL_POOL2D,
  /* Same parameters, for large windows over few outputs: a group of up to
   * 256 items per output slice splits the window (global: items, pixels,
   * slices). */
  GPU_KERNEL_POOL2D_REDUCE,
  /* Mean over dims: [0..4) input B, H, W, C, [4] input S, [5..9) 1 for a
   * reduced dim, [9] 1 when the channels are kept (slice path). */
  GPU_KERNEL_MEAN,
  /* [0..3) input H, W, S, [3], [4] float scale H, W, [5] 1 bilinear else
   * nearest, [6] align_corners, [7] half_pixel_centers. */
  GPU_KERNEL_RESIZE,
  /* [0..4) input B, H, W, C, [4] input S, [5..9) padding before each dim,
   * [9] float pad value. */
  GPU_KERNEL_PAD,
  /* Concatenation of t1..t(n): [0] axis (0..3), [1] n, then for input i at
   * [2 + 6i]: start along the axis, size along it, H, W, C, S. */
  GPU_KERNEL_CONCAT,
  /* Output element number L (dense order) <- the input element at box
   * coordinate L: [0..4) input B, H, W, C, [4] input S, [5..9) box start,
   * [9..13) box stride, [13..17) box size (all in the input's 4-D view),
   * [17] 1 when whole slices map through (channels untouched), [18] 1 when
   * the box is read in another dim order: output dim k walks input dim
   * [19 + k] (TRANSPOSE; [17] is then 0). */
  GPU_KERNEL_BOX_GATHER,
  /* [0..4) input B, H, W, C, [4] input S, [5] block size. */
  GPU_KERNEL_DEPTH_TO_SPACE,
  /* Softmax over channels: [0] float beta. */
  GPU_KERNEL_SOFTMAX,
  /* Index of the first largest (smallest when [7] is 1) value along an
   * axis, as a float value: [0..4) input B, H, W, C, [4] input S, [5] the
   * axis' size, [6] the product of the dims after it (4-D view). */
  GPU_KERNEL_ARG_MAX,
  /* The first catalogue, which every backend provides, ends here. */
  GPU_KERNEL_COUNT,
  /* Kernels added later, offered only by the backends whose `features` say
   * so (gpu_backend.h). A depthwise convolution whose only consumer is a 1x1
   * convolution, in one dispatch: t1 input, t2 depthwise weights and t3 its
   * bias (GPU_KERNEL_DEPTHWISE_CONV2D's layout), t4 1x1 weights followed
   * by their bias, [18] values after the weights' start (t5 and t6 are
   * left to post-ops: a residual ADD and a PRELU's alpha).
   * [0..12) the depthwise parameters (GPU_KERNEL_DEPTHWISE_CONV2D's),
   * [12] depthwise output channels (the 1x1 inputs), [13] their slices,
   * [14] 1 when the depthwise values are clamped to the float bounds [15],
   * [16] (its fused activation). Each depthwise value is computed as the depthwise kernel
   * computes it and stays in the arithmetic type; the 1x1 sum runs in
   * cpu_ref's order. GPU_FEATURE_DEPTHWISE_POINTWISE. */
  /* ... with the 1x1 weights and global size of GPU_KERNEL_CONV_ORDERED
   * (the depthwise values of a pixel go to local memory first; at most
   * 4096 of them). */
  GPU_KERNEL_DEPTHWISE_CONV_ORDERED = GPU_KERNEL_COUNT,
  /* ... with the 1x1 weights and global size of GPU_KERNEL_CONV2D; [17]
   * output slices per work item. */
  GPU_KERNEL_DEPTHWISE_CONV2D_1X1,
  /* The gates of the basic LSTM cell (TFLite's LstmCell): t1 the gate sums
   * activ_temp [B, 4D], t2 prev_state [B, D]; t0 is the new state when
   * [3] is 0, the new activation when [3] is 1. [0] D, [1] t1's slices per
   * pixel, [2] t2's, [3] as above, [4] the float bits of the cell clip
   * (0: none), [5] those of a value added to the activation (0: none),
   * [6] 1 for the integer LSTM (TFLite's 8x8_16 fixed-point steps
   * simulated: t1 is [B, 8D], the input part of gate g's sum at channel
   * g * D + c and the recurrent part at (4 + g) * D + c, each rounded to
   * Q3.12 and saturated in turn; the gates on Q0.15; the cell update's two
   * products each on the cell grid, [7] its scale's float bits).
   * Gate g of channel c is t1's channel g * D + c, read
   * one value at a time (not slice-aligned when D % 4 != 0). Both dispatches
   * compute the state the same way, in float, so the activation uses the
   * unrounded state as cpu_ref's does. GPU_FEATURE_LSTM_GATES. */
  GPU_KERNEL_LSTM_GATES,
  /* GPU_KERNEL_DEPTHWISE_CONV_ORDERED, whose output (after its post-ops) is
   * also the input of a 1x1 convolution that this dispatch computes too,
   * into t6: each group has all of its pixel's channels, and sums each
   * 1x1 output channel over them in order as conv_ordered does. [19] the
   * 1x1 weights (ordered layout) and [20] its bias, both in elements from
   * the start of t4; [21] its output channels, [22] its output slices,
   * [23] 1 to clamp to [24], [25] (float bits, its fused activation). t6
   * is written, not read (gpu_kernel_writes_glsl_binding); one group covers
   * the depthwise output's channels (global[0] is the group).
   * GPU_FEATURE_ORDERED_EXPAND. */
  GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND,
  /* MediaPipe's transform custom ops (version 2; the options are read by
   * core/facts/landmarks_to_transform_matrix.h), computed in float as
   * cpu_ref computes them; a 4x4 matrix is a [1, 4, 4] tensor (row r in
   * slice r). GPU_FEATURE_MEDIAPIPE_TRANSFORMS. Landmarks2TransformMatrix:
   * t1 landmarks [1, N, 3], t2 the subset indices as float values
   * (constants; N <= 2048, exact in fp16); [0] left and [1] right
   * rotation landmark, [2] output width, [3] output height, [4] target
   * rotation, [5] scale x, [6] scale y (float bits), [7] subset count
   * (even). Each of the four work items computes the matrix and writes
   * its row. */
  GPU_KERNEL_LANDMARKS_TO_TRANSFORM_MATRIX,
  /* TransformTensorBilinear: t1 [1, H, W, C] sampled at the points the
   * matrix t2 maps each output pixel to: [0] H, [1] W, [2] t1's slices. */
  GPU_KERNEL_TRANSFORM_TENSOR_BILINEAR,
  /* TransformLandmarks: t1 landmarks [1, N, D] (D 2 or 3), x and y mapped
   * by the matrix t2, z copied; no parameters. */
  GPU_KERNEL_TRANSFORM_LANDMARKS,
  /* SVDF (ops/svdf.c), in two dispatches, in float as cpu_ref computes it.
   * The new state: t0 [B, F * M] <- the state t1 [B, F * M] shifted by one
   * frame, each filter's newest slot the dot product of the input t2
   * [B, I] with the filter's row of the feature weights t3 (F x I
   * scalars); [0] M, [1] I, [2] t1's and [3] t2's slices per pixel, [4] 1
   * when that slot goes onto the int16 grid of scale [5] (float bits: the
   * integer SVDF's state). GPU_FEATURE_SVDF. */
  GPU_KERNEL_SVDF_STATE,
  /* The output: t0 [B, U] <- bias t3 (U scalars; [3] 1 when there is one)
   * plus, for each of the unit's [1] (rank) filters, the dot product of
   * the new state t1 over its [0] (M) slots with its row of the time
   * weights t2 (F x M scalars); [2] t1's slices per pixel, [4] 1 applies
   * TANH. GPU_FEATURE_SVDF. */
  GPU_KERNEL_SVDF_OUTPUT,
  /* GATHER_ND: t1 params, t2 indices (integers as float values, clamped
   * into their dim); [0] index depth (1..4), [1] elements per gathered
   * block, [2..6) the params dims indexed, [6..10) their strides in
   * elements, [10] params C, [11] params S, [12] indices C, [13] indices
   * S (4-D views). GPU_FEATURE_GATHER_ND. */
  GPU_KERNEL_GATHER_ND,
  GPU_KERNEL_EXTENDED_COUNT
} gpu_kernel_id;

/* What a backend's kernels implement beyond the first catalogue
 * (gpu_device_caps.features). */
enum {
  GPU_FEATURE_DENSE_OUTPUT = 1u << 0,         /* parameter [13] */
  GPU_FEATURE_DEPTHWISE_POINTWISE = 1u << 1,  /* the two fused kernels above */
  GPU_FEATURE_LSTM_GATES = 1u << 2,           /* GPU_KERNEL_LSTM_GATES */
  GPU_FEATURE_ORDERED_EXPAND = 1u << 3,       /* GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND */
  GPU_FEATURE_MEDIAPIPE_TRANSFORMS = 1u << 4, /* the three MediaPipe transform kernels */
  GPU_FEATURE_SVDF = 1u << 5,                 /* GPU_KERNEL_SVDF_STATE and GPU_KERNEL_SVDF_OUTPUT */
  GPU_FEATURE_GATHER_ND = 1u << 6,            /* GPU_KERNEL_GATHER_ND */
  /* GPU_IN_WORDS in GPU_KERNEL_CONV2D. Bindings start on a word; a last
   * word only in part the tensor's is read whole where the backend's
   * buffers hold whole words past any tensor's last byte (gpu_vk and
   * gpu_gl round them to 16 bytes), or byte by byte (gpu_cl). */
  GPU_FEATURE_INPUT_WORDS = 1u << 7,
  /* With GPU_FEATURE_INPUT_WORDS and GPU_FEATURE_DENSE_OUTPUT: 8-bit
   * tensors between GPU_KERNEL_CONV2D dispatches kept as words (gpu_vk;
   * the H100 ran the 24-layer int8 twin slower so on gpu_gl, 267.5 against
   * 255.6 us of GPU time, and on gpu_cl, 214.7-221.4 against 205.9-211.3:
   * bench/RESULTS.md, wave 13). */
  GPU_FEATURE_WORDS_BETWEEN = 1u << 8,
};

const char *gpu_kernel_name(int32_t kernel);

/* Whether the kernel writes its tensor argument t<argument>: t0 always,
 * and t6 for GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND. The barrier plan
 * (gpu_hazard_plan) asks this. */
int gpu_kernel_writes_argument(int32_t kernel, uint32_t argument);

/* The same for the GLSL storage binding `binding` (binding 0 holds the
 * parameters, binding 1 + n tensor t<n>: kernels/glsl/common.glsl). */
int gpu_kernel_writes_glsl_binding(int32_t kernel, uint32_t binding);

/* 1 when a backend that can build kernel for its dispatch's post-op list
 * (gpu_post_list) should: not the ordered depthwise kernels, whose post-ops
 * run inside their shared-memory loop and which ran 10-15% slower built so
 * on an H100 (bench/RESULTS.md, wave 10), while the others ran faster. */
int gpu_kernel_specializes_posts(int32_t kernel);

#endif
