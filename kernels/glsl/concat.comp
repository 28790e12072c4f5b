/* t0 <- concatenation of t1..t(K(1)) along axis K(0) of the 4-D view;
 * input i is described at K(2 + 6i): start, size along the axis, H, W, C,
 * S. */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int axis = K(0), inputs = K(1);
  FLT4 v = FLT4(0);
  if (axis < 3) {
    int at = axis == 0 ? b : (axis == 1 ? y : x);
    for (int i = 0; i < inputs; ++i) {
      int d = pbase + P_KERNEL + 2 + 6 * i;
      if (at < PA(d) || at >= PA(d) + PA(d + 1)) continue;
      int lb = axis == 0 ? b - PA(d) : b, ly = axis == 1 ? y - PA(d) : y;
      int lx = axis == 2 ? x - PA(d) : x;
      v = load4(1 + i, ((lb * PA(d + 2) + ly) * PA(d + 3) + lx) * PA(d + 5) + s);
    }
  } else {
    for (int lane = 0; lane < 4; ++lane) {
      int c = s * 4 + lane;
      for (int i = 0; i < inputs; ++i) {
        int d = pbase + P_KERNEL + 2 + 6 * i;
        if (c < PA(d) || c >= PA(d) + PA(d + 1)) continue;
        int pixel_slice = ((b * PA(d + 2) + y) * PA(d + 3) + x) * PA(d + 5);
        v = with_lane(v, lane, load_channel(1 + i, pixel_slice, c - PA(d)));
      }
    }
  }
  finish_slice(b, y, x, s, v);
}
