/* MediaPipe's transform custom ops (version 2), as cpu_ref computes them
 * (plugins/cpu_ref/kernels/custom/): Landmarks2TransformMatrix,
 * TransformTensorBilinear and TransformLandmarks. Every value is computed
 * in float whatever the storage, in cpu_ref's order; a 4x4 matrix is a
 * [1, 4, 4] tensor, row r in slice r. */

/* out = a * b (4x4, row-major), each sum in float from k = 0. */
void transform_mat4_multiply(const float *a, const float *b, float *out) {
  float result[16];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a[r * 4 + k] * b[k * 4 + c];
      result[r * 4 + c] = sum;
    }
  for (int i = 0; i < 16; ++i) out[i] = result[i];
}

/* (m0 * x + m1 * y + m2 * 0) + m3 * 1 for a matrix row m: the points the
 * ops transform have z = 0 and w = 1. */
float transform_row(float m0, float m1, float m2, float m3, float x, float y) {
  return m0 * x + m1 * y + m2 * 0.0f + m3 * 1.0f;
}

/* Landmarks2TransformMatrix: t0 [1, 4, 4] <- the crop matrix of the
 * landmarks t1 [1, N, 3] (landmark i in slice i); t2 the subset indices
 * as float values (constants, exact: N <= 2048). K[0] left and K[1] right
 * rotation landmark, K[2] output width, K[3] output height, K[4]
 * target rotation, K[5] scale x, K[6] scale y (float bits), K[7] subset
 * count (even). Work item x computes the whole matrix and writes row x. */
