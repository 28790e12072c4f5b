/* GATHER_ND (kernels/cl/gather_nd.cl computes the same): output element e
 * (dense order) is params element sum_k(index_k * stride_k) + e % inner,
 * index_k the k-th of indices row e / inner. Indices are integers held as
 * float values, clamped into their dim (cpu_ref refuses an index outside
 * params at run time). t1 params, t2 indices: K(0) index depth (1..4),
 * K(1) inner, K(2..6) the params dims indexed, K(6..10) their strides in
 * elements, K(10) params C, K(11) params S, K(12) indices C, K(13)
 * indices S. */

/* Element at (dense order) of tensor n with C channels in S slices. */
FLT gather_element(int n, int at, int c, int s) { return load_channel(n, (at / c) * s, at % c); }

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int depth = K(0), inner = K(1);
  int out_c = P(P_OUT_C), pixel = by * P(P_OUT_W) + x;
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4 && s * 4 + lane < out_c; ++lane) {
    int at = pixel * out_c + s * 4 + lane;
    int row = at / inner, source = at % inner;
    for (int k = 0; k < depth; ++k) {
      int index = int(round_half_away(float(gather_element(2, row * depth + k, K(12), K(13)))));
      index = clamp(index, 0, K(2 + k) - 1);
      source += index * K(6 + k);
    }
    v = with_lane(v, lane, gather_element(1, source, K(10), K(11)));
  }
  finish_slice(b, y, x, s, v);
}
