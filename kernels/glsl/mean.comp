/* t0 <- mean of t1 over the dims flagged in K(5..9). The output's pixels
 * enumerate the kept dims of (B, H, W); with the channels kept (K(9)) a
 * work item sums whole slices, else each lane sums its own elements. */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_b = K(0), in_h = K(1), in_w = K(2), in_c = K(3), in_s = K(4);
  bool red_b = K(5) != 0, red_h = K(6) != 0, red_w = K(7) != 0, red_c = K(8) != 0;
  int keep_h = red_h ? 1 : in_h, keep_w = red_w ? 1 : in_w;
  int keep_c = red_c ? 1 : in_c;
  int n_b = red_b ? in_b : 1, n_h = red_h ? in_h : 1, n_w = red_w ? in_w : 1;
  int pixel = by * P(P_OUT_W) + x;
  if (K(9) != 0) {
    int ob = pixel / (keep_h * keep_w), oy = pixel / keep_w % keep_h, ox = pixel % keep_w;
    GPU_PRECISE vec4 sum = vec4(0.0);
    for (int ib = 0; ib < n_b; ++ib)
      for (int iy = 0; iy < n_h; ++iy)
        for (int ix = 0; ix < n_w; ++ix)
          sum += vec4(load4(1, (((ob + ib) * in_h + oy + iy) * in_w + ox + ix) * in_s + s));
    finish_slice(b, y, x, s, FLT4(sum / float(n_b * n_h * n_w)));
    return;
  }
  int n_c = red_c ? in_c : 1;
  int out_c = P(P_OUT_C);
  FLT4 result = FLT4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane; /* dense index over the kept dims */
    int oc = at % keep_c;
    at /= keep_c;
    int ox = at % keep_w;
    at /= keep_w;
    int oy = at % keep_h;
    int ob = at / keep_h;
    GPU_PRECISE float sum = 0.0;
    for (int ib = 0; ib < n_b; ++ib)
      for (int iy = 0; iy < n_h; ++iy)
        for (int ix = 0; ix < n_w; ++ix) {
          int pixel_slice = (((ob + ib) * in_h + oy + iy) * in_w + ox + ix) * in_s;
          for (int ic = 0; ic < n_c; ++ic) sum += float(load_channel(1, pixel_slice, oc + ic));
        }
    result = with_lane(result, lane, FLT(sum / float(n_b * n_h * n_w * n_c)));
  }
  finish_slice(b, y, x, s, result);
}
