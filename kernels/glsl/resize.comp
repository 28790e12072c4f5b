/* t0 <- RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR of t1: K(0..3) input
 * H, W, S, K(3), K(4) float bits of the scales (H, W), K(5) 1 for
 * bilinear, K(6) align_corners, K(7) half_pixel_centers. Coordinates and
 * blends never contract (as TFLite and XNNPACK compute them). */

/* One bilinear source coordinate: the source clamped to [0, in - 1], its
 * lower neighbour (returned), the upper one and the upper's weight. */
int bilinear_source(int o, float scale, bool half_pixel, int size, out int upper,
                    out float alpha) {
  GPU_PRECISE float source =
      half_pixel ? float(o) * scale + (0.5 * scale - 0.5) : float(o) * scale;
  source = clamp(source, 0.0, float(size - 1));
  int lower = int(source);
  upper = min(lower + 1, size - 1);
  alpha = source - float(lower);
  return lower;
}

int nearest_source(int o, float scale, bool align_corners, bool half_pixel, int size) {
  GPU_PRECISE float source = (float(o) + (half_pixel ? 0.5 : 0.0)) * scale;
  int value = align_corners ? int(round_half_away(source)) : int(floor(source));
  value = min(value, size - 1);
  return half_pixel ? max(value, 0) : value;
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(0), in_w = K(1), in_s = K(2);
  float scale_h = intBitsToFloat(K(3)), scale_w = intBitsToFloat(K(4));
  int row = b * in_h;
  FLT4 result;
  if (K(5) != 0) {
    int y1, x1;
    float alpha_y, alpha_x;
    int y0 = bilinear_source(y, scale_h, K(7) != 0, in_h, y1, alpha_y);
    int x0 = bilinear_source(x, scale_w, K(7) != 0, in_w, x1, alpha_x);
    vec4 top_left = vec4(load4(1, ((row + y0) * in_w + x0) * in_s + s));
    vec4 top_right = vec4(load4(1, ((row + y0) * in_w + x1) * in_s + s));
    vec4 bottom_left = vec4(load4(1, ((row + y1) * in_w + x0) * in_s + s));
    vec4 bottom_right = vec4(load4(1, ((row + y1) * in_w + x1) * in_s + s));
    GPU_PRECISE vec4 top = top_left + (top_right - top_left) * alpha_x;
    GPU_PRECISE vec4 bottom = bottom_left + (bottom_right - bottom_left) * alpha_x;
    GPU_PRECISE vec4 blended = top + (bottom - top) * alpha_y;
    result = FLT4(blended);
  } else {
    int sy = nearest_source(y, scale_h, K(6) != 0, K(7) != 0, in_h);
    int sx = nearest_source(x, scale_w, K(6) != 0, K(7) != 0, in_w);
    result = load4(1, ((row + sy) * in_w + sx) * in_s + s);
  }
  finish_slice(b, y, x, s, result);
}
