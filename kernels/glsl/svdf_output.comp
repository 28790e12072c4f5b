/* SVDF's output (kernels/cl/svdf.cl's twin): t0 [B, U] <- for each unit u,
 * the bias t3 (U scalars, K(3) 1 when there is one) plus the time f
 * of each of its K(1) (rank) filters f = u * rank + r: the dot product of
 * the new state t1 [B, F * M] (svdf_state) over the filter's M = K(0)
 * slots with its row of the time weights t2 (F x M scalars); K(2) t1's
 * slices per pixel; K(4) 1 applies TANH (clamping activations are
 * post-ops). In float whatever the storage, in cpu_ref's order. */

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int memory = K(0), rank = K(1), pixel = (b * P(P_OUT_H) + y) * P(P_OUT_W) + x;
  int state_at = pixel * K(2), units = P(P_OUT_C);
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int u = s * 4 + lane;
    if (u >= units) break;
    PRECISE_FP32 float sum = K(3) != 0 ? float(load1(3, u)) : 0.0;
    for (int r = 0; r < rank; ++r) {
      int f = u * rank + r;
      PRECISE_FP32 float dot = 0.0;
      for (int m = 0; m < memory; ++m)
        dot += float(load1(2, f * memory + m)) *
               float(load_channel(1, state_at, f * memory + m));
      sum += dot;
    }
    float value = sum;
    if (K(4) != 0) value = tanh(value);
    v = with_lane(v, lane, FLT(value));
  }
  finish_slice(b, y, x, s, v);
}
