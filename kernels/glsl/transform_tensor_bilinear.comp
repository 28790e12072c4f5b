/* TransformTensorBilinear (MediaPipe, version 2), as cpu_ref computes it
 * (and kernels/cl/mediapipe_transform.cl): t0 [1, OH, OW, C] <- t1
 * [1, H, W, C] sampled bilinearly at the points the matrix t2 ([1, 4, 4],
 * row r in slice r) maps each output pixel to, after the pixel-centre
 * correction (cpu_ref does it in double: here in float). A point outside
 * [0, W-1] x [0, H-1] (or not finite) gives 0; neighbours past the edge
 * read 0. K(0) H, K(1) W, K(2) the input's slices. In float whatever the
 * storage. */

/* (m0 * x + m1 * y + m2 * 0) + m3 * 1: the points have z = 0, w = 1. */
float transform_row(float m0, float m1, float m2, float m3, float x, float y) {
  PRECISE_FP32 float value = m0 * x + m1 * y + m2 * 0.0 + m3 * 1.0;
  return value;
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int in_h = K(0), in_w = K(1), in_s = K(2);
  float m0 = float(load1(2, 0)), m1 = float(load1(2, 1)), m2 = float(load1(2, 2));
  float m3 = float(load1(2, 3)), m4 = float(load1(2, 4)), m5 = float(load1(2, 5));
  float m6 = float(load1(2, 6)), m7 = float(load1(2, 7));
  PRECISE_FP32 float x3 = m3 + (m0 * 0.5 + m1 * 0.5 - 0.5);
  PRECISE_FP32 float y3 = m7 + (m4 * 0.5 + m5 * 0.5 - 0.5);
  float tx = transform_row(m0, m1, m2, x3, float(x), float(y));
  float ty = transform_row(m4, m5, m6, y3, float(x), float(y));
  PRECISE_FP32 vec4 v = vec4(0.0);
  bool outside = tx < 0.0 || tx > float(in_w - 1) || ty < 0.0 || ty > float(in_h - 1);
  if (!outside && !isnan(tx) && !isinf(tx) && !isnan(ty) && !isinf(ty)) {
    float fx = floor(tx), fy = floor(ty);
    int x0 = int(fx), y0 = int(fy);
    PRECISE_FP32 float right = tx - fx, down = ty - fy;
    /* x0, y0 lie inside; x0 + 1 and y0 + 1 may lie one past the edge. */
    vec4 q11 = vec4(load4(1, (y0 * in_w + x0) * in_s + s));
    vec4 q21 = vec4(0.0), q12 = vec4(0.0), q22 = vec4(0.0);
    if (x0 + 1 < in_w) q21 = vec4(load4(1, (y0 * in_w + x0 + 1) * in_s + s));
    if (y0 + 1 < in_h) {
      q12 = vec4(load4(1, ((y0 + 1) * in_w + x0) * in_s + s));
      if (x0 + 1 < in_w) q22 = vec4(load4(1, ((y0 + 1) * in_w + x0 + 1) * in_s + s));
    }
    PRECISE_FP32 vec4 upper = (1.0 - right) * q11 + right * q21;
    PRECISE_FP32 vec4 lower = (1.0 - right) * q12 + right * q22;
    v = down * lower + (1.0 - down) * upper;
  }
  finish_slice(b, y, x, s, FLT4(v));
}
