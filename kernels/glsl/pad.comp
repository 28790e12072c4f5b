/* t0 <- t1 padded: K(0..4) input B, H, W, C, K(4) its slices, K(5..9)
 * padding before each dim, K(9) the float bits of the pad value. */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int ib = b - K(5), iy = y - K(6), ix = x - K(7);
  FLT value = FLT(intBitsToFloat(K(9)));
  FLT4 v = FLT4(value);
  if (ib >= 0 && ib < K(0) && iy >= 0 && iy < K(1) && ix >= 0 && ix < K(2)) {
    int pixel_slice = ((ib * K(1) + iy) * K(2) + ix) * K(4);
    for (int lane = 0; lane < 4; ++lane) {
      int ic = s * 4 + lane - K(8);
      if (ic >= 0 && ic < K(3)) v = with_lane(v, lane, load_channel(1, pixel_slice, ic));
    }
  }
  finish_slice(b, y, x, s, v);
}
