/* Shared by every GLSL kernel, after the target's prelude: storage and
 * arithmetic types for each precision, the parameter block, tensor access
 * and the epilogue that applies fused post-ops and stores one slice. The
 * GLSL twin of kernels/cl/common.cl: the parameter layout is the contract
 * of plugins/gpu_common/gpu_kernel_catalog.h, and every kernel computes
 * what its OpenCL C namesake computes, in the same order.
 *
 * Bindings: 0 the parameters, 1..7 the tensors t0..t6 (t0 the output).
 * GLSL has no pointers: tensor n is reached through load4(n, ...) and
 * friends, which pick the block by n (a constant at almost every call, so
 * the choice folds away). */

#if defined(GPU_HALF_STORAGE) || defined(GPU_HALF_MATH)
#define GPU_HALF 1
#endif

#if defined(GPU_HALF_MATH)
#define FLT float16_t
#define FLT4 f16vec4
#else
#define FLT float
#define FLT4 vec4
#endif

#if defined(GPU_HALF_MATH) && !defined(GPU_STORAGE_16BIT)
#error "half arithmetic needs float16_t storage"
#endif

/* Tensors are arrays of four-value vectors (STORAGE4) where the device
 * stores floats or float16_t, so that a slice is one load; halves without
 * 16-bit storage are packed two to a uint (STORAGE). Every tensor starts on
 * a whole vector: the GPU layer places tensors on 256 bytes in its buffers,
 * and gpu_vk and gpu_gl refuse partition bindings at offsets that are not
 * multiples of 16 bytes (gpu_backend.binding_alignment), so slices are
 * always aligned and each is one load or store (checking alignment on every
 * access cost gpu_vk 8-10% on the landmark models). */
#if !defined(GPU_HALF)
#define STORAGE float
#define STORAGE4 vec4
#elif defined(GPU_STORAGE_16BIT)
#define STORAGE float16_t
#define STORAGE4 f16vec4
#else
#define STORAGE uint
#define GPU_PACKED_HALF 1
#endif

/* float32 results follow cpu_ref's operation order without fused
 * multiply-adds (as kernels/cl/common.cl turns FP_CONTRACT off); the half
 * modes keep the faster contracted arithmetic. */
#if defined(GPU_HALF)
#define PRECISE_FP32
#else
#define PRECISE_FP32 GPU_PRECISE
#endif

/* Parameter block (gpu_kernel_catalog.h). */
const int P_POST_COUNT = 7;
const int P_OUT_B = 8;
const int P_OUT_H = 9;
const int P_OUT_W = 10;
const int P_OUT_C = 11;
const int P_OUT_S = 12;
const int P_OUT_DENSE = 13;
const int P_OUT_SCALE = 14;
const int P_OUT_ZERO = 15;
const int P_POSTS = 16;
const int POST_SIZE = 12;
const int P_KERNEL = 64;

const int POST_CLAMP = 1;
const int POST_UNARY = 2;
const int POST_BINARY = 3;
const int POST_PRELU = 4;
const int POST_QUANTIZE = 5;
/* P_OUT_DENSE: 1 + gpu_dense_kind, and flags (gpu_kernel_catalog.h). */
const int OUT_DENSE_KIND_MASK = 7;
const int IN_WORDS = 8;
const int OUT_DENSE_GRID = 16;

/* The dispatch's post-op list when the kernel is built for it (a
 * specialization constant in the Vulkan prelude; GPU_POST_LIST_* in
 * gpu_kernel_catalog.h); 0: read from the parameters. */
#if !defined(GPU_POST_LIST_DECLARED)
const uint POST_LIST = 0u;
#endif
const int MAX_POSTS = 4;
const uint POST_LIST_DENSE_SHIFT = 3u;
const int POST_LIST_POSTS_SHIFT = 8;
const int POST_LIST_POST_BITS = 6;
/* GPU_GRID_VALUE_* (gpu_kernel_catalog.h): GRID_VALUE(i) of the prelude. */
const int GRID_VALUE_SCALE = 0;
const int GRID_VALUE_ZERO = 1;
const int GRID_VALUE_QMIN = 2;
const int GRID_VALUE_QMAX = 3;
const int GRID_VALUE_RATE = 4;
const int GRID_VALUE_INVERSE_STEP = 5;

layout(std430, binding = 0) readonly buffer Params {
  int p[];
} params;

#if defined(GPU_PACKED_HALF)
#define TENSOR_ELEMENT STORAGE
#else
#define TENSOR_ELEMENT STORAGE4
#endif
layout(std430, binding = 1) buffer Tensor0 { TENSOR_ELEMENT data[]; } t0;
layout(std430, binding = 2) buffer Tensor1 { TENSOR_ELEMENT data[]; } t1;
layout(std430, binding = 3) buffer Tensor2 { TENSOR_ELEMENT data[]; } t2;
layout(std430, binding = 4) buffer Tensor3 { TENSOR_ELEMENT data[]; } t3;
layout(std430, binding = 5) buffer Tensor4 { TENSOR_ELEMENT data[]; } t4;
layout(std430, binding = 6) buffer Tensor5 { TENSOR_ELEMENT data[]; } t5;
layout(std430, binding = 7) buffer Tensor6 { TENSOR_ELEMENT data[]; } t6;
/* The dense side of the layout conversions, as 32-bit words (float32
 * values, or bool bytes four to a word): other views of bindings 1 and 2,
 * which the conversions use instead of t0 or t1. */
