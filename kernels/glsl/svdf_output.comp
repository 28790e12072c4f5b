/* SVDF's output (kernels/cl/svdf.cl's twin): t0 [B, U] <- for each unit u,
 * the bias t3 (K(3) 1 when there is one) plus the time filter of each of
 * its K(1) (rank) filters f = u * rank + r: the dot product of the new
 * state t1 (svdf_state) over the filter's M = K(0) slots with its row of
 * the time weights t2; K(2) t1's slices per pixel. Float SVDF (K(5) 0):
 * real values (weights F x M, bias U scalars), K(4) 1 applies TANH
 * (clamping activations are post-ops); in float whatever the storage, in
 * cpu_ref's order. Integer SVDF (K(5) 1), as TFLite computes it: the
 * state's int16 values as two digits (svdf_state.comp; K(7) F * M), the
 * time weights' int16 as two digit planes of F * M, the int32 bias as four
 * byte planes of U (K(8) U; the last signed); the int32 sum wraps as
 * TFLite's does, and its real value is the sum times K(6) (float bits of
 * state x time weights scale), put on the output's grid by a post-op. */

/* Two digits as one exact float: every integer conversion here is of a
 * float32 sum, none of a stored value (lavapipe's fp16 shaders crash on a
 * float16 -> int conversion). */
float digits2(int n, int at, int plane) {
  return float(load1(n, at)) + 256.0 * float(load1(n, plane + at));
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int memory = K(0), rank = K(1), pixel = (b * P(P_OUT_H) + y) * P(P_OUT_W) + x;
  int state_at = pixel * K(2), units = P(P_OUT_C), plane = K(7), bias_plane = K(8);
  bool integer = K(5) != 0;
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int u = s * 4 + lane;
    if (u >= units) break;
    float value;
    if (!integer) {
      PRECISE_FP32 float sum = K(3) != 0 ? float(load1(3, u)) : 0.0;
      for (int r = 0; r < rank; ++r) {
        int f = u * rank + r;
        PRECISE_FP32 float dot = 0.0;
        for (int m = 0; m < memory; ++m)
          dot += float(load1(2, f * memory + m)) *
                 float(load_channel(1, state_at, f * memory + m));
        sum += dot;
      }
      value = K(4) != 0 ? tanh(sum) : sum;
    } else {
      uint sum = 0u;
      for (int r = 0; r < rank; ++r) {
        int f = u * rank + r;
        for (int m = 0; m < memory; ++m) {
          int e = f * memory + m;
          float state = float(load_channel(1, state_at, e)) +
                        256.0 * float(load_channel(1, state_at, plane + e));
          sum += uint(int(digits2(2, e, plane)) * int(state));
        }
      }
      if (K(3) != 0)
        sum += uint(int(digits2(3, u, bias_plane))) +
               (uint(int(digits2(3, 2 * bias_plane + u, bias_plane))) << 16u);
      value = float(int(sum)) * intBitsToFloat(K(6));
    }
    v = with_lane(v, lane, FLT(value));
  }
  finish_slice(b, y, x, s, v);
}
