/* Shared by every GLSL kernel, after the target's prelude: storage and
 * arithmetic types for each precision, the parameter block, tensor access
 * and the epilogue that applies fused post-ops and stores one slice. The
 * GLSL twin of kernels/cl/common.cl: the parameter layout is the contract
 * of plugins/gpu_common/gpu_kernel_catalog.h, and every kernel computes
 * what its OpenCL C namesake computes, in the same order.
 *
 * Bindings: 0 the parameters, 1..7 the tensors t0..t6 (t0 the output).
 * GLSL has no pointers: tensor n is reached through load4(n, ...) and
 * friends, which switch over the blocks (n is a constant at almost every
 * call, so the switch folds away). */

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
 * 16-bit storage are packed two to a uint (STORAGE). Tensors start on 256
 * bytes in the GPU layer's buffers, so slices are aligned there; a
 * partition input or output bound at another offset goes value by value. */
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
const int P_POSTS = 16;
const int POST_SIZE = 12;
const int P_KERNEL = 64;

const int POST_CLAMP = 1;
const int POST_UNARY = 2;
const int POST_BINARY = 3;
const int POST_PRELU = 4;

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
layout(std430, binding = 2) buffer Words1 { uint words[]; } w1;
#if defined(GPU_STORAGE_16BIT)
/* The output's halves one by one, for stores that do not start a vector. */
layout(std430, binding = 1) buffer Halves0 { float16_t values[]; } h0;
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

void kernel_start() {
  pbase = PARAMS_BASE;
  for (int i = 0; i < 7; ++i) tensor_offset[i] = P(i);
}

/* The output coordinates of a work item over (x, b * H + y, slice). */
#define OUTPUT_COORDS                                                               \
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);          \
  int s = int(gl_GlobalInvocationID.z);                                             \
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || s >= P(P_OUT_S)) return; \
  int b = by / P(P_OUT_H), y = by - b * P(P_OUT_H)

/* ---- element access: B a block, e an element index ---- */

#if defined(GPU_PACKED_HALF)
#define ELEMENT(B, e) FLT(unpackHalf2x16(B.data[(e) >> 1])[(e)&1])
/* Four elements from e: two words when e is even, else one by one. */
#define VEC4_AT(B, e)                                                                      \
  (((e)&1) == 0 ? FLT4(unpackHalf2x16(B.data[(e) >> 1]), unpackHalf2x16(B.data[((e) >> 1) + 1])) \
                : FLT4(ELEMENT(B, e), ELEMENT(B, (e) + 1), ELEMENT(B, (e) + 2), ELEMENT(B, (e) + 3)))
#else
#if defined(GPU_STORAGE_16BIT) && !defined(GPU_HALF_MATH)
/* 16-bit storage alone moves whole float16_t vectors, never a lane. */
#define ELEMENT(B, e) FLT(vec4(B.data[(e) >> 2])[(e)&3])
#else
#define ELEMENT(B, e) FLT(B.data[(e) >> 2][(e)&3])
#endif
/* Four elements from e: one vector when e is a multiple of 4. */
#define VEC4_AT(B, e)                                                                     \
  (((e)&3) == 0 ? FLT4(B.data[(e) >> 2])                                                  \
                : FLT4(ELEMENT(B, e), ELEMENT(B, (e) + 1), ELEMENT(B, (e) + 2), ELEMENT(B, (e) + 3)))
#endif

/* Slice i (four values) of tensor n. */
FLT4 load4(int n, int i) {
  int e = tensor_offset[n] + 4 * i;
  switch (n) {
  case 0: return VEC4_AT(t0, e);
  case 1: return VEC4_AT(t1, e);
  case 2: return VEC4_AT(t2, e);
  case 3: return VEC4_AT(t3, e);
  case 4: return VEC4_AT(t4, e);
  case 5: return VEC4_AT(t5, e);
  default: return VEC4_AT(t6, e);
  }
}

/* Element i of tensor n. */
FLT load1(int n, int i) {
  int e = tensor_offset[n] + i;
  switch (n) {
  case 0: return ELEMENT(t0, e);
  case 1: return ELEMENT(t1, e);
  case 2: return ELEMENT(t2, e);
  case 3: return ELEMENT(t3, e);
  case 4: return ELEMENT(t4, e);
  case 5: return ELEMENT(t5, e);
  default: return ELEMENT(t6, e);
  }
}

/* Channel c of a pixel of tensor n whose slices start at pixel_slice. */
FLT load_channel(int n, int pixel_slice, int c) { return load1(n, pixel_slice * 4 + c); }

