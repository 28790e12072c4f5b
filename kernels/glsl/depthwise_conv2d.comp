/* t0 <- depthwise conv(t1, weights t2 [slice][KH][KW] vectors, bias t3);
 * output channel c reads input channel c / K(11) (the multiplier). Taps go
 * column by column (kx outer, cpu_ref's and XNNPACK's order); the common
 * 3x3 and 5x5 windows get constant bounds the compiler unrolls. */
vec4 depthwise_taps(int kh, int kw, int b, int s, int y0, int x0, vec4 bias) {
  int in_h = K(0), in_w = K(1), in_s = K(2), multiplier = K(11);
  int last = P(P_OUT_C) - 1;
  PRECISE_FP32 vec4 acc = bias;
  for (int kx = 0; kx < kw; ++kx) {
    int ix = x0 + kx * K(8);
    if (ix < 0 || ix >= in_w) continue;
    for (int ky = 0; ky < kh; ++ky) {
      int iy = y0 + ky * K(7);
      if (iy < 0 || iy >= in_h) continue;
      int pixel_slice = ((b * in_h + iy) * in_w + ix) * in_s;
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
      acc += vec4(v) * vec4(load4(2, (s * kh + ky) * kw + kx));
    }
  }
  return acc;
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int kh = K(3), kw = K(4);
  int y0 = y * K(5) - K(9), x0 = x * K(6) - K(10);
  vec4 bias = vec4(load4(3, s));
  vec4 acc;
  if (kh == 3 && kw == 3)
    acc = depthwise_taps(3, 3, b, s, y0, x0, bias);
  else if (kh == 5 && kw == 5)
    acc = depthwise_taps(5, 5, b, s, y0, x0, bias);
  else
    acc = depthwise_taps(kh, kw, b, s, y0, x0, bias);
  finish_slice(b, y, x, s, FLT4(acc));
}
