/* Convolutions. Weights of an output slice lie as [KH][KW][input slice][4]
 * vectors: vector i of an input slice holds, for its input channel i, the
 * weights of the slice's four output channels, so each input slice costs
 * four vector multiply-adds. Bias is one vector per output slice. */

/* acc + v.x * w[at] + v.y * w[at + 1] + ..., one input channel at a time
 * in order: the summation order of cpu_ref and XNNPACK, whose results some
 * models amplify (with contraction off in fp32, see common.cl). */
FLT4 madd4(FLT4 v, __global STORAGE *w, int at, FLT4 acc) {
  acc += v.x * LOAD4(w, at);
  acc += v.y * LOAD4(w, at + 1);
  acc += v.z * LOAD4(w, at + 2);
  acc += v.w * LOAD4(w, at + 3);
  return acc;
}

/* Input slice i of an 8-bit tensor read as words (GPU_IN_WORDS, K[12]
 * scale bits, K[13] zero point plus 128 for int8, K[14] the sign bits
 * that make int8 bytes unsigned, K[15] the lanes of the last slice that
 * are the tensor's): one word of four integers, dequantized as
 * gpu_to_slices would and rounded as it stores. A last slice only in part
 * the tensor's (a single pixel of C not a multiple of 4) is read byte by
 * byte, since this backend's buffers end where the tensor does, and its
 * lanes past C read as 0. */
FLT4 input_words_slice(__global const uchar *bytes, __global const int *K, int i) {
  int part = K[15] < 4 && i == K[2] - 1;
  uint word = 0;
  if (part) {
    for (int lane = 0; lane < K[15]; ++lane) word |= (uint)bytes[i * 4 + lane] << (8 * lane);
  } else {
    word = ((__global const uint *)bytes)[i];
  }
  word ^= (uint)K[14];
  int4 q = convert_int4((uint4)(word, word >> 8, word >> 16, word >> 24) & (uint4)(255u));
  float4 v = convert_float4(q - K[13]) * as_float(K[12]);
  if (part) v = select(v, (float4)(0.0f), (int4)(0, 1, 2, 3) >= (int4)(K[15]));
  return TO_FLT4(as_stored_float4(TO_FLT4(v)));
}

/* t0 <- conv(t1, weights t2, bias t3); each work item computes K[11]
 * (1 to 4) consecutive output slices, reusing every input slice it reads.
 * `words` (a constant in each entry point): t1 is an 8-bit tensor's
 * integers, dense, its offset P[1] in words (input_words_slice). */
inline void conv2d(__global const int *params, int base, TENSOR_ARGS, int words) {
  __global const uchar *t1_words = (__global const uchar *)t1 + 4 * params[base + 1];
  KERNEL_START;
  int x = get_global_id(0), by = get_global_id(1), group = get_global_id(2);
  int per_item = K[11], slices = P[P_OUT_S];
  int s0 = group * per_item;
  if (x >= P[P_OUT_W] || by >= P[P_OUT_B] * P[P_OUT_H] || s0 >= slices) return;
  int b = by / P[P_OUT_H], y = by - b * P[P_OUT_H];
  int in_h = K[0], in_w = K[1], in_s = K[2], kh = K[3], kw = K[4];
  int y0 = y * K[5] - K[9], x0 = x * K[6] - K[10];
  int count = min(per_item, slices - s0);
  int stride = kh * kw * in_s * 4; /* weight vectors per output slice */
  __global STORAGE *w0 = t2 + s0 * stride * 4;
  __global STORAGE *w1 = count > 1 ? w0 + stride * 4 : w0;
  __global STORAGE *w2 = count > 2 ? w1 + stride * 4 : w0;
  __global STORAGE *w3 = count > 3 ? w2 + stride * 4 : w0;
  FLT4 acc0 = LOAD4(t3, s0);
  FLT4 acc1 = count > 1 ? LOAD4(t3, s0 + 1) : F4(0);
  FLT4 acc2 = count > 2 ? LOAD4(t3, s0 + 2) : F4(0);
  FLT4 acc3 = count > 3 ? LOAD4(t3, s0 + 3) : F4(0);
  for (int ky = 0; ky < kh; ++ky) {
    int iy = y0 + ky * K[7];
    if (iy < 0 || iy >= in_h) continue;
    for (int kx = 0; kx < kw; ++kx) {
      int ix = x0 + kx * K[8];
      if (ix < 0 || ix >= in_w) continue;
      int in_at = ((b * in_h + iy) * in_w + ix) * in_s;
      int w_at = (ky * kw + kx) * in_s * 4;
      for (int is = 0; is < in_s; ++is, w_at += 4) {
        FLT4 v = words ? input_words_slice(t1_words, K, in_at + is) : LOAD4(t1, in_at + is);
        acc0 = madd4(v, w0, w_at, acc0);
        if (count > 1) acc1 = madd4(v, w1, w_at, acc1);
        if (count > 2) acc2 = madd4(v, w2, w_at, acc2);
        if (count > 3) acc3 = madd4(v, w3, w_at, acc3);
      }
    }
  }
  finish_slice(P, TENSORS, b, y, x, s0, acc0);
  if (count > 1) finish_slice(P, TENSORS, b, y, x, s0 + 1, acc1);
  if (count > 2) finish_slice(P, TENSORS, b, y, x, s0 + 2, acc2);
  if (count > 3) finish_slice(P, TENSORS, b, y, x, s0 + 3, acc3);
}

