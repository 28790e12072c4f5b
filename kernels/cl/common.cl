/* Shared by every gpu_cl kernel: storage and arithmetic types for each
 * precision, the argument block, and the epilogue that applies fused
 * post-ops and stores one slice. The parameter layout is the contract of
 * plugins/gpu_common/gpu_kernel_catalog.h.
 *
 * Precision is chosen at build time:
 *   (none)            float storage, float arithmetic
 *   GPU_HALF_STORAGE  half storage through vload_half/vstore_half (core
 *                     OpenCL C, no extension needed), float arithmetic
 *   GPU_HALF_MATH     half storage and arithmetic (needs cl_khr_fp16) */

/* float32 results follow cpu_ref's operation order without fused
 * multiply-adds, so that they stay within the references' tight bounds;
 * the half modes keep the faster contracted arithmetic. */
#if !defined(GPU_HALF_MATH) && !defined(GPU_HALF_STORAGE)
#pragma OPENCL FP_CONTRACT OFF
#endif

#if defined(GPU_HALF_MATH)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define FLT half
#define FLT4 half4
#define STORAGE half
#define LOAD4(p, i) vload4((i), (p))
#define STORE4(p, i, v) vstore4((v), (i), (p))
#define LOAD1(p, i) ((p)[(i)])
#define TO_FLT4(v) convert_half4(v)
#elif defined(GPU_HALF_STORAGE)
#define FLT float
#define FLT4 float4
#define STORAGE half
#define LOAD4(p, i) vload_half4((i), (p))
#define STORE4(p, i, v) vstore_half4_rte((v), (i), (p))
#define LOAD1(p, i) vload_half((i), (p))
#define TO_FLT4(v) (v)
#else
#define FLT float
#define FLT4 float4
#define STORAGE float
#define LOAD4(p, i) vload4((i), (p))
#define STORE4(p, i, v) vstore4((v), (i), (p))
#define LOAD1(p, i) ((p)[(i)])
#define TO_FLT4(v) (v)
#endif

/* A vector of four equal values in the arithmetic type. */
#define F4(x) ((FLT4)((FLT)(x)))

/* Parameter block (gpu_kernel_catalog.h). */
#define P_POST_COUNT 7
#define P_OUT_B 8
#define P_OUT_H 9
#define P_OUT_W 10
#define P_OUT_C 11
#define P_OUT_S 12
#define P_OUT_DENSE 13
#define P_OUT_SCALE 14
#define P_OUT_ZERO 15
#define P_POSTS 16
#define POST_SIZE 12
#define P_KERNEL 64

#define POST_CLAMP 1
#define POST_UNARY 2
#define POST_BINARY 3
#define POST_PRELU 4
#define POST_QUANTIZE 5
/* P_OUT_DENSE: 1 + gpu_dense_kind, and flags (gpu_kernel_catalog.h;
 * GPU_IN_WORDS, 8, chooses gpu_conv2d_words's entry point instead). */
#define OUT_DENSE_KIND_MASK 7
#define OUT_DENSE_GRID 16

#define KERNEL_ARGS                                                                      \
  __global const int *params, int base, __global STORAGE *t0, __global STORAGE *t1,       \
      __global STORAGE *t2, __global STORAGE *t3, __global STORAGE *t4,                   \
      __global STORAGE *t5, __global STORAGE *t6
#define TENSOR_ARGS                                                                      \
  __global STORAGE *t0, __global STORAGE *t1, __global STORAGE *t2, __global STORAGE *t3, \
      __global STORAGE *t4, __global STORAGE *t5, __global STORAGE *t6
#define TENSORS t0, t1, t2, t3, t4, t5, t6

/* P: this dispatch's parameters; K: the kernel's own. Offsets move each
 * tensor argument to its first element. */
#define KERNEL_START                                           \
  __global const int *P = params + base;                       \
  __global const int *K = P + P_KERNEL;                        \
  t0 += P[0];                                                  \
  t1 += P[1];                                                  \
  t2 += P[2];                                                  \
  t3 += P[3];                                                  \
  t4 += P[4];                                                  \
  t5 += P[5];                                                  \
  t6 += P[6]

/* The output coordinates of a work item over (x, b * H + y, slice). */
#define OUTPUT_COORDS                                                        \
  int x = get_global_id(0), by = get_global_id(1), s = get_global_id(2);     \
  if (x >= P[P_OUT_W] || by >= P[P_OUT_B] * P[P_OUT_H] || s >= P[P_OUT_S]) \
    return;                                                                  \
  int b = by / P[P_OUT_H], y = by - b * P[P_OUT_H]

__global STORAGE *slot_pointer(int slot, TENSOR_ARGS) {
  switch (slot) {
  case 1: return t1;
  case 2: return t2;
  case 3: return t3;
  case 4: return t4;
  case 5: return t5;
  default: return t6;
  }
}

