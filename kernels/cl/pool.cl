/* Windows and reductions: pooling and MEAN. Sums accumulate in float
 * whatever the precision (half sums overflow). */

/* t0 <- max or average pool of t1. Window positions inside the counted
 * range K[10..14) take part (a fused PAD's zeros included); those outside
 * the input read as 0. */
__kernel void gpu_pool2d(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[0], in_w = K[1], in_s = K[2];
  int y0 = y * K[5] - K[7], x0 = x * K[6] - K[8];
  int is_max = K[9];
  FLT4 largest = F4(-INFINITY);
  float4 sum = (float4)(0.0f);
  int count = 0;
  for (int ky = 0; ky < K[3]; ++ky) {
    int iy = y0 + ky;
    if (iy < K[10] || iy >= K[11]) continue;
    for (int kx = 0; kx < K[4]; ++kx) {
      int ix = x0 + kx;
      if (ix < K[12] || ix >= K[13]) continue;
      ++count;
      FLT4 v = F4(0);
      if (iy >= 0 && iy < in_h && ix >= 0 && ix < in_w)
        v = LOAD4(t1, ((b * in_h + iy) * in_w + ix) * in_s + s);
      largest = fmax(largest, v);
      sum += convert_float4(v);
    }
  }
  FLT4 result = F4(0);
  if (count > 0) result = is_max ? largest : TO_FLT4(sum / (float)count);
  finish_slice(P, TENSORS, b, y, x, s, result);
}

/* t0 <- mean of t1 over the dims flagged in K[5..9). The output's pixels
 * enumerate the kept dims of (B, H, W); with the channels kept (K[9]) a
 * work item sums whole slices, else each lane sums its own elements. */
__kernel void gpu_mean(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_b = K[0], in_h = K[1], in_w = K[2], in_c = K[3], in_s = K[4];
  int red_b = K[5], red_h = K[6], red_w = K[7], red_c = K[8];
  int keep_b = red_b ? 1 : in_b, keep_h = red_h ? 1 : in_h, keep_w = red_w ? 1 : in_w;
  int keep_c = red_c ? 1 : in_c;
  int n_b = red_b ? in_b : 1, n_h = red_h ? in_h : 1, n_w = red_w ? in_w : 1;
  int pixel = by * P[P_OUT_W] + x;
  if (K[9]) {
    int ob = pixel / (keep_h * keep_w), oy = pixel / keep_w % keep_h, ox = pixel % keep_w;
    float4 sum = (float4)(0.0f);
    for (int ib = 0; ib < n_b; ++ib)
      for (int iy = 0; iy < n_h; ++iy)
        for (int ix = 0; ix < n_w; ++ix)
          sum += convert_float4(
              LOAD4(t1, (((ob + ib) * in_h + oy + iy) * in_w + ox + ix) * in_s + s));
    finish_slice(P, TENSORS, b, y, x, s, TO_FLT4(sum / (float)(n_b * n_h * n_w)));
    return;
  }
  int n_c = red_c ? in_c : 1;
  int out_c = P[P_OUT_C];
  FLT4 result = F4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane; /* dense index over the kept dims */
    int oc = at % keep_c;
    at /= keep_c;
    int ox = at % keep_w;
    at /= keep_w;
    int oy = at % keep_h;
    int ob = at / keep_h;
    float sum = 0.0f;
    for (int ib = 0; ib < n_b; ++ib)
      for (int iy = 0; iy < n_h; ++iy)
        for (int ix = 0; ix < n_w; ++ix) {
          int pixel_slice = (((ob + ib) * in_h + oy + iy) * in_w + ox + ix) * in_s;
          for (int ic = 0; ic < n_c; ++ic) sum += (float)load_channel(t1, pixel_slice, oc + ic);
        }
    result = with_lane(result, lane, (FLT)(sum / (float)(n_b * n_h * n_w * n_c)));
  }
  finish_slice(P, TENSORS, b, y, x, s, result);
}

/* Softmax over the channels of each pixel: exp((x - max) * beta) / sum. */
__kernel void gpu_softmax(KERNEL_ARGS) {
  KERNEL_START;
  int x = get_global_id(0), by = get_global_id(1);
  if (x >= P[P_OUT_W] || by >= P[P_OUT_B] * P[P_OUT_H] || get_global_id(2) != 0) return;
  int b = by / P[P_OUT_H], y = by - b * P[P_OUT_H];
  int slices = P[P_OUT_S], channels = P[P_OUT_C];
  int first = (by * P[P_OUT_W] + x) * slices;
  float beta = as_float(K[0]);
  float largest = -INFINITY;
  for (int c = 0; c < channels; ++c) largest = fmax(largest, (float)load_channel(t1, first, c));
  float sum = 0.0f;
  for (int c = 0; c < channels; ++c)
    sum += exp(((float)load_channel(t1, first, c) - largest) * beta);
  for (int s = 0; s < slices; ++s) {
    float4 v = convert_float4(LOAD4(t1, first + s));
    float4 e = exp((v - largest) * beta) / sum;
    finish_slice(P, TENSORS, b, y, x, s, TO_FLT4(e));
  }
}

/* Pooling with a large window and few outputs (global pooling): a work
 * group per output slice, its items taking window positions r, r + n, ...
 * and item 0 combining their partial maxima or sums in item order.
 * Parameters as gpu_pool2d's; global: items, output pixels, slices. */
#define POOL_MAX_ITEMS 256
__kernel void gpu_pool2d_reduce(KERNEL_ARGS) {
  __local float4 partial[POOL_MAX_ITEMS];
  __local int partial_count[POOL_MAX_ITEMS];
  KERNEL_START;
  int r = get_local_id(0), items = min((int)get_local_size(0), POOL_MAX_ITEMS);
  int pixel = get_global_id(1), s = get_global_id(2);
  int out_h = P[P_OUT_H], out_w = P[P_OUT_W];
  /* No early return before the barrier: every item must reach it. */
  int active = pixel < P[P_OUT_B] * out_h * out_w && s < P[P_OUT_S];
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_h = K[0], in_w = K[1], in_s = K[2], kw = K[4], is_max = K[9];
  int y0 = y * K[5] - K[7], x0 = x * K[6] - K[8];
  float4 acc = is_max ? (float4)(-INFINITY) : (float4)(0.0f);
  int count = 0;
  for (int at = r; active && r < items && at < K[3] * kw; at += items) {
    int iy = y0 + at / kw, ix = x0 + at % kw;
    if (iy < K[10] || iy >= K[11] || ix < K[12] || ix >= K[13]) continue;
    ++count;
    float4 v = (float4)(0.0f);
    if (iy >= 0 && iy < in_h && ix >= 0 && ix < in_w)
      v = convert_float4(LOAD4(t1, ((b * in_h + iy) * in_w + ix) * in_s + s));
    acc = is_max ? fmax(acc, v) : acc + v;
  }
  if (r < POOL_MAX_ITEMS) {
    partial[r] = acc;
    partial_count[r] = count;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active || r != 0) return;
  float4 total = partial[0];
  int counted = partial_count[0];
  for (int i = 1; i < items; ++i) {
    total = is_max ? fmax(total, partial[i]) : total + partial[i];
    counted += partial_count[i];
  }
  FLT4 result = F4(0);
  if (counted > 0) result = TO_FLT4(is_max ? total : total / (float)counted);
  finish_slice(P, TENSORS, b, y, x, s, result);
}