__kernel void gpu_landmarks_to_transform_matrix(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int left = K[0], right = K[1], subset_count = K[7];
  float output_width = (float)K[2], output_height = (float)K[3];
  float lx = (float)load_channel(t1, left, 0), ly = (float)load_channel(t1, left, 1);
  float rx = (float)load_channel(t1, right, 0), ry = (float)load_channel(t1, right, 1);
  float rotation = as_float(K[4]) - atan2(ry - ly, rx - lx);
  float c = cos(rotation), sn = sin(rotation);
  float max0 = 0.0f, max1 = 0.0f, min0 = 0.0f, min1 = 0.0f, min2 = 0.0f;
  for (int i = 0; i < subset_count; ++i) {
    int at = (int)(float)LOAD1(t2, i);
    float px = (float)load_channel(t1, at, 0), py = (float)load_channel(t1, at, 1);
    /* The rotated point (rotate * (x, y, 1)), summed from 0 as cpu_ref's
     * mat3_apply sums it. */
    float r0 = 0.0f + c * px + -sn * py + 0.0f * 1.0f;
    float r1 = 0.0f + sn * px + c * py + 0.0f * 1.0f;
    float r2 = 0.0f + 0.0f * px + 0.0f * py + 1.0f * 1.0f;
    if (i == 0) {
      max0 = r0, max1 = r1, min0 = r0, min1 = r1, min2 = r2;
      continue;
    }
    if (max0 < r0) max0 = r0;
    if (max1 < r1) max1 = r1;
    if (min0 > r0) min0 = r0;
    if (min1 > r1) min1 = r1;
  }
  float crop_width = max0 - min0, crop_height = max1 - min1;
  float mid0 = (min0 + max0) / 2.0f, mid1 = (min1 + max1) / 2.0f, mid2 = min2;
  float uc = cos(-rotation), us = sin(-rotation);
  float centre0 = 0.0f + uc * mid0 + -us * mid1 + 0.0f * mid2;
  float centre1 = 0.0f + us * mid0 + uc * mid1 + 0.0f * mid2;

  float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float shift[16] = {1, 0, 0, centre0, 0, 1, 0, centre1, 0, 0, 1, 0, 0, 0, 0, 1};
  transform_mat4_multiply(t, shift, t);
  float r = -rotation, rc = cos(r), rs = sin(r);
  float turn[16] = {rc, -rs, 0, 0, rs, rc, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  transform_mat4_multiply(t, turn, t);
  float scale_x = as_float(K[5]) * crop_width / output_width;
  float scale_y = as_float(K[6]) * crop_height / output_height;
  float scale[16] = {scale_x, 0, 0, 0, 0, scale_y, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  transform_mat4_multiply(t, scale, t);
  /* -(size / 2): exact in float for any size the options allow. */
  float shift2[16] = {1, 0, 0, -(output_width / 2.0f), 0, 1, 0, -(output_height / 2.0f),
                      0, 0, 1, 0, 0, 0, 0, 1};
  transform_mat4_multiply(t, shift2, t);
  float4 row = (float4)(t[x * 4], t[x * 4 + 1], t[x * 4 + 2], t[x * 4 + 3]);
  finish_slice(P, TENSORS, b, y, x, s, TO_FLT4(row));
}

/* TransformTensorBilinear: t0 [1, OH, OW, C] <- t1 [1, H, W, C] sampled
 * bilinearly at the points the matrix t2 maps each output pixel to, after
 * the pixel-centre correction (cpu_ref does it in double: here in float,
 * a few float roundings of the matrix's translation). A point outside
 * [0, W-1] x [0, H-1] (or not finite) gives 0; neighbours past the edge
 * read 0. K[0] H, K[1] W, K[2] the input's slices. */
__kernel void gpu_transform_tensor_bilinear(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[0], in_w = K[1], in_s = K[2];
  float m[8];
  for (int i = 0; i < 8; ++i) m[i] = (float)LOAD1(t2, i);
  float x3 = m[3] + (m[0] * 0.5f + m[1] * 0.5f - 0.5f);
  float y3 = m[7] + (m[4] * 0.5f + m[5] * 0.5f - 0.5f);
  float tx = transform_row(m[0], m[1], m[2], x3, (float)x, (float)y);
  float ty = transform_row(m[4], m[5], m[6], y3, (float)x, (float)y);
  float4 v = (float4)(0.0f);
  bool outside = tx < 0.0f || tx > (float)(in_w - 1) || ty < 0.0f || ty > (float)(in_h - 1);
  if (!outside && isfinite(tx) && isfinite(ty)) {
    float fx = floor(tx), fy = floor(ty);
    int x0 = (int)fx, y0 = (int)fy;
    float right = tx - fx, down = ty - fy;
    float4 q11 = (float4)(0.0f), q21 = (float4)(0.0f), q12 = (float4)(0.0f), q22 = (float4)(0.0f);
    /* x0, y0 lie inside; x0 + 1 and y0 + 1 may lie one past the edge. */
    q11 = convert_float4(LOAD4(t1, (y0 * in_w + x0) * in_s + s));
    if (x0 + 1 < in_w) q21 = convert_float4(LOAD4(t1, (y0 * in_w + x0 + 1) * in_s + s));
    if (y0 + 1 < in_h) {
      q12 = convert_float4(LOAD4(t1, ((y0 + 1) * in_w + x0) * in_s + s));
      if (x0 + 1 < in_w) q22 = convert_float4(LOAD4(t1, ((y0 + 1) * in_w + x0 + 1) * in_s + s));
    }
    float4 upper = (1.0f - right) * q11 + right * q21;
    float4 lower = (1.0f - right) * q12 + right * q22;
    v = down * lower + (1.0f - down) * upper;
  }
  finish_slice(P, TENSORS, b, y, x, s, TO_FLT4(v));
}

/* TransformLandmarks: t0 [1, N, D] <- the landmarks t1 [1, N, D] (D 2 or
 * 3, landmark i in slice i) with x and y mapped by the first two rows of
 * the matrix t2, z copied. */
__kernel void gpu_transform_landmarks(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  float4 in = convert_float4(LOAD4(t1, by * P[P_OUT_W] + x));
  float m[8];
  for (int i = 0; i < 8; ++i) m[i] = (float)LOAD1(t2, i);
  float tx = transform_row(m[0], m[1], m[2], m[3], in.x, in.y);
  float ty = transform_row(m[4], m[5], m[6], m[7], in.x, in.y);
  finish_slice(P, TENSORS, b, y, x, s, TO_FLT4((float4)(tx, ty, in.z, 0.0f)));
}