layout(std430, binding = 1) buffer Words0 { uint words[]; } w0;
/* w1 is only read: readonly lets NVIDIA's Vulkan compiler load it as it
 * loads t1 (conv2d reading 8-bit words: 6.4 -> 5.5 us a 16-channel
 * FULLY_CONNECTED on the H100, bench/RESULTS.md wave 13). */
layout(std430, binding = 2) readonly buffer Words1 { uint words[]; } w1;
#if !defined(GPU_HALF) && defined(GPU_SCALAR_VIEWS)
/* Scalar views of the float tensors, for loads of one value (channel
 * gathers: conv_ordered's receptive field, depthwise multipliers, the
 * ordered kernels' bias): picking a lane of a vector element costs more on
 * NVIDIA (gpu_vk, pose_landmark_lite, when the ordered sums still loaded
 * single weights: 512 -> 460 us for its 22 fused depthwise + ordered 1x1
 * dispatches). Only where the prelude asks: NVIDIA's GLES driver counts
 * every declared block against its limit of storage blocks, used or not. */
layout(std430, binding = 1) buffer Scalars0 { float values[]; } s0;
layout(std430, binding = 2) buffer Scalars1 { float values[]; } s1;
layout(std430, binding = 3) buffer Scalars2 { float values[]; } s2;
layout(std430, binding = 4) buffer Scalars3 { float values[]; } s3;
layout(std430, binding = 5) buffer Scalars4 { float values[]; } s4;
layout(std430, binding = 6) buffer Scalars5 { float values[]; } s5;
layout(std430, binding = 7) buffer Scalars6 { float values[]; } s6;
#endif

/* This dispatch's parameters start at params.p[pbase]: P(i) is one of the
 * block, K(i) one of the kernel's own, PA(i) any int of the buffer (for
 * post-op and operand descriptions found by index). */
int pbase;
#define P(i) params.p[pbase + (i)]
#define K(i) params.p[pbase + P_KERNEL + (i)]
#define PA(i) params.p[i]

/* Element offset of each tensor argument in its buffer. */
int tensor_offset[7];

/* Written out, not in a loop: with constant indices everywhere the array
 * stays in registers; NVIDIA's GLES compiler kept the looped version in
 * local memory, and every tensor access paid for it. */
void kernel_start() {
  pbase = PARAMS_BASE;
  tensor_offset[0] = P(0);
  tensor_offset[1] = P(1);
  tensor_offset[2] = P(2);
  tensor_offset[3] = P(3);
  tensor_offset[4] = P(4);
  tensor_offset[5] = P(5);
  tensor_offset[6] = P(6);
}

/* The output coordinates of a work item over (x, b * H + y, slice). */
#define OUTPUT_COORDS                                                               \
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);          \
  int s = int(gl_GlobalInvocationID.z);                                             \
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || s >= P(P_OUT_S)) return; \
  int b = by / P(P_OUT_H), y = by - b * P(P_OUT_H)

/* ---- element access: B a block, e an element index ---- */

/* Lane c of v by selects (mix with a bool), neither v[c] nor ?: chains:
 * NVIDIA's GLES compiler spills a dynamically indexed vector to local
 * memory, and turns each ?: into a branch after which the next load waits;
 * the ordered kernels (their weights were single lanes then) ran 5 to 10
 * times slower on gpu_gl than on gpu_vk. */
float lane_of(vec4 v, int c) { return mix(mix(v.x, v.y, c == 1), mix(v.z, v.w, c == 3), c >= 2); }
float half_lane(vec2 v, int c) { return mix(v.x, v.y, c == 1); }
#if defined(GPU_HALF_MATH)
float16_t lane_of(f16vec4 v, int c) { return mix(mix(v.x, v.y, c == 1), mix(v.z, v.w, c == 3), c >= 2); }
#endif

#if defined(GPU_PACKED_HALF)
#define ELEMENT(B, e) FLT(half_lane(unpackHalf2x16(B.data[(e) >> 1]), (e)&1))
/* Four elements from e, a multiple of 4: two words. */
#define VEC4_AT(B, e) FLT4(unpackHalf2x16(B.data[(e) >> 1]), unpackHalf2x16(B.data[((e) >> 1) + 1]))
#else
#if defined(GPU_STORAGE_16BIT) && !defined(GPU_HALF_MATH)
/* 16-bit storage alone moves whole float16_t vectors, never a lane. */
#define ELEMENT(B, e) FLT(lane_of(vec4(B.data[(e) >> 2]), (e)&3))
#else
#define ELEMENT(B, e) FLT(lane_of(B.data[(e) >> 2], (e)&3))
#endif
/* Four elements from e, a multiple of 4: one vector. */
#define VEC4_AT(B, e) FLT4(B.data[(e) >> 2])
#endif