__kernel void gpu_conv2d(KERNEL_ARGS) { conv2d(params, base, TENSORS, 0); }

/* gpu_conv2d reading t1 as words (GPU_IN_WORDS: gpu_cl picks this entry
 * point when it creates the dispatch's kernel). */
__kernel void gpu_conv2d_words(KERNEL_ARGS) { conv2d(params, base, TENSORS, 1); }

/* The depthwise taps for one output slice: column by column (kx outer,
 * cpu_ref's and XNNPACK's order). A macro so that the common 3x3 and 5x5
 * windows get constant bounds the compiler unrolls, issuing every tap's
 * loads up front instead of one after another. */
#define DEPTHWISE_TAPS(KH, KW)                                                       \
  for (int kx = 0; kx < (KW); ++kx) {                                                \
    int ix = x0 + kx * K[8];                                                         \
    if (ix < 0 || ix >= in_w) continue;                                              \
    for (int ky = 0; ky < (KH); ++ky) {                                              \
      int iy = y0 + ky * K[7];                                                       \
      if (iy < 0 || iy >= in_h) continue;                                            \
      int pixel_slice = ((b * in_h + iy) * in_w + ix) * in_s;                        \
      FLT4 v;                                                                        \
      if (multiplier == 1) {                                                         \
        v = LOAD4(t1, pixel_slice + s);                                              \
      } else {                                                                       \
        /* Padding lanes read a valid channel: their weights are zero. */            \
        v.x = load_channel(t1, pixel_slice, min(s * 4, last) / multiplier);          \
        v.y = load_channel(t1, pixel_slice, min(s * 4 + 1, last) / multiplier);      \
        v.z = load_channel(t1, pixel_slice, min(s * 4 + 2, last) / multiplier);      \
        v.w = load_channel(t1, pixel_slice, min(s * 4 + 3, last) / multiplier);      \
      }                                                                              \
      acc += v * LOAD4(t2, (s * (KH) + ky) * (KW) + kx);                             \
    }                                                                                \
  }

/* t0 <- depthwise conv(t1, weights t2 [slice][KH][KW] vectors, bias t3);
 * output channel c reads input channel c / K[11] (the multiplier). */
__kernel void gpu_depthwise_conv2d(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[0], in_w = K[1], in_s = K[2], kh = K[3], kw = K[4], multiplier = K[11];
  int y0 = y * K[5] - K[9], x0 = x * K[6] - K[10];
  int last = P[P_OUT_C] - 1;
  FLT4 acc = LOAD4(t3, s);
  if (kh == 3 && kw == 3) {
    DEPTHWISE_TAPS(3, 3)
  } else if (kh == 5 && kw == 5) {
    DEPTHWISE_TAPS(5, 5)
  } else {
    DEPTHWISE_TAPS(kh, kw)
  }
  finish_slice(P, TENSORS, b, y, x, s, acc);
}

/* t0 <- transposed conv(t1, weights t2 laid out as gpu_conv2d's, bias t3):
 * each output gathers the inputs whose taps land on it. */
