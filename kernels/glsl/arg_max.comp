/* t0 <- the index of the first largest (K(7) 1: smallest) value along an
 * axis of t1, as a float value (exact in fp32, and in fp16 up to 2048: the
 * support check bounds the axis; gpu_from_slices writes it as int32 or
 * int64): K(0..4) input B, H, W, C, K(4) its slices, K(5) the axis' size,
 * K(6) the product of the dims after it (in the input's 4-D view). */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(1), in_w = K(2), in_c = K(3), in_s = K(4), size = K(5), inner = K(6);
  int out_c = P(P_OUT_C), pixel = by * P(P_OUT_W) + x;
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane;
    int first = (at / inner) * size * inner + at % inner;
    int best = 0;
    FLT best_value = FLT(0);
    for (int k = 0; k < size; ++k) {
      int e = first + k * inner;
      int ic = e % in_c;
      e /= in_c;
      int ix = e % in_w;
      e /= in_w;
      int iy = e % in_h;
      int ib = e / in_h;
      FLT value = load_channel(1, ((ib * in_h + iy) * in_w + ix) * in_s, ic);
      if (k == 0 || (K(7) != 0 ? value < best_value : value > best_value)) {
        best = k;
        best_value = value;
      }
    }
    v = with_lane(v, lane, FLT(best));
  }
  finish_slice(b, y, x, s, v);
}