/* Slice i (four values) of tensor n. Each branch reads its own offset, so
 * that tensor_offset is only ever indexed by constants, even where n is not
 * one (post-op operands). One return at the end, in every function a loop
 * calls: NVIDIA's GLES compiler wraps an inlined function that returns early
 * (from a switch case, say) in a one-trip loop, and no load then moves
 * past its neighbours' loop boundaries, so each load waited for the one
 * before it (pose_landmark_lite's 8x8 convolutions: 78 us a dispatch). */
FLT4 load4(int n, int i) {
  FLT4 v;
  if (n == 1) v = VEC4_AT(t1, tensor_offset[1] + 4 * i);
  else if (n == 2) v = VEC4_AT(t2, tensor_offset[2] + 4 * i);
  else if (n == 3) v = VEC4_AT(t3, tensor_offset[3] + 4 * i);
  else if (n == 4) v = VEC4_AT(t4, tensor_offset[4] + 4 * i);
  else if (n == 5) v = VEC4_AT(t5, tensor_offset[5] + 4 * i);
  else if (n == 0) v = VEC4_AT(t0, tensor_offset[0] + 4 * i);
  else v = VEC4_AT(t6, tensor_offset[6] + 4 * i);
  return v;
}

/* Element i of tensor n. */
FLT load1(int n, int i) {
  FLT v;
#if !defined(GPU_HALF) && defined(GPU_SCALAR_VIEWS)
  if (n == 1) v = s1.values[tensor_offset[1] + i];
  else if (n == 2) v = s2.values[tensor_offset[2] + i];
  else if (n == 3) v = s3.values[tensor_offset[3] + i];
  else if (n == 4) v = s4.values[tensor_offset[4] + i];
  else if (n == 5) v = s5.values[tensor_offset[5] + i];
  else if (n == 0) v = s0.values[tensor_offset[0] + i];
  else v = s6.values[tensor_offset[6] + i];
#else
  if (n == 1) v = ELEMENT(t1, tensor_offset[1] + i);
  else if (n == 2) v = ELEMENT(t2, tensor_offset[2] + i);
  else if (n == 3) v = ELEMENT(t3, tensor_offset[3] + i);
  else if (n == 4) v = ELEMENT(t4, tensor_offset[4] + i);
  else if (n == 5) v = ELEMENT(t5, tensor_offset[5] + i);
  else if (n == 0) v = ELEMENT(t0, tensor_offset[0] + i);
  else v = ELEMENT(t6, tensor_offset[6] + i);
#endif
  return v;
}

/* Channel c of a pixel of tensor n whose slices start at pixel_slice. */
FLT load_channel(int n, int pixel_slice, int c) { return load1(n, pixel_slice * 4 + c); }

/* Stores slice i of the output t0. */
void store4(int i, FLT4 v) {
  int e = tensor_offset[0] + 4 * i;
#if defined(GPU_PACKED_HALF)
  t0.data[e >> 1] = packHalf2x16(v.xy);
  t0.data[(e >> 1) + 1] = packHalf2x16(v.zw);
#else
  t0.data[e >> 2] = STORAGE4(v);
#endif
}

/* ---- small helpers ---- */

float negative_infinity() { return uintBitsToFloat(0xFF800000u); }

/* Sets lane i of v. */
FLT4 with_lane(FLT4 v, int i, FLT value) {
  if (i == 0)
    v.x = value;
  else if (i == 1)
    v.y = value;
  else if (i == 2)
    v.z = value;
  else
    v.w = value;
  return v;
}

/* C's (and OpenCL's) round(): halfway cases away from zero. */
float round_half_away(float value) {
  float whole = trunc(value);
  if (abs(value - whole) >= 0.5) whole += sign(value);
  return whole;
}

vec4 round_half_away4(vec4 value) {
  vec4 whole = trunc(value);
  return whole + sign(value) * step(vec4(0.5), abs(value - whole));
}

/* The float view of a quantized tensor (POST_QUANTIZE, gpu_quant.h): the
 * integers of v on the grid of scale, zero, qmin, qmax, in float32
 * whatever the storage; rate = f / scale and inverse_step = 1 / f for the
 * fixed-point roundings. */
vec4 grid_integers(vec4 v, float scale, float zero, float qmin, float qmax, int mode, vec4 rate,
                   vec4 inverse_step) {
  vec4 g;
  if (mode == 2 || mode == 3) {
    /* TFLite's fixed-point requantization (mode 2: ties upward, 3: away
     * from zero), rounded twice: at 1/f LSB, then to the LSB; f = 2^right
     * shift per channel. Multiplications only: the host divides once
     * where it can (GPU_GRID_VALUE_RATE), and 1 / f is exact. */
    vec4 t = floor(v * rate + 0.5);
    g = (mode == 2 ? floor(t * inverse_step + 0.5)
                   : sign(t) * floor(abs(t) * inverse_step + 0.5)) + zero;
  } else if (mode == 1) {
    /* As pooling and resize average integers; near-ties (GPU_GRID_TIE_SLACK) as ties. */
    vec4 u = v / scale + zero;
    g = sign(u) * floor(abs(u) + 0.5 + 1.0 / 1024.0);
  } else {
    g = round_half_away4(v / scale) + zero;
  }
  return clamp(g, vec4(qmin), vec4(qmax));
}

