/* Landmarks2TransformMatrix (MediaPipe, version 2), as cpu_ref computes
 * it (and kernels/cl/mediapipe_transform.cl): t0 [1, 4, 4] (row r in
 * slice r) <- the crop matrix of the landmarks t1 [1, N, 3] (landmark i in
 * slice i); t2 the subset indices as float values (constants, exact:
 * N <= 2048). K(0) left and K(1) right rotation landmark, K(2) output
 * width, K(3) output height, K(4) target rotation, K(5) scale x, K(6)
 * scale y (float bits), K(7) subset count (even). Work item x computes
 * the whole matrix, in float, and writes row x. */

/* a = a * b (4x4, row-major), each sum in float from k = 0. */
void mat4_multiply(inout float a[16], float b[16]) {
  float result[16];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      PRECISE_FP32 float sum = 0.0;
      for (int k = 0; k < 4; ++k) sum += a[r * 4 + k] * b[k * 4 + c];
      result[r * 4 + c] = sum;
    }
  a = result;
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int left = K(0), right = K(1), subset_count = K(7);
  float output_width = float(K(2)), output_height = float(K(3));
  float lx = float(load_channel(1, left, 0)), ly = float(load_channel(1, left, 1));
  float rx = float(load_channel(1, right, 0)), ry = float(load_channel(1, right, 1));
  PRECISE_FP32 float rotation = intBitsToFloat(K(4)) - atan(ry - ly, rx - lx);
  float c = cos(rotation), sn = sin(rotation);
  float max0 = 0.0, max1 = 0.0, min0 = 0.0, min1 = 0.0, min2 = 0.0;
  for (int i = 0; i < subset_count; ++i) {
    int at = int(float(load1(2, i)));
    float px = float(load_channel(1, at, 0)), py = float(load_channel(1, at, 1));
    /* The rotated point (rotate * (x, y, 1)), summed from 0 as cpu_ref's
     * mat3_apply sums it. */
    PRECISE_FP32 float r0 = 0.0 + c * px + -sn * py + 0.0 * 1.0;
    PRECISE_FP32 float r1 = 0.0 + sn * px + c * py + 0.0 * 1.0;
    PRECISE_FP32 float r2 = 0.0 + 0.0 * px + 0.0 * py + 1.0 * 1.0;
    if (i == 0) {
      max0 = r0, max1 = r1, min0 = r0, min1 = r1, min2 = r2;
    } else {
      max0 = max0 < r0 ? r0 : max0;
      max1 = max1 < r1 ? r1 : max1;
      min0 = min0 > r0 ? r0 : min0;
      min1 = min1 > r1 ? r1 : min1;
    }
  }
  PRECISE_FP32 float crop_width = max0 - min0, crop_height = max1 - min1;
  PRECISE_FP32 float mid0 = (min0 + max0) / 2.0, mid1 = (min1 + max1) / 2.0;
  float mid2 = min2;
  float uc = cos(-rotation), us = sin(-rotation);
  PRECISE_FP32 float centre0 = 0.0 + uc * mid0 + -us * mid1 + 0.0 * mid2;
  PRECISE_FP32 float centre1 = 0.0 + us * mid0 + uc * mid1 + 0.0 * mid2;

  float t[16] = float[16](1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                          0.0, 0.0, 0.0, 1.0);
  mat4_multiply(t, float[16](1.0, 0.0, 0.0, centre0, 0.0, 1.0, 0.0, centre1, 0.0, 0.0, 1.0,
                             0.0, 0.0, 0.0, 0.0, 1.0));
  float r = -rotation, rc = cos(r), rs = sin(r);
  mat4_multiply(t, float[16](rc, -rs, 0.0, 0.0, rs, rc, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
                             0.0, 0.0, 1.0));
  PRECISE_FP32 float scale_x = intBitsToFloat(K(5)) * crop_width / output_width;
  PRECISE_FP32 float scale_y = intBitsToFloat(K(6)) * crop_height / output_height;
  mat4_multiply(t, float[16](scale_x, 0.0, 0.0, 0.0, 0.0, scale_y, 0.0, 0.0, 0.0, 0.0, 1.0,
                             0.0, 0.0, 0.0, 0.0, 1.0));
  /* -(size / 2): exact in float for any size the options allow. */
  mat4_multiply(t, float[16](1.0, 0.0, 0.0, -(output_width / 2.0), 0.0, 1.0, 0.0,
                             -(output_height / 2.0), 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0));
  finish_slice(b, y, x, s, FLT4(t[x * 4], t[x * 4 + 1], t[x * 4 + 2], t[x * 4 + 3]));
}
