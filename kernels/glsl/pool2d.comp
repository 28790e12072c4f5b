/* t0 <- max or average pool of t1. Window positions inside the counted
 * range K(10..14) take part (a fused PAD's zeros included); those outside
 * the input read as 0. Sums accumulate in float whatever the precision
 * (half sums overflow). */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(0), in_w = K(1), in_s = K(2);
  int y0 = y * K(5) - K(7), x0 = x * K(6) - K(8);
  bool is_max = K(9) != 0;
  FLT4 largest = FLT4(negative_infinity());
  GPU_PRECISE vec4 sum = vec4(0.0);
  int count = 0;
  for (int ky = 0; ky < K(3); ++ky) {
    int iy = y0 + ky;
    if (iy < K(10) || iy >= K(11)) continue;
    for (int kx = 0; kx < K(4); ++kx) {
      int ix = x0 + kx;
      if (ix < K(12) || ix >= K(13)) continue;
      ++count;
      FLT4 v = FLT4(0);
      if (iy >= 0 && iy < in_h && ix >= 0 && ix < in_w)
        v = load4(1, ((b * in_h + iy) * in_w + ix) * in_s + s);
      largest = max(largest, v);
      sum += vec4(v);
    }
  }
  FLT4 result = FLT4(0);
  if (count > 0) result = is_max ? largest : FLT4(sum / float(count));
  finish_slice(b, y, x, s, result);
}