/* ---- post-ops and the stored slice ---- */

/* The number of post-ops, the type of post-op i (at q), its rounding and
 * whether its f is an operand (POST_QUANTIZE), the output's store
 * ([P_OUT_DENSE]): constants when POST_LIST is. */
int post_count() { return POST_LIST != 0u ? int(POST_LIST & 7u) - 1 : P(P_POST_COUNT); }
/* Post-op i's bits of POST_LIST, and its type: macros, so that constant
 * expressions (PUSHED_GRID) decode the list as the functions do. */
#define POST_LIST_BITS(i) (POST_LIST >> uint(POST_LIST_POSTS_SHIFT + (i) * POST_LIST_POST_BITS))
#define POST_LIST_TYPE(i) int(POST_LIST_BITS(i) & 7u)
uint post_bits(int i) { return POST_LIST_BITS(i); }
int post_type(int i, int q) { return POST_LIST != 0u ? POST_LIST_TYPE(i) : PA(q); }
int post_rounding(int i, int q) { return POST_LIST != 0u ? int((post_bits(i) >> 3) & 3u) : PA(q + 1); }
bool post_f_operand(int i, int q) {
  return POST_LIST != 0u ? ((post_bits(i) >> 5) & 1u) != 0u : PA(q + 2) != 0;
}
int out_dense() {
  return POST_LIST != 0u ? int((POST_LIST >> POST_LIST_DENSE_SHIFT) & 31u) : P(P_OUT_DENSE);
}
/* Whether t1 is an 8-bit tensor read as words (IN_WORDS, [13]'s flag
 * beside the output's kind: gpu_conv2d only). */
bool reads_input_words() { return (out_dense() & IN_WORDS) != 0; }

/* The post-op whose grid values the dispatch passes beside its parameter
 * offset (GRID_VALUE, gpu_post_list_pushed_grid): the last POST_QUANTIZE
 * the post-op list describes; -1: none, or POST_LIST unknown. A constant
 * expression (not a loop: see posted_slice). */
const int PUSHED_GRID = POST_LIST == 0u                        ? -1
                        : POST_LIST_TYPE(3) == POST_QUANTIZE ? 3
                        : POST_LIST_TYPE(2) == POST_QUANTIZE ? 2
                        : POST_LIST_TYPE(1) == POST_QUANTIZE ? 1
                        : POST_LIST_TYPE(0) == POST_QUANTIZE ? 0
                                                             : -1;

/* Grid values of POST_QUANTIZE post-op i (at q): GRID_VALUE(value) for
 * the pushed one, else its word at q + offset of the parameters. */
int grid_word(int i, int q, int value, int offset) {
  return i == PUSHED_GRID ? GRID_VALUE(value) : PA(q + offset);
}
float grid_scale(int i, int q) { return intBitsToFloat(grid_word(i, q, GRID_VALUE_SCALE, 8)); }
float grid_zero(int i, int q) { return float(grid_word(i, q, GRID_VALUE_ZERO, 9)); }
float grid_qmin(int i, int q) { return float(grid_word(i, q, GRID_VALUE_QMIN, 10)); }
float grid_qmax(int i, int q) { return float(grid_word(i, q, GRID_VALUE_QMAX, 11)); }
/* f / scale and 1 / f of a grid with one f for all channels (in [3]). */
float grid_rate(int i, int q) {
  return i == PUSHED_GRID ? intBitsToFloat(GRID_VALUE(GRID_VALUE_RATE))
                          : intBitsToFloat(PA(q + 3)) / intBitsToFloat(PA(q + 8));
}
float grid_inverse_step(int i, int q) {
  return i == PUSHED_GRID ? intBitsToFloat(GRID_VALUE(GRID_VALUE_INVERSE_STEP))
                          : 1.0 / intBitsToFloat(PA(q + 3));
}

/* A tensor read at output coordinates: PA(d..d+4) hold its slice strides
 * for b, y, x, s (0 along broadcast dims) and a flag for one channel
 * broadcast to all. */
FLT4 read_operand(int d, int n, int b, int y, int x, int s) {
  FLT4 v = load4(n, b * PA(d) + y * PA(d + 1) + x * PA(d + 2) + s * PA(d + 3));
  if (PA(d + 4) != 0) v = FLT4(v.x);
  return v;
}

/* The integers of v on the grid of POST_QUANTIZE post-op i (at q), at
 * slice s of output pixel (b, y, x): f per channel from its operand, or
 * one for all channels in [3]. */
vec4 grid_post_integers(int i, int q, int b, int y, int x, int s, vec4 v) {
  int mode = post_rounding(i, q);
  vec4 rate = vec4(0.0), inverse_step = vec4(1.0);
  if (mode >= 2 && post_f_operand(i, q)) {
    vec4 f = vec4(read_operand(q + 3, PA(q + 2), b, y, x, s));
    rate = f / grid_scale(i, q);
    inverse_step = 1.0 / f;
  } else if (mode >= 2) {
    rate = vec4(grid_rate(i, q));
    inverse_step = vec4(grid_inverse_step(i, q));
  }
  return grid_integers(v, grid_scale(i, q), grid_zero(i, q), grid_qmin(i, q), grid_qmax(i, q),
                       mode, rate, inverse_step);
}

