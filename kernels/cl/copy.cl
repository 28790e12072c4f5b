/* Data movement: PAD, CONCATENATION, slicing and reshaping, DEPTH_TO_SPACE
 * and resizing. Each work item builds one output slice, lane by lane where
 * channels move across slices. */

/* t0 <- t1 padded: K[0..4) input B, H, W, C, K[4] its slices, K[5..9)
 * padding before each dim, K[9] the pad value. */
__kernel void gpu_pad(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int ib = b - K[5], iy = y - K[6], ix = x - K[7];
  FLT value = (FLT)as_float(K[9]);
  FLT4 v = F4(value);
  if (ib >= 0 && ib < K[0] && iy >= 0 && iy < K[1] && ix >= 0 && ix < K[2]) {
    int pixel_slice = ((ib * K[1] + iy) * K[2] + ix) * K[4];
    for (int lane = 0; lane < 4; ++lane) {
      int ic = s * 4 + lane - K[8];
      if (ic >= 0 && ic < K[3]) v = with_lane(v, lane, load_channel(t1, pixel_slice, ic));
    }
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* t0 <- concatenation of t1..t(K[1]) along axis K[0] of the 4-D view; input
 * i is described at K[2 + 6i]: start, size along the axis, H, W, C, S. */
__kernel void gpu_concat(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int axis = K[0], inputs = K[1];
  FLT4 v = F4(0);
  if (axis < 3) {
    int at = axis == 0 ? b : (axis == 1 ? y : x);
    for (int i = 0; i < inputs; ++i) {
      __global const int *d = K + 2 + 6 * i;
      if (at < d[0] || at >= d[0] + d[1]) continue;
      int lb = axis == 0 ? b - d[0] : b, ly = axis == 1 ? y - d[0] : y;
      int lx = axis == 2 ? x - d[0] : x;
      v = LOAD4(slot_pointer(1 + i, TENSORS), ((lb * d[2] + ly) * d[3] + lx) * d[5] + s);
    }
  } else {
    for (int lane = 0; lane < 4; ++lane) {
      int c = s * 4 + lane;
      for (int i = 0; i < inputs; ++i) {
        __global const int *d = K + 2 + 6 * i;
        if (c < d[0] || c >= d[0] + d[1]) continue;
        int pixel_slice = ((b * d[2] + y) * d[3] + x) * d[5];
        v = with_lane(v, lane, load_channel(slot_pointer(1 + i, TENSORS), pixel_slice, c - d[0]));
      }
    }
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* t0 element number L (dense order) <- t1 at box coordinate L: K[0..4)
 * input B, H, W, C, K[4] its slices, K[5..9) box start, K[9..13) stride,
 * K[13..17) size; K[17] 1 when whole slices map through; K[18] 1 when L
 * walks the box in another dim order, output dim k being input dim
 * K[19 + k] (TRANSPOSE). */
__kernel void gpu_box_gather(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[1], in_w = K[2], in_s = K[4];
  __global const int *start = K + 5, *step = K + 9, *size = K + 13;
  int pixel = by * P[P_OUT_W] + x;
  FLT4 v = F4(0);
  if (K[17]) {
    int ix = pixel % size[2], rest = pixel / size[2];
    int iy = rest % size[1], ib = rest / size[1];
    ib = start[0] + ib * step[0];
    iy = start[1] + iy * step[1];
    ix = start[2] + ix * step[2];
    v = LOAD4(t1, ((ib * in_h + iy) * in_w + ix) * in_s + s);
  } else {
    int out_c = P[P_OUT_C];
    for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
      int at = pixel * out_c + s * 4 + lane;
      int coord[4];
      for (int k = 3; k >= 0; --k) {
        int dim = K[18] ? K[19 + k] : k;
        coord[dim] = at % size[dim];
        at /= size[dim];
      }
      int ib = start[0] + coord[0] * step[0];
      int iy = start[1] + coord[1] * step[1];
      int ix = start[2] + coord[2] * step[2];
      int ic = start[3] + coord[3] * step[3];
      v = with_lane(v, lane, load_channel(t1, ((ib * in_h + iy) * in_w + ix) * in_s, ic));
    }
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* t0 <- DEPTH_TO_SPACE(t1) in TensorFlow's DCR order: K[0..4) input
 * B, H, W, C, K[4] its slices, K[5] the block size. */
__kernel void gpu_depth_to_space(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int block = K[5], out_c = P[P_OUT_C];
  int pixel_slice = ((b * K[1] + y / block) * K[2] + x / block) * K[4];
  int first = ((y % block) * block + x % block) * out_c;
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane)
    v = with_lane(v, lane, load_channel(t1, pixel_slice, first + s * 4 + lane));
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* One bilinear source coordinate, as TFLite/XNNPACK compute it: the
 * source clamped to [0, in - 1], its two neighbours, the second's weight. */
int bilinear_source(int o, float scale, int half_pixel, int in, int *upper, float *alpha) {
#pragma OPENCL FP_CONTRACT OFF
  float source = half_pixel ? (float)o * scale + (0.5f * scale - 0.5f) : (float)o * scale;
  source = clamp(source, 0.0f, (float)(in - 1));
  int lower = (int)source;
  *upper = min(lower + 1, in - 1);
  *alpha = source - (float)lower;
  return lower;
}

int nearest_source(int o, float scale, int align_corners, int half_pixel, int in) {
#pragma OPENCL FP_CONTRACT OFF
  float source = ((float)o + (half_pixel ? 0.5f : 0.0f)) * scale;
  int value = align_corners ? (int)round(source) : (int)floor(source);
  value = min(value, in - 1);
  return half_pixel ? max(value, 0) : value;
}

/* t0 <- RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR of t1: K[0..3) input
 * H, W, S, K[3], K[4] float scales (H, W), K[5] 1 for bilinear,
 * K[6] align_corners, K[7] half_pixel_centers. */
__kernel void gpu_resize(KERNEL_ARGS) {
#pragma OPENCL FP_CONTRACT OFF
  KERNEL_START;
  OUTPUT_COORDS;
  int in_h = K[0], in_w = K[1], in_s = K[2];
  float scale_h = as_float(K[3]), scale_w = as_float(K[4]);
  int row = b * in_h;
  FLT4 result;
  if (K[5]) {
    int y1, x1;
    float alpha_y, alpha_x;
    int y0 = bilinear_source(y, scale_h, K[7], in_h, &y1, &alpha_y);
    int x0 = bilinear_source(x, scale_w, K[7], in_w, &x1, &alpha_x);
    float4 top_left = convert_float4(LOAD4(t1, ((row + y0) * in_w + x0) * in_s + s));
    float4 top_right = convert_float4(LOAD4(t1, ((row + y0) * in_w + x1) * in_s + s));
    float4 bottom_left = convert_float4(LOAD4(t1, ((row + y1) * in_w + x0) * in_s + s));
    float4 bottom_right = convert_float4(LOAD4(t1, ((row + y1) * in_w + x1) * in_s + s));
    float4 top = top_left + (top_right - top_left) * alpha_x;
    float4 bottom = bottom_left + (bottom_right - bottom_left) * alpha_x;
    result = TO_FLT4(top + (bottom - top) * alpha_y);
  } else {
    int sy = nearest_source(y, scale_h, K[6], K[7], in_h);
    int sx = nearest_source(x, scale_w, K[6], K[7], in_w);
    result = LOAD4(t1, ((row + sy) * in_w + sx) * in_s + s);
  }
  finish_slice(P, TENSORS, b, y, x, s, result);
}
