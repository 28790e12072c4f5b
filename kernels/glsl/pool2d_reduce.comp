/* Pooling with a large window and few outputs (global pooling): a work
 * group per output slice, its items taking window positions r, r + n, ...
 * and item 0 combining their partial maxima or sums in item order.
 * Parameters as gpu_pool2d's; global: items, output pixels, slices. */
const int POOL_MAX_ITEMS = 256;
shared vec4 partial[POOL_MAX_ITEMS];
shared int partial_count[POOL_MAX_ITEMS];

void main() {
  kernel_start();
  int r = int(gl_LocalInvocationID.x), items = min(int(gl_WorkGroupSize.x), POOL_MAX_ITEMS);
  int pixel = int(gl_GlobalInvocationID.y), s = int(gl_GlobalInvocationID.z);
  int out_h = P(P_OUT_H), out_w = P(P_OUT_W);
  /* No early return before the barrier: every item must reach it. */
  bool in_range = pixel < P(P_OUT_B) * out_h * out_w && s < P(P_OUT_S);
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_h = K(0), in_w = K(1), in_s = K(2), kw = K(4);
  bool is_max = K(9) != 0;
  int y0 = y * K(5) - K(7), x0 = x * K(6) - K(8);
  GPU_PRECISE vec4 acc = is_max ? vec4(negative_infinity()) : vec4(0.0);
  int count = 0;
  for (int at = r; in_range && r < items && at < K(3) * kw; at += items) {
    int iy = y0 + at / kw, ix = x0 + at % kw;
    if (iy < K(10) || iy >= K(11) || ix < K(12) || ix >= K(13)) continue;
    ++count;
    vec4 v = vec4(0.0);
    if (iy >= 0 && iy < in_h && ix >= 0 && ix < in_w)
      v = vec4(load4(1, ((b * in_h + iy) * in_w + ix) * in_s + s));
    acc = is_max ? max(acc, v) : acc + v;
  }
  if (r < POOL_MAX_ITEMS) {
    partial[r] = acc;
    partial_count[r] = count;
  }
  memoryBarrierShared();
  barrier();
  if (!in_range || r != 0) return;
  GPU_PRECISE vec4 total = partial[0];
  int counted = partial_count[0];
  for (int i = 1; i < items; ++i) {
    total = is_max ? max(total, partial[i]) : total + partial[i];
    counted += partial_count[i];
  }
  FLT4 result = FLT4(0);
  if (counted > 0) result = FLT4(is_max ? total : total / float(counted));
  finish_slice(b, y, x, s, result);
}