FLT4 apply_unary(int code, FLT4 v, float alpha) {
  FLT4 r;
  if (code == 1) r = max(v, FLT4(0));
  else if (code == 2) r = min(max(v, FLT4(0)), FLT4(6));
  else if (code == 3) r = min(max(v, FLT4(-1)), FLT4(1));
  else if (code == 4) r = FLT4(1) / (FLT4(1) + exp(-v));
  else if (code == 5) r = v * min(FLT4(6), max(FLT4(0), v + FLT4(3))) / FLT4(6);
  else if (code == 6) r = tanh(v);
  else if (code == 7) r = exp(v);
  else if (code == 9) r = sqrt(v);
  else r = mix(v * FLT(alpha), v, greaterThan(v, FLT4(0)));
  return r;
}

FLT4 apply_binary(int code, FLT4 a, FLT4 b) {
  FLT4 r;
  if (code == 1) r = a + b;
  else if (code == 2) r = a - b;
  else if (code == 3) r = a * b;
  else if (code == 4) r = a / b;
  else if (code == 5) r = max(a, b);
  else if (code == 6) r = min(a, b);
  else if (code == 8) r = floor(a / b);
  else r = FLT4(notEqual(a, FLT4(0))) * FLT4(notEqual(b, FLT4(0)));
  return r;
}

/* Post-op i of the dispatch applied to v, at slice s of output pixel
 * (b, y, x). */
FLT4 apply_post(int i, int b, int y, int x, int s, FLT4 v) {
  PRECISE_FP32 FLT4 r = v;
  int q = pbase + P_POSTS + POST_SIZE * i;
  int type = post_type(i, q);
  if (type == POST_CLAMP) {
    r = min(max(v, FLT4(intBitsToFloat(PA(q + 8)))), FLT4(intBitsToFloat(PA(q + 9))));
  } else if (type == POST_UNARY) {
    r = apply_unary(PA(q + 1), v, intBitsToFloat(PA(q + 8)));
  } else if (type == POST_QUANTIZE) {
    r = FLT4((grid_post_integers(i, q, b, y, x, s, vec4(v)) - grid_zero(i, q)) * grid_scale(i, q));
  } else {
    FLT4 o = read_operand(q + 3, PA(q + 2), b, y, x, s);
    if (type == POST_BINARY)
      r = PA(q + 10) != 0 ? apply_binary(PA(q + 1), o, v) : apply_binary(PA(q + 1), v, o);
    else
      r = mix(v * o, v, greaterThanEqual(v, FLT4(0)));
  }
  return r;
}

/* Slice s of output pixel (b, y, x) after the post-ops. Where the prelude
 * asks (GPU_POSTS_WRITTEN_OUT), a known list is written out with constant
 * indices (MAX_POSTS of them): NVIDIA's GLSL compiler keeps a loop over
 * the post-ops, decoding the list in it, even when POST_LIST is a
 * constant (its NV_compute_program5 assembly, bench/RESULTS.md wave 11).
 * glslc's SPIR-V folds the loop without help, and would double in size. */
FLT4 posted_slice(int b, int y, int x, int s, FLT4 computed) {
  PRECISE_FP32 FLT4 v = computed;
  int count = post_count();
#if defined(GPU_POSTS_WRITTEN_OUT)
  if (POST_LIST != 0u) {
    if (count > 0) v = apply_post(0, b, y, x, s, v);
    if (count > 1) v = apply_post(1, b, y, x, s, v);
    if (count > 2) v = apply_post(2, b, y, x, s, v);
    if (count > 3) v = apply_post(3, b, y, x, s, v);
  } else
#endif
  for (int i = 0; i < MAX_POSTS; ++i) {
    if (i >= count) break;
    v = apply_post(i, b, y, x, s, v);
  }
  return v;
}

/* v as a kernel reading it back from a tensor sees it: rounded to half in
 * the half storage modes. */
FLT4 as_stored(FLT4 v) {
#if defined(GPU_PACKED_HALF)
  return FLT4(unpackHalf2x16(packHalf2x16(vec2(v.xy))), unpackHalf2x16(packHalf2x16(vec2(v.zw))));
#else
  return FLT4(STORAGE4(v));
#endif
}

/* The `bits` bits (8 or 16) at byte `at` of t0's words: their word's other
 * bytes may belong to other work items (or lie outside the tensor), so it
 * is changed atomically. */
void store_dense_bits(int at, int bits, uint value) {
  uint shift = uint(at & 3) * 8u;
  uint mask = bits == 8 ? 0xFFu : 0xFFFFu;
  atomicAnd(w0.words[at >> 2], ~(mask << shift));
  atomicOr(w0.words[at >> 2], (value & mask) << shift);
}

