/* ARG_MAX and ARG_MIN: the index of the first largest (smallest) value
 * along one axis, stored as a float value (exact in fp32, and in fp16 up
 * to 2048: the support check bounds the axis) that the edge conversion
 * (gpu_from_slices) writes as int32 or int64. */

#define ARG_MAX_ITEMS 128

/* Whether (value, index) goes before (best_value, best): more extreme, or
 * as extreme at a smaller index; index < 0 marks an empty partial. */
int arg_max_better(float value, int index, float best_value, int best, int is_min) {
  if (index < 0) return 0;
  if (best < 0) return 1;
  if (value == best_value) return index < best;
  return is_min ? value < best_value : value > best_value;
}

/* t0 <- indices along an axis of t1: K[0..4) input B, H, W, C, K[4] its
 * slices, K[5] the axis' size, K[6] the product of the dims after it (in
 * the input's 4-D view), K[7] 1 for ARG_MIN. K[8] 0: one item per output
 * slice scans the axis (global: output W, B * H, slices). K[8] 1, for a
 * long axis: a work group per output slice (global: items, output pixels,
 * slices), its items scanning k = r, r + n, ... and item 0 combining their
 * partials in item order, so the result is still the first extreme index. */
__kernel void gpu_arg_max(KERNEL_ARGS) {
  __local float partial_value[4 * ARG_MAX_ITEMS];
  __local int partial_index[4 * ARG_MAX_ITEMS];
  KERNEL_START;
  int in_h = K[1], in_w = K[2], in_c = K[3], in_s = K[4], size = K[5], inner = K[6];
  int out_h = P[P_OUT_H], out_w = P[P_OUT_W], out_c = P[P_OUT_C];
  int reduce = K[8] != 0;
  int r = reduce ? (int)get_local_id(0) : 0;
  int items = reduce ? min((int)get_local_size(0), ARG_MAX_ITEMS) : 1;
  int pixel, s = get_global_id(2);
  if (reduce) {
    pixel = get_global_id(1);
  } else {
    int x = get_global_id(0), by = get_global_id(1);
    pixel = x < out_w ? by * out_w + x : P[P_OUT_B] * out_h * out_w;
  }
  /* No early return before the barrier: every item must reach it. */
  int in_range = pixel < P[P_OUT_B] * out_h * out_w && s < P[P_OUT_S];
  float best_value[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int best[4] = {-1, -1, -1, -1};
  for (int lane = 0; in_range && r < items && lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane;
    int first = (at / inner) * size * inner + at % inner;
    for (int k = r; k < size; k += items) {
      int e = first + k * inner;
      int ic = e % in_c;
      e /= in_c;
      int ix = e % in_w;
      e /= in_w;
      int iy = e % in_h;
      int ib = e / in_h;
      float value = (float)load_channel(t1, ((ib * in_h + iy) * in_w + ix) * in_s, ic);
      if (arg_max_better(value, k, best_value[lane], best[lane], K[7])) {
        best[lane] = k;
        best_value[lane] = value;
      }
    }
  }
  if (reduce) {
    for (int lane = 0; r < ARG_MAX_ITEMS && lane < 4; ++lane) {
      partial_value[4 * r + lane] = best_value[lane];
      partial_index[4 * r + lane] = best[lane];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (!in_range || r != 0) return;
  for (int i = 1; reduce && i < items; ++i)
    for (int lane = 0; lane < 4; ++lane)
      if (arg_max_better(partial_value[4 * i + lane], partial_index[4 * i + lane],
                         best_value[lane], best[lane], K[7])) {
        best[lane] = partial_index[4 * i + lane];
        best_value[lane] = partial_value[4 * i + lane];
      }
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane)
    v = with_lane(v, lane, (FLT)max(best[lane], 0));
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  finish_slice(P, TENSORS, b, y, x, s, v);
}