__kernel void gpu_transpose_conv2d(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[0], in_w = K[1], in_s = K[2], kh = K[3], kw = K[4];
  int stride_h = K[5], stride_w = K[6];
  FLT4 acc = LOAD4(t3, s);
  int w_base = s * kh * kw * in_s * 4;
  for (int ky = 0; ky < kh; ++ky) {
    int ty = y + K[7] - ky;
    if (ty < 0 || ty % stride_h != 0 || ty / stride_h >= in_h) continue;
    int iy = ty / stride_h;
    for (int kx = 0; kx < kw; ++kx) {
      int tx = x + K[8] - kx;
      if (tx < 0 || tx % stride_w != 0 || tx / stride_w >= in_w) continue;
      int ix = tx / stride_w;
      int in_at = ((b * in_h + iy) * in_w + ix) * in_s;
      int w_at = w_base + (ky * kw + kx) * in_s * 4;
      for (int is = 0; is < in_s; ++is, w_at += 4) {
        FLT4 v = LOAD4(t1, in_at + is);
        acc = madd4(v, t2, w_at, acc);
      }
    }
  }
  finish_slice(P, TENSORS, b, y, x, s, acc);
}

/* 1x1 convolution (FULLY_CONNECTED too) for layers with few outputs and
 * many input channels: one work group per output slice, its work items
 * splitting the input slices (item r takes r, r + n, ...) and the partial
 * sums added in item order. Weights and parameters as gpu_conv2d's.
 * Whatever work-group size the device grants, each group computes the whole
 * sum, so extra groups along dimension 0 only repeat the same result. */
#define SPLIT_MAX_ITEMS 64
__kernel void gpu_conv2d_split(KERNEL_ARGS) {
  __local FLT4 partial[SPLIT_MAX_ITEMS];
  KERNEL_START;
  int r = get_local_id(0), items = min((int)get_local_size(0), SPLIT_MAX_ITEMS);
  int pixel = get_global_id(1), s = get_global_id(2);
  int out_h = P[P_OUT_H], out_w = P[P_OUT_W];
  /* No early return before the barrier: every item must reach it. */
  int active = pixel < P[P_OUT_B] * out_h * out_w && s < P[P_OUT_S];
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_s = K[2];
  int in_at = ((b * K[0] + y * K[5] - K[9]) * K[1] + x * K[6] - K[10]) * in_s;
  __global STORAGE *w = t2 + s * in_s * 16;
  FLT4 acc = F4(0);
  if (active && r < items)
    for (int is = r; is < in_s; is += items) acc = madd4(LOAD4(t1, in_at + is), w, is * 4, acc);
  if (r < SPLIT_MAX_ITEMS) partial[r] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active || r != 0) return;
  FLT4 total = LOAD4(t3, s);
  for (int i = 0; i < items; ++i) total += partial[i];
  finish_slice(P, TENSORS, b, y, x, s, total);
}

/* Convolution (FULLY_CONNECTED too) for layers with few output pixels and
 * a large receptive field, keeping cpu_ref's summation order: one work
 * item per output channel, bias first, then every tap (ky, kx, input
 * channel) in order. A work group serves one pixel: it first copies the
 * pixel's receptive field to local memory (zeros outside the input), then
 * each item runs its sum over the taps with weights laid out four taps to
 * a vector, [tap / 4][output channel][tap % 4] (pack_ordered_weights), so
 * a warp's weight loads are contiguous vectors. K as gpu_conv2d's, K[11]
 * the input channels; t2 weights, t3 bias (scalars);
 * global: output channels rounded up to the group, pixels. */
#define ORDERED_MAX_TAPS 4096
#define ORDERED_MAX_ITEMS 256

/* acc + taps[0] * w(0) + taps[1] * w(1) + ... + taps[count - 1] *
 * w(count - 1), added in that order, w(r) the item's weight for tap r:
 * lane r % 4 of vector r / 4 * padded + channel of w. The adds form one
 * dependent chain and few work items run these kernels, so nothing hides
 * the loads' latency but their number in flight: a batch's loads all go
 * out before its adds (8 vectors, 32 taps, at a time). */