/* The integer bits of real value x on the grid of scale, zero point, qmin,
 * qmax: TFLite's quantization, round half away from zero, then clamp.
 * Used by the output edge (from_slices, or the epilogue storing a
 * quantized output dense). */
uint quantized_bits(float x, float scale, int zero, int qmin, int qmax) {
  float q = round_half_away(x / scale) + float(zero);
  return uint(int(clamp(q, float(qmin), float(qmax))));
}

/* Stores integer q of a quantized output at element `at` of t0 (from byte
 * byte_offset), of dense kind (gpu_dense_kind: 2 uint8, 3 int8, 4 int16). */
void store_integer(int byte_offset, int at, int kind, int q) {
  if (kind == 4) store_dense_bits(byte_offset + 2 * at, 16, uint(q));
  else store_dense_bits(byte_offset + at, 8, uint(q));
}

/* Stores lane x of a quantized output at element `at` of t0 (from byte
 * byte_offset) as the integers of dense kind (gpu_dense_kind: 2 uint8,
 * 3 int8, 4 int16). */
void store_quantized(int byte_offset, int at, int kind, float x, float scale, int zero) {
  if (kind == 4)
    store_dense_bits(byte_offset + 2 * at, 16, quantized_bits(x, scale, zero, -32768, 32767));
  else if (kind == 3)
    store_dense_bits(byte_offset + at, 8, quantized_bits(x, scale, zero, -128, 127));
  else
    store_dense_bits(byte_offset + at, 8, quantized_bits(x, scale, zero, 0, 255));
}

