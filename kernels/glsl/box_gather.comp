/* t0 element number L (dense order) <- t1 at box coordinate L: K(0..4)
 * input B, H, W, C, K(4) its slices, K(5..9) box start, K(9..13) stride,
 * K(13..17) size; K(17) 1 when whole slices map through; K(18) 1 when L
 * walks the box in another dim order, output dim k being input dim
 * K(19 + k) (TRANSPOSE). */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(1), in_w = K(2), in_s = K(4);
  int start = pbase + P_KERNEL + 5, step = pbase + P_KERNEL + 9, size = pbase + P_KERNEL + 13;
  int pixel = by * P(P_OUT_W) + x;
  FLT4 v = FLT4(0);
  if (K(17) != 0) {
    int ix = pixel % PA(size + 2), rest = pixel / PA(size + 2);
    int iy = rest % PA(size + 1), ib = rest / PA(size + 1);
    ib = PA(start) + ib * PA(step);
    iy = PA(start + 1) + iy * PA(step + 1);
    ix = PA(start + 2) + ix * PA(step + 2);
    v = load4(1, ((ib * in_h + iy) * in_w + ix) * in_s + s);
  } else {
    int out_c = P(P_OUT_C);
    for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
      int at = pixel * out_c + s * 4 + lane;
      int coord[4];
      for (int k = 3; k >= 0; --k) {
        int dim = K(18) != 0 ? K(19 + k) : k;
        coord[dim] = at % PA(size + dim);
        at /= PA(size + dim);
      }
      int ib = PA(start) + coord[0] * PA(step);
      int iy = PA(start + 1) + coord[1] * PA(step + 1);
      int ix = PA(start + 2) + coord[2] * PA(step + 2);
      int ic = PA(start + 3) + coord[3] * PA(step + 3);
      v = with_lane(v, lane, load_channel(1, ((ib * in_h + iy) * in_w + ix) * in_s, ic));
    }
  }
  finish_slice(b, y, x, s, v);
}