#define ORDERED_BATCH 8
FLT ordered_sum(FLT acc, __local const FLT *taps, __global STORAGE *w, int channel, int padded,
                int count) {
  int whole = count / 4, q = 0;
  for (; q + ORDERED_BATCH <= whole; q += ORDERED_BATCH) {
    FLT4 batch[ORDERED_BATCH];
#pragma unroll
    for (int i = 0; i < ORDERED_BATCH; ++i) batch[i] = LOAD4(w, (q + i) * padded + channel);
#pragma unroll
    for (int i = 0; i < ORDERED_BATCH; ++i) {
      __local const FLT *four = taps + (q + i) * 4;
      acc += four[0] * batch[i].x;
      acc += four[1] * batch[i].y;
      acc += four[2] * batch[i].z;
      acc += four[3] * batch[i].w;
    }
  }
  for (; q < whole; ++q) {
    FLT4 weight = LOAD4(w, q * padded + channel);
    __local const FLT *four = taps + q * 4;
    acc += four[0] * weight.x;
    acc += four[1] * weight.y;
    acc += four[2] * weight.z;
    acc += four[3] * weight.w;
  }
  int r = whole * 4;
  if (r < count) {
    /* The last taps' vector: lanes past count are padding. */
    FLT4 weight = LOAD4(w, whole * padded + channel);
    acc += taps[r] * weight.x;
    if (r + 1 < count) acc += taps[r + 1] * weight.y;
    if (r + 2 < count) acc += taps[r + 2] * weight.z;
  }
  return acc;
}

/* The second half of both ordered kernels, once the pixel's taps are in
 * local memory: each item sums one output channel in order, its bias
 * (bias[channel]) first, weights (ordered_sum's layout) from w; the items
 * holding the first channel of a slice store it. Every item of the group
 * calls it (it holds barriers). */
void ordered_finish(__global const int *P, TENSOR_ARGS, __local const FLT *taps,
                    __local FLT *result, int active, int b, int y, int x,
                    __global STORAGE *bias, __global STORAGE *w, int count) {
  int t = get_local_id(0), items = min((int)get_local_size(0), ORDERED_MAX_ITEMS);
  barrier(CLK_LOCAL_MEM_FENCE);
  int padded = P[P_OUT_S] * 4;
  int oc = get_group_id(0) * items + t;
  FLT acc = (FLT)0;
  if (active && t < items && oc < padded)
    acc = ordered_sum(LOAD1(bias, oc), taps, w, oc, padded, count);
  if (t < ORDERED_MAX_ITEMS) result[t] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active || t % 4 != 0 || t + 3 >= items || oc >= padded) return;
  FLT4 v = (FLT4)(result[t], result[t + 1], result[t + 2], result[t + 3]);
  finish_slice(P, TENSORS, b, y, x, oc / 4, v);
}

__kernel void gpu_conv_ordered(KERNEL_ARGS) {
  __local FLT taps[ORDERED_MAX_TAPS];
  __local FLT result[ORDERED_MAX_ITEMS];
  KERNEL_START;
  int t = get_local_id(0), items = min((int)get_local_size(0), ORDERED_MAX_ITEMS);
  int pixel = get_global_id(1);
  int out_h = P[P_OUT_H], out_w = P[P_OUT_W];
  /* No early return before the barriers: every item must reach them. */
  int active = pixel < P[P_OUT_B] * out_h * out_w;
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_h = K[0], in_w = K[1], in_s = K[2], kw = K[4], in_c = K[11];
  int count = K[3] * kw * in_c;
  int y0 = y * K[5] - K[9], x0 = x * K[6] - K[10];
  for (int r = t; active && r < count; r += items) {
    int ic = r % in_c, tap = r / in_c;
    int iy = y0 + tap / kw * K[7], ix = x0 + tap % kw * K[8];
    taps[r] = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w
                  ? load_channel(t1, ((b * in_h + iy) * in_w + ix) * in_s, ic)
                  : (FLT)0;
  }
  ordered_finish(P, TENSORS, taps, result, active, b, y, x, t3, t2, count);
}

/* A depthwise convolution and the 1x1 convolution that is its only reader,
 * in one dispatch (gpu_kernel_catalog.h): t1 input, t2 and t3 the
 * depthwise weights and bias, t4 the 1x1's weights with its bias K[18]
 * values further (t5 and t6 stay free for post-ops). K[0..12) as
 * gpu_depthwise_conv2d's, K[12] depthwise channels, K[13] their slices,
 * K[14] 1 when the depthwise values are clamped to [K[15], K[16]] (its
 * fused activation). Each depthwise value is computed exactly as
 * gpu_depthwise_conv2d computes it and goes to the 1x1 sum without being
 * stored. */