/* Stores slice s of output pixel (b, y, x), the channels past C zeroed. */
void store_slice(int b, int y, int x, int s, FLT4 v) {
  int c = s * 4, channels = P(P_OUT_C);
  int dense = out_dense();
  int kind = (dense & OUT_DENSE_KIND_MASK) - 1; /* gpu_dense_kind */
  if (kind >= 2 && (dense & OUT_DENSE_GRID) != 0) {
    /* The output's own grid rounding, kept out of the post-op loop: its
     * post-op lies just past the last one applied (GPU_OUT_DENSE_GRID),
     * and its integers are the output's. */
    int at = ((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * channels + c;
    int n = post_count();
    vec4 g = grid_post_integers(n, pbase + P_POSTS + POST_SIZE * n, b, y, x, s, vec4(v));
    int byte_at = tensor_offset[0] + at;
    if (POST_LIST != 0u && reads_input_words() && (channels & 3) == 0 && (byte_at & 3) == 0) {
      /* The slice's four integers fill a word no other work item writes:
       * one plain store. Only in the programs of an 8-bit chain (conv2d
       * reading words, POST_LIST known): there it saves 0.2-0.5 us a
       * layer; carried by softmax's program it cost 3.4 us (H100,
       * bench/RESULTS.md wave 13). */
      uvec4 u = uvec4(ivec4(g)) & 255u;
      w0.words[byte_at >> 2] = u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
    } else {
      store_integer(tensor_offset[0], at, kind, int(g.x));
      if (c + 1 < channels) store_integer(tensor_offset[0], at + 1, kind, int(g.y));
      if (c + 2 < channels) store_integer(tensor_offset[0], at + 2, kind, int(g.z));
      if (c + 3 < channels) store_integer(tensor_offset[0], at + 3, kind, int(g.w));
    }
  } else if (kind >= 2) {
    /* A quantized partition output stored as the core wants it: its
     * integers, dense, from byte offset tensor_offset[0]; each lane
     * quantized from the value as from_slices would read it back. */
    int at = ((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * channels + c;
    vec4 f = vec4(as_stored(v));
    float scale = intBitsToFloat(P(P_OUT_SCALE));
    int zero = P(P_OUT_ZERO);
    store_quantized(tensor_offset[0], at, kind, f.x, scale, zero);
    if (c + 1 < channels) store_quantized(tensor_offset[0], at + 1, kind, f.y, scale, zero);
    if (c + 2 < channels) store_quantized(tensor_offset[0], at + 2, kind, f.z, scale, zero);
    if (c + 3 < channels) store_quantized(tensor_offset[0], at + 3, kind, f.w, scale, zero);
  } else if (kind == 0) {
    /* A partition output stored as the core wants it: dense float32 words
     * (the w0 view of t0), its offset counted in floats. */
    int at = tensor_offset[0] + ((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * channels + c;
    vec4 f = vec4(v);
    w0.words[at] = floatBitsToUint(f.x);
    if (c + 1 < channels) w0.words[at + 1] = floatBitsToUint(f.y);
    if (c + 2 < channels) w0.words[at + 2] = floatBitsToUint(f.z);
    if (c + 3 < channels) w0.words[at + 3] = floatBitsToUint(f.w);
  } else {
    if (c + 1 >= channels) v.y = FLT(0);
    if (c + 2 >= channels) v.z = FLT(0);
    if (c + 3 >= channels) v.w = FLT(0);
    store4(((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * P(P_OUT_S) + s, v);
  }
}

/* Applies the post-ops to slice s of output pixel (b, y, x), zeroes the
 * channels past C and stores it. */
void finish_slice(int b, int y, int x, int s, FLT4 computed) {
  store_slice(b, y, x, s, posted_slice(b, y, x, s, computed));
}

/* acc + v.x * w[at] + v.y * w[at + 1] + ... (slices of tensor n), one
 * input channel at a time in order: the summation order of cpu_ref and
 * XNNPACK, whose results some models amplify. Sums run in float in every
 * mode: half sums of many taps drift past the fp16 bar (1e-2 of the output
 * range; a 5x3 convolution already reaches 1.2e-2), so half arithmetic is
 * for the elementwise work. */
vec4 madd4(FLT4 v, int n, int at, vec4 acc) {
  vec4 x = vec4(v);
  PRECISE_FP32 vec4 sum = acc;
  sum += x.x * vec4(load4(n, at));
  sum += x.y * vec4(load4(n, at + 1));
  sum += x.z * vec4(load4(n, at + 2));
  sum += x.w * vec4(load4(n, at + 3));
  return sum;
}

/* ---- convolution pieces shared by several kernels ---- */

/* Depthwise taps of output slice s (t1 input, t2 weights [slice][KH][KW]
 * vectors, K(0..12) as depthwise_conv2d's): column by column (kx outer,
 * cpu_ref's and XNNPACK's order). Output channel c reads input channel
 * c / K(11); last is the last output channel. Called with constant kh and
 * kw for the common 3x3 and 5x5 windows, which the compiler unrolls.
 * Branch-free: a tap outside the input loads a clamped pixel and adds a
 * selected zero (acc + 0 is acc), so that every load of the window can go
 * out before the first add; with a branch per tap NVIDIA's GLES compiler
 * waited on each load in turn, parameters included. */
vec4 depthwise_taps(int kh, int kw, int b, int s, int y0, int x0, int last, vec4 bias) {
  int in_h = K(0), in_w = K(1), in_s = K(2), multiplier = K(11);
  int dilation_y = K(7), dilation_x = K(8);
  PRECISE_FP32 vec4 acc = bias;
  UNROLL for (int kx = 0; kx < kw; ++kx) {
    int ix = x0 + kx * dilation_x;
    bool inside_x = ix >= 0 && ix < in_w;
    int column = clamp(ix, 0, in_w - 1);
    UNROLL for (int ky = 0; ky < kh; ++ky) {
      int iy = y0 + ky * dilation_y;
      bool inside = inside_x && iy >= 0 && iy < in_h;
      int pixel_slice = ((b * in_h + clamp(iy, 0, in_h - 1)) * in_w + column) * in_s;
      FLT4 v;
      if (multiplier == 1) {
        v = load4(1, pixel_slice + s);
      } else {
        /* Padding lanes read a valid channel: their weights are zero. */
        v.x = load_channel(1, pixel_slice, min(s * 4, last) / multiplier);
        v.y = load_channel(1, pixel_slice, min(s * 4 + 1, last) / multiplier);
        v.z = load_channel(1, pixel_slice, min(s * 4 + 2, last) / multiplier);
        v.w = load_channel(1, pixel_slice, min(s * 4 + 3, last) / multiplier);
      }
      vec4 product = vec4(v) * vec4(load4(2, (s * kh + ky) * kw + kx));
      acc += mix(vec4(0.0), product, bvec4(inside));
    }
  }
  return acc;
}

/* The depthwise slice s at output pixel (b, y, x), bias from t3. */
vec4 depthwise_slice(int b, int y, int x, int s, int last) {
  int kh = K(3), kw = K(4);
  int y0 = y * K(5) - K(9), x0 = x * K(6) - K(10);
  vec4 bias = vec4(load4(3, s));
  vec4 taps;
  if (kh == 3 && kw == 3) taps = depthwise_taps(3, 3, b, s, y0, x0, last, bias);
  else if (kh == 5 && kw == 5) taps = depthwise_taps(5, 5, b, s, y0, x0, last, bias);
  else taps = depthwise_taps(kh, kw, b, s, y0, x0, last, bias);
  return taps;
}

/* What conv_ordered and depthwise_conv_ordered share: their shared array
 * of taps (one pixel's receptive field, or its depthwise values), whose
 * memory then passes the results between items: 16 values per item (the
 * GPU layer sizes groups to fit), at most 16 KiB at 256 items, and less
 * for small groups, which keeps more of them resident; the ordered sum
 * over the taps:
 * acc + taps[0] * w(0) + taps[1] * w(1) + ..., added in that order, w(r)
 * the item's weight for tap r in pack_ordered_weights' layout (vector
 * r / 4 * padded + channel of tensor n, lane r % 4). The adds form one
 * dependent chain and few work items run these kernels, so nothing hides
 * the loads' latency but their number in flight: a batch of 8 vector loads
 * (32 taps) goes out before its adds. The batch is 8 named vectors, not an
 * array: an array indexed in a loop the compiler does not unroll lives in
 * local memory (NVIDIA's GLES compiler); and the second half of both
 * kernels (ordered_finish). A macro so that only these two kernels declare
 * the shared array (GLSL cannot pass it by reference). */
#define ORDERED_LOAD(v, i) vec4 v = vec4(load4(n, (q + i) * padded + channel))
#define ORDERED_ADD(v, i)                    \
  acc += float(taps[(q + i) * 4]) * v.x;     \
  acc += float(taps[(q + i) * 4 + 1]) * v.y; \
  acc += float(taps[(q + i) * 4 + 2]) * v.z; \
  acc += float(taps[(q + i) * 4 + 3]) * v.w
#define DEFINE_ORDERED_PARTS                                                        \
  const int ORDERED_MAX_ITEMS = 256;                                                \
  shared FLT taps[16u * gl_WorkGroupSize.x];                                        \
  float ordered_sum(float start, int n, int channel, int padded, int count) {       \
    PRECISE_FP32 float acc = start;                                                 \
    int whole = count / 4, q = 0;                                                   \
    for (; q + 8 <= whole; q += 8) {                                                \
      ORDERED_LOAD(w0, 0); ORDERED_LOAD(w1, 1);                                    \
      ORDERED_LOAD(w2, 2); ORDERED_LOAD(w3, 3);                                    \
      ORDERED_LOAD(w4, 4); ORDERED_LOAD(w5, 5);                                    \
      ORDERED_LOAD(w6, 6); ORDERED_LOAD(w7, 7);                                    \
      ORDERED_ADD(w0, 0); ORDERED_ADD(w1, 1);                                      \
      ORDERED_ADD(w2, 2); ORDERED_ADD(w3, 3);                                      \
      ORDERED_ADD(w4, 4); ORDERED_ADD(w5, 5);                                      \
      ORDERED_ADD(w6, 6); ORDERED_ADD(w7, 7);                                      \
    }                                                                               \
    for (; q < whole; ++q) {                                                        \
      ORDERED_LOAD(w, 0);                                                           \
      ORDERED_ADD(w, 0);                                                            \
    }                                                                               \
    int r = whole * 4;                                                              \
    if (r < count) {                                                                \
      /* The last taps' vector: lanes past count are padding. */                    \
      ORDERED_LOAD(w, 0);                                                           \
      acc += float(taps[r]) * w.x;                                                  \
      if (r + 1 < count) acc += float(taps[r + 1]) * w.y;                           \
      if (r + 2 < count) acc += float(taps[r + 2]) * w.z;                           \
    }                                                                               \
    return acc;                                                                     \
  }                                                                                 \
  /* Once the pixel's taps are in shared memory: each item sums one output        \
   * channel, its bias (element bias_at + channel of tensor n) first, weights     \
   * (ordered_sum's layout) from element 0 of tensor w; the items holding the     \
   * first channel of a slice store it, and with keep also put it back in taps    \
   * as stored (as_stored) for a fused consumer. Every item calls it. */          \
  void ordered_finish(bool in_range, int b, int y, int x, int n, int bias_at, int w,  \
                      int count, bool keep) {                                       \
    int t = int(gl_LocalInvocationID.x);                                            \
    int items = min(int(gl_WorkGroupSize.x), ORDERED_MAX_ITEMS);                    \
    memoryBarrierShared();                                                          \
    barrier();                                                                      \
    int padded = P(P_OUT_S) * 4;                                                    \
    int oc = int(gl_WorkGroupID.x) * items + t;                                     \
    float acc = 0.0;                                                                \
    if (in_range && t < items && oc < padded)                                       \
      acc = ordered_sum(float(load1(n, bias_at + oc)), w, oc, padded, count);      \
    /* Every item has read the taps: their memory now holds the results. */       \
    memoryBarrierShared();                                                          \
    barrier();                                                                      \
    if (t < ORDERED_MAX_ITEMS) taps[t] = FLT(acc);                                  \
    memoryBarrierShared();                                                          \
    barrier();                                                                      \
    if (in_range && t % 4 == 0 && t + 3 < items && oc < padded) {                   \
      FLT4 v = posted_slice(b, y, x, oc / 4,                                        \
                            FLT4(taps[t], taps[t + 1], taps[t + 2], taps[t + 3]));  \
      store_slice(b, y, x, oc / 4, v);                                              \
      if (keep) {                                                                   \
        v = as_stored(v);                                                           \
        taps[t] = v.x;                                                              \
        taps[t + 1] = v.y;                                                          \
        taps[t + 2] = v.z;                                                          \
        taps[t + 3] = v.w;                                                          \
      }                                                                             \
    }                                                                               \
  }

/* The depthwise value that depthwise_conv_ordered and depthwise_conv2d_1x1
 * feed to their 1x1 sum: slice s of the depthwise output, computed as
 * depthwise_conv2d computes it (K(12) its channels), in the arithmetic
 * type, clamped to [K(15), K(16)] when K(14) is set (its fused
 * activation). */
FLT4 depthwise_value(int b, int y, int x, int s) {
  FLT4 v = FLT4(depthwise_slice(b, y, x, s, K(12) - 1));
  if (K(14) != 0) v = min(max(v, FLT4(intBitsToFloat(K(15)))), FLT4(intBitsToFloat(K(16))));
  return v;
}
