/* t0 <- DEPTH_TO_SPACE(t1) in TensorFlow's DCR order: K(0..4) input
 * B, H, W, C, K(4) its slices, K(5) the block size. */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int block = K(5), out_c = P(P_OUT_C);
  int pixel_slice = ((b * K(1) + y / block) * K(2) + x / block) * K(4);
  int first = ((y % block) * block + x % block) * out_c;
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane)
    v = with_lane(v, lane, load_channel(1, pixel_slice, first + s * 4 + lane));
  finish_slice(b, y, x, s, v);
}