/* Depthwise slice s at output pixel (b, y, x). */
FLT4 depthwise_value(__global const int *K, __global STORAGE *t1, __global STORAGE *t2,
                     __global STORAGE *t3, int b, int y, int x, int s) {
  int in_h = K[0], in_w = K[1], in_s = K[2], kh = K[3], kw = K[4], multiplier = K[11];
  int y0 = y * K[5] - K[9], x0 = x * K[6] - K[10];
  int last = K[12] - 1;
  FLT4 acc = LOAD4(t3, s);
  if (kh == 3 && kw == 3) {
    DEPTHWISE_TAPS(3, 3)
  } else if (kh == 5 && kw == 5) {
    DEPTHWISE_TAPS(5, 5)
  } else {
    DEPTHWISE_TAPS(kh, kw)
  }
  if (K[14]) acc = fmin(fmax(acc, F4(as_float(K[15]))), F4(as_float(K[16])));
  return acc;
}

/* ... with the 1x1 as gpu_conv_ordered: a work group per pixel puts the
 * pixel's depthwise values in local memory, then each item sums one output
 * channel over them in order. 1x1 weights as gpu_conv_ordered's (the input
 * channels its taps), bias as scalars; global as gpu_conv_ordered's. */
__kernel void gpu_depthwise_conv_ordered(KERNEL_ARGS) {
  __local FLT taps[ORDERED_MAX_TAPS];
  __local FLT result[ORDERED_MAX_ITEMS];
  KERNEL_START;
  int t = get_local_id(0), items = min((int)get_local_size(0), ORDERED_MAX_ITEMS);
  int pixel = get_global_id(1);
  int out_h = P[P_OUT_H], out_w = P[P_OUT_W];
  /* No early return before the barriers: every item must reach them. */
  int active = pixel < P[P_OUT_B] * out_h * out_w;
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int count = K[12], depthwise_slices = K[13];
  for (int ds = t; active && t < items && ds < depthwise_slices; ds += items) {
    FLT4 v = depthwise_value(K, t1, t2, t3, b, y, x, ds);
    taps[ds * 4] = v.x;
    taps[ds * 4 + 1] = v.y;
    taps[ds * 4 + 2] = v.z;
    taps[ds * 4 + 3] = v.w;
  }
  ordered_finish(P, TENSORS, taps, result, active, b, y, x, t4 + K[18], t4, count);
}

/* ... with the 1x1 as gpu_conv2d: each work item computes K[17] output
 * slices of one pixel, the depthwise slices in turn feeding all of them.
 * 1x1 weights in gpu_conv2d's layout, bias vectors; global as
 * gpu_conv2d's. */
__kernel void gpu_depthwise_conv2d_1x1(KERNEL_ARGS) {
  KERNEL_START;
  int x = get_global_id(0), by = get_global_id(1), group = get_global_id(2);
  int per_item = K[17], slices = P[P_OUT_S];
  int s0 = group * per_item;
  if (x >= P[P_OUT_W] || by >= P[P_OUT_B] * P[P_OUT_H] || s0 >= slices) return;
  int b = by / P[P_OUT_H], y = by - b * P[P_OUT_H];
  int in_s = K[13];
  int count = min(per_item, slices - s0);
  int stride = in_s * 4; /* weight vectors per output slice */
  __global STORAGE *w0 = t4 + s0 * stride * 4;
  __global STORAGE *w1 = count > 1 ? w0 + stride * 4 : w0;
  __global STORAGE *w2 = count > 2 ? w1 + stride * 4 : w0;
  __global STORAGE *w3 = count > 3 ? w2 + stride * 4 : w0;
  __global STORAGE *bias = t4 + K[18];
  FLT4 acc0 = LOAD4(bias, s0);
  FLT4 acc1 = count > 1 ? LOAD4(bias, s0 + 1) : F4(0);
  FLT4 acc2 = count > 2 ? LOAD4(bias, s0 + 2) : F4(0);
  FLT4 acc3 = count > 3 ? LOAD4(bias, s0 + 3) : F4(0);
  for (int is = 0; is < in_s; ++is) {
    FLT4 v = depthwise_value(K, t1, t2, t3, b, y, x, is);
    int w_at = is * 4;
    acc0 = madd4(v, w0, w_at, acc0);
    if (count > 1) acc1 = madd4(v, w1, w_at, acc1);
    if (count > 2) acc2 = madd4(v, w2, w_at, acc2);
    if (count > 3) acc3 = madd4(v, w3, w_at, acc3);
  }
  finish_slice(P, TENSORS, b, y, x, s0, acc0);
  if (count > 1) finish_slice(P, TENSORS, b, y, x, s0 + 1, acc1);
  if (count > 2) finish_slice(P, TENSORS, b, y, x, s0 + 2, acc2);
  if (count > 3) finish_slice(P, TENSORS, b, y, x, s0 + 3, acc3);
}