#if defined(GPU_PACKED_HALF)
/* Half h of word at: the other half may belong to another work item, so
 * both are changed atomically. */
void store_half(int at, int h, float value) {
  uint shift = uint(h) * 16u;
  uint bits = packHalf2x16(vec2(value, 0.0)) & 0xFFFFu;
  atomicAnd(t0.data[at], ~(0xFFFFu << shift));
  atomicOr(t0.data[at], bits << shift);
}
#endif

/* Stores slice i of the output t0. */
void store4(int i, FLT4 v) {
  int e = tensor_offset[0] + 4 * i;
#if defined(GPU_PACKED_HALF)
  if ((e & 1) == 0) {
    t0.data[e >> 1] = packHalf2x16(v.xy);
    t0.data[(e >> 1) + 1] = packHalf2x16(v.zw);
  } else {
    for (int k = 0; k < 4; ++k) store_half((e + k) >> 1, (e + k) & 1, v[k]);
  }
#else
  if ((e & 3) == 0) {
    t0.data[e >> 2] = STORAGE4(v);
  } else {
#if defined(GPU_STORAGE_16BIT)
    for (int k = 0; k < 4; ++k) h0.values[e + k] = STORAGE(v[k]);
#else
    for (int k = 0; k < 4; ++k) t0.data[(e + k) >> 2][(e + k) & 3] = STORAGE(v[k]);
#endif
  }
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

/* ---- post-ops and the stored slice ---- */

/* A tensor read at output coordinates: PA(d..d+4) hold its slice strides
 * for b, y, x, s (0 along broadcast dims) and a flag for one channel
 * broadcast to all. */
FLT4 read_operand(int d, int n, int b, int y, int x, int s) {
  FLT4 v = load4(n, b * PA(d) + y * PA(d + 1) + x * PA(d + 2) + s * PA(d + 3));
  if (PA(d + 4) != 0) v = FLT4(v.x);
  return v;
}

FLT4 apply_unary(int code, FLT4 v, float alpha) {
  switch (code) {
  case 1: return max(v, FLT4(0));
  case 2: return min(max(v, FLT4(0)), FLT4(6));
  case 3: return min(max(v, FLT4(-1)), FLT4(1));
  case 4: return FLT4(1) / (FLT4(1) + exp(-v));
  case 5: return v * min(FLT4(6), max(FLT4(0), v + FLT4(3))) / FLT4(6);
  case 6: return tanh(v);
  case 7: return exp(v);
  default: return mix(v * FLT(alpha), v, greaterThan(v, FLT4(0)));
  }
}

FLT4 apply_binary(int code, FLT4 a, FLT4 b) {
  switch (code) {
  case 1: return a + b;
  case 2: return a - b;
  case 3: return a * b;
  case 4: return a / b;
  case 5: return max(a, b);
  case 6: return min(a, b);
  default: return FLT4(notEqual(a, FLT4(0))) * FLT4(notEqual(b, FLT4(0)));
  }
}

/* Applies the post-ops to slice s of output pixel (b, y, x), zeroes the
 * channels past C and stores it. */
void finish_slice(int b, int y, int x, int s, FLT4 computed) {
  PRECISE_FP32 FLT4 v = computed;
  int count = P(P_POST_COUNT);
  for (int i = 0; i < count; ++i) {
    int q = pbase + P_POSTS + POST_SIZE * i;
    int type = PA(q);
    if (type == POST_CLAMP) {
      v = min(max(v, FLT4(intBitsToFloat(PA(q + 8)))), FLT4(intBitsToFloat(PA(q + 9))));
    } else if (type == POST_UNARY) {
      v = apply_unary(PA(q + 1), v, intBitsToFloat(PA(q + 8)));
    } else {
      FLT4 o = read_operand(q + 3, PA(q + 2), b, y, x, s);
      if (type == POST_BINARY)
        v = PA(q + 10) != 0 ? apply_binary(PA(q + 1), o, v) : apply_binary(PA(q + 1), v, o);
      else
        v = mix(v * o, v, greaterThanEqual(v, FLT4(0)));
    }
  }
  int c = s * 4, channels = P(P_OUT_C);
  if (c + 1 >= channels) v.y = FLT(0);
  if (c + 2 >= channels) v.z = FLT(0);
  if (c + 3 >= channels) v.w = FLT(0);
  store4(((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * P(P_OUT_S) + s, v);
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
