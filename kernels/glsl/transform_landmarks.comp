/* TransformLandmarks (MediaPipe, version 2), as cpu_ref computes it (and
 * kernels/cl/mediapipe_transform.cl): t0 [1, N, D] <- the landmarks t1
 * [1, N, D] (D 2 or 3, landmark i in slice i) with x and y mapped by the
 * first two rows of the matrix t2 ([1, 4, 4], row r in slice r), z
 * copied. In float whatever the storage. */

/* (m0 * x + m1 * y + m2 * 0) + m3 * 1: the points have z = 0, w = 1. */
float transform_row(float m0, float m1, float m2, float m3, float x, float y) {
  PRECISE_FP32 float value = m0 * x + m1 * y + m2 * 0.0 + m3 * 1.0;
  return value;
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  vec4 point = vec4(load4(1, by * P(P_OUT_W) + x));
  vec4 row0 = vec4(load4(2, 0)), row1 = vec4(load4(2, 1));
  float tx = transform_row(row0.x, row0.y, row0.z, row0.w, point.x, point.y);
  float ty = transform_row(row1.x, row1.y, row1.z, row1.w, point.x, point.y);
  finish_slice(b, y, x, s, FLT4(tx, ty, point.z, 0.0));
}
