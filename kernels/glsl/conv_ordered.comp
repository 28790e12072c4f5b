/* Convolution (FULLY_CONNECTED too) for layers with few output pixels and
 * a large receptive field, keeping cpu_ref's summation order: one work
 * item per output channel, bias first, then every tap (ky, kx, input
 * channel) in order. A work group serves one pixel: it first copies the
 * pixel's receptive field to shared memory (zeros outside the input), then
 * each item runs its sum over the taps with weights laid out four taps to
 * a vector, [tap / 4][output channel][tap % 4] (pack_ordered_weights). K
 * as gpu_conv2d's, K(11) the input channels; t2 weights, t3 bias
 * (scalars); global: output channels rounded up to the
 * group, pixels. The taps' memory then passes the results between items,
 * so the kernel needs no more than the 16 KiB of shared memory every
 * device has. */
DEFINE_ORDERED_PARTS

void main() {
  kernel_start();
  int t = int(gl_LocalInvocationID.x), items = min(int(gl_WorkGroupSize.x), ORDERED_MAX_ITEMS);
  int pixel = int(gl_GlobalInvocationID.y);
  int out_h = P(P_OUT_H), out_w = P(P_OUT_W);
  /* No early return before the barriers: every item must reach them. */
  bool in_range = pixel < P(P_OUT_B) * out_h * out_w;
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_h = K(0), in_w = K(1), in_s = K(2), kw = K(4), in_c = K(11);
  int count = K(3) * kw * in_c;
  int y0 = y * K(5) - K(9), x0 = x * K(6) - K(10);
  for (int r = t; in_range && r < count; r += items) {
    int ic = r % in_c, tap = r / in_c;
    int iy = y0 + tap / kw * K(7), ix = x0 + tap % kw * K(8);
    taps[r] = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w
                  ? load_channel(1, ((b * in_h + iy) * in_w + ix) * in_s, ic)
                  : FLT(0);
  }
  ordered_finish(in_range, b, y, x, 3, 0, 2, count, false);
}
