/* t0 <- the index of the first largest (K(7) 1: smallest) value along an
 * axis of t1, as a float value (exact in fp32, and in fp16 up to 2048: the
 * support check bounds the axis; gpu_from_slices writes it as int32 or
 * int64): K(0..4) input B, H, W, C, K(4) its slices, K(5) the axis' size,
 * K(6) the product of the dims after it (in the input's 4-D view).
 * K(8) 0: one item per output slice scans the axis (global: output W,
 * B * H, slices). K(8) 1, for a long axis: a work group per output slice
 * (global: items, output pixels, slices), its items scanning k = r, r + n,
 * ... and item 0 combining their partials in item order, so the result is
 * still the first extreme index. */
const int ARG_MAX_ITEMS = 128;
/* Per item, four lanes each (arrays, not vector components: see with_lane). */
shared float partial_value[4 * ARG_MAX_ITEMS];
shared int partial_index[4 * ARG_MAX_ITEMS];

/* Whether (value, index) goes before (best_value, best): more extreme, or
 * as extreme at a smaller index; index < 0 marks an empty partial. */
bool arg_max_better(float value, int index, float best_value, int best) {
  if (index < 0) return false;
  if (best < 0) return true;
  if (value == best_value) return index < best;
  return K(7) != 0 ? value < best_value : value > best_value;
}

/* Element k of the axis through output element at, as a channel load. */
FLT arg_max_load(int at, int k) {
  int in_h = K(1), in_w = K(2), in_c = K(3), size = K(5), inner = K(6);
  int e = (at / inner) * size * inner + at % inner + k * inner;
  int ic = e % in_c;
  e /= in_c;
  int ix = e % in_w;
  e /= in_w;
  int iy = e % in_h;
  int ib = e / in_h;
  return load_channel(1, ((ib * in_h + iy) * in_w + ix) * K(4), ic);
}

void main() {
  kernel_start();
  int out_h = P(P_OUT_H), out_w = P(P_OUT_W), out_c = P(P_OUT_C), size = K(5);
  bool reduce = K(8) != 0;
  int r = reduce ? int(gl_LocalInvocationID.x) : 0;
  int items = reduce ? min(int(gl_WorkGroupSize.x), ARG_MAX_ITEMS) : 1;
  int pixel, s = int(gl_GlobalInvocationID.z);
  if (reduce) {
    pixel = int(gl_GlobalInvocationID.y);
  } else {
    int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
    pixel = x < out_w ? by * out_w + x : P(P_OUT_B) * out_h * out_w;
  }
  /* No early return before the barrier: every item must reach it (GLSL ES
   * allows a barrier only outside control flow). */
  bool in_range = pixel < P(P_OUT_B) * out_h * out_w && s < P(P_OUT_S);
  float best_value[4] = float[4](0.0, 0.0, 0.0, 0.0);
  int best[4] = int[4](-1, -1, -1, -1);
  for (int lane = 0; in_range && r < items && lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane;
    for (int k = r; k < size; k += items) {
      float value = float(arg_max_load(at, k));
      if (arg_max_better(value, k, best_value[lane], best[lane])) {
        best[lane] = k;
        best_value[lane] = value;
      }
    }
  }
  for (int lane = 0; reduce && r < ARG_MAX_ITEMS && lane < 4; ++lane) {
    partial_value[4 * r + lane] = best_value[lane];
    partial_index[4 * r + lane] = best[lane];
  }
  memoryBarrierShared();
  barrier();
  if (!in_range || r != 0) return;
  for (int i = 1; reduce && i < items; ++i)
    for (int lane = 0; lane < 4; ++lane)
      if (arg_max_better(partial_value[4 * i + lane], partial_index[4 * i + lane],
                         best_value[lane], best[lane])) {
        best[lane] = partial_index[4 * i + lane];
        best_value[lane] = partial_value[4 * i + lane];
      }
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane)
    v = with_lane(v, lane, FLT(max(best[lane], 0)));
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  finish_slice(b, y, x, s, v);
}