/* A tensor read at output coordinates: d holds its slice strides for b, y,
 * x, s (0 along broadcast dims) and a flag for one channel broadcast to
 * all. */
FLT4 read_operand(__global const int *d, __global STORAGE *t, int b, int y, int x, int s) {
  FLT4 v = LOAD4(t, b * d[0] + y * d[1] + x * d[2] + s * d[3]);
  if (d[4]) v = (FLT4)(v.x);
  return v;
}

FLT4 apply_unary(int code, FLT4 v, float alpha) {
  switch (code) {
  case 1: return fmax(v, F4(0));
  case 2: return fmin(fmax(v, F4(0)), F4(6));
  case 3: return fmin(fmax(v, F4(-1)), F4(1));
  case 4: return F4(1) / (F4(1) + exp(-v));
  case 5: return v * fmin(F4(6), fmax(F4(0), v + F4(3))) / F4(6);
  case 6: return tanh(v);
  case 7: return exp(v);
  case 9: return sqrt(v);
  default: return select(v * (FLT)alpha, v, v > F4(0));
  }
}

FLT4 apply_binary(int code, FLT4 a, FLT4 b) {
  switch (code) {
  case 1: return a + b;
  case 2: return a - b;
  case 3: return a * b;
  case 4: return a / b;
  case 5: return fmax(a, b);
  case 6: return fmin(a, b);
  case 8: return floor(a / b);
  default: return select(F4(0), F4(1), (a != F4(0)) & (b != F4(0)));
  }
}

/* The integer of real value x on the grid of scale, zero point, qmin,
 * qmax: TFLite's quantization, round half away from zero (OpenCL's
 * round), then clamp. Used by the output edge (gpu_from_slices, or the
 * epilogue storing a quantized output dense). */
int quantize_real(float x, float scale, int zero, int qmin, int qmax) {
  float q = round(x / scale) + (float)zero;
  return (int)fmin(fmax(q, (float)qmin), (float)qmax);
}

/* v as a kernel reading it back from t0 would see it: rounded to half in
 * the half storage modes (the value gpu_from_slices quantizes). */
float4 as_stored_float4(FLT4 v) {
#if defined(GPU_HALF_STORAGE)
  ushort stored[4]; /* half is a pointer type only without cl_khr_fp16 */
  vstore_half4_rte(v, 0, (half *)stored);
  return vload_half4(0, (const half *)stored);
#else
  return convert_float4(v);
#endif
}

/* Stores lanes [0, count) of the quantized slice v as the integers of
 * dense kind (gpu_dense_kind: 2 uint8, 3 int8, 4 int16) at bytes. */
void store_quantized(__global uchar *bytes, int kind, float4 v, int count, float scale,
                     int zero) {
  float lanes[4] = {v.x, v.y, v.z, v.w};
  for (int i = 0; i < count; ++i) {
    if (kind == 2) bytes[i] = (uchar)quantize_real(lanes[i], scale, zero, 0, 255);
    else if (kind == 3)
      ((__global char *)bytes)[i] = (char)quantize_real(lanes[i], scale, zero, -128, 127);
    else
      ((__global short *)bytes)[i] = (short)quantize_real(lanes[i], scale, zero, -32768, 32767);
  }
}

/* The float view of a quantized tensor (POST_QUANTIZE post-op q): the
 * integers of v on its grid, in float32 whatever the storage (round: half
 * away from zero), at slice s of output pixel (b, y, x). */
float4 grid_integers(__global const int *q, TENSOR_ARGS, int b, int y, int x, int s, FLT4 v) {
  float scale = as_float(q[8]), zero = (float)q[9];
  float4 g;
  if (q[1] == 1) {
    /* In the integers, as pooling and resize average them; near-ties
     * (GPU_GRID_TIE_SLACK) as ties. */
    float4 u = convert_float4(v) / scale + zero;
    g = copysign(floor(fabs(u) + 0.5f + 1.0f / 1024.0f), u);
  } else if (q[1] >= 2) {
    /* TFLite's fixed-point requantization (q[1] 2: ties upward, 3: away
     * from zero), rounded twice: at 1/f LSB, then to the LSB; f = 2^right
     * shift per channel in the operand, or one for all channels in q[3]. */
    float4 f = q[2] ? convert_float4(read_operand(q + 3, slot_pointer(q[2], TENSORS), b, y, x, s))
                    : (float4)(as_float(q[3]));
    float4 rate = f / scale, inverse_step = 1.0f / f; /* 1 / f is exact */
    float4 t = floor(convert_float4(v) * rate + 0.5f);
    g = (q[1] == 2 ? floor(t * inverse_step + 0.5f)
                   : copysign(floor(fabs(t) * inverse_step + 0.5f), t)) + zero;
  } else {
    g = round(convert_float4(v) / scale) + zero;
  }
  return fmin(fmax(g, (float4)((float)q[10])), (float4)((float)q[11]));
}

