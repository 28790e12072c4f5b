/* t0 <- transposed conv(t1, weights t2 laid out as gpu_conv2d's, bias t3):
 * each output gathers the inputs whose taps land on it. */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(0), in_w = K(1), in_s = K(2), kh = K(3), kw = K(4);
  int stride_h = K(5), stride_w = K(6);
  vec4 acc = vec4(load4(3, s));
  int w_base = s * kh * kw * in_s * 4;
  for (int ky = 0; ky < kh; ++ky) {
    int ty = y + K(7) - ky;
    if (ty < 0 || ty % stride_h != 0 || ty / stride_h >= in_h) continue;
    int iy = ty / stride_h;
    for (int kx = 0; kx < kw; ++kx) {
      int tx = x + K(8) - kx;
      if (tx < 0 || tx % stride_w != 0 || tx / stride_w >= in_w) continue;
      int ix = tx / stride_w;
      int in_at = ((b * in_h + iy) * in_w + ix) * in_s;
      int w_at = w_base + (ky * kw + kx) * in_s * 4;
      for (int is = 0; is < in_s; ++is, w_at += 4) acc = madd4(load4(1, in_at + is), 2, w_at, acc);
    }
  }
  finish_slice(b, y, x, s, FLT4(acc));
}