/* Stores lanes [0, count) of the integers g (on the grid already) as dense
 * kind (gpu_dense_kind: 2 uint8, 3 int8, 4 int16) at bytes. */
void store_integers(__global uchar *bytes, int kind, float4 g, int count) {
  float lanes[4] = {g.x, g.y, g.z, g.w};
  for (int i = 0; i < count; ++i) {
    if (kind == 2) bytes[i] = (uchar)(int)lanes[i];
    else if (kind == 3) ((__global char *)bytes)[i] = (char)(int)lanes[i];
    else ((__global short *)bytes)[i] = (short)(int)lanes[i];
  }
}

/* Applies the post-ops to slice s of output pixel (b, y, x), zeroes the
 * channels past C and stores it. */
void finish_slice(__global const int *P, TENSOR_ARGS, int b, int y, int x, int s, FLT4 v) {
  int count = P[P_POST_COUNT];
  for (int i = 0; i < count; ++i) {
    __global const int *q = P + P_POSTS + POST_SIZE * i;
    int type = q[0];
    if (type == POST_CLAMP) {
      v = fmin(fmax(v, F4(as_float(q[8]))), F4(as_float(q[9])));
    } else if (type == POST_UNARY) {
      v = apply_unary(q[1], v, as_float(q[8]));
    } else if (type == POST_QUANTIZE) {
      v = TO_FLT4((grid_integers(q, TENSORS, b, y, x, s, v) - (float)q[9]) * as_float(q[8]));
    } else {
      FLT4 o = read_operand(q + 3, slot_pointer(q[2], TENSORS), b, y, x, s);
      if (type == POST_BINARY)
        v = q[10] ? apply_binary(q[1], o, v) : apply_binary(q[1], v, o);
      else
        v = select(v * o, v, v >= F4(0));
    }
  }
  int c = s * 4, channels = P[P_OUT_C];
  int kind = (P[P_OUT_DENSE] & OUT_DENSE_KIND_MASK) - 1; /* gpu_dense_kind */
  if (kind >= 2) {
    /* A quantized partition output stored as the core wants it: its
     * integers, dense, its offset P[0] counted in bytes. */
    int size = kind == 4 ? 2 : 1;
    __global uchar *bytes = (__global uchar *)(t0 - P[0]) + P[0] +
                            (((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * channels + c) * size;
    if (P[P_OUT_DENSE] & OUT_DENSE_GRID) {
      /* The output's own grid rounding, kept out of the post-op loop: its
       * post-op lies just past the last one applied (GPU_OUT_DENSE_GRID). */
      float4 g = grid_integers(P + P_POSTS + POST_SIZE * count, TENSORS, b, y, x, s, v);
      store_integers(bytes, kind, g, min(4, channels - c));
      return;
    }
    store_quantized(bytes, kind, as_stored_float4(v), min(4, channels - c),
                    as_float(P[P_OUT_SCALE]), P[P_OUT_ZERO]);
    return;
  }
  if (kind == 0) {
    /* A partition output stored as the core wants it: dense float32, its
     * offset P[0] counted in floats (t0 moved by P[0] stored values). */
    __global float *dense = (__global float *)(t0 - P[0]) + P[0] +
                            ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * channels + c;
    float4 f = convert_float4(v);
    dense[0] = f.x;
    if (c + 1 < channels) dense[1] = f.y;
    if (c + 2 < channels) dense[2] = f.z;
    if (c + 3 < channels) dense[3] = f.w;
    return;
  }
  if (c + 1 >= channels) v.y = (FLT)0;
  if (c + 2 >= channels) v.z = (FLT)0;
  if (c + 3 >= channels) v.w = (FLT)0;
  STORE4(t0, ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * P[P_OUT_S] + s, v);
}

/* Channel c of a pixel whose slices start at slice index pixel_slice. */
FLT load_channel(__global STORAGE *t, int pixel_slice, int c) {
  return LOAD1(t, pixel_slice * 4 + c);
}

/* Sets lane i of v. */
FLT4 with_lane(FLT4 v, int i, FLT value) {
  if (i == 0) v.x = value;
  else if (i == 1) v.y = value;
  else if (i == 2) v.z = value;
  else v.w = value;
  return v;
}

/* An operand read as the kernel's main input: t0 <- t1 (+ post-ops). */
__kernel void gpu_elementwise(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  finish_slice(P, TENSORS, b, y, x, s, read_operand(K, t1, b, y, x, s));
}
