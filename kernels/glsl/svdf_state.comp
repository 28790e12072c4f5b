/* SVDF's new state (TFLite's SVDF, cpu_ref's kernels/quantized/svdf.c;
 * kernels/cl/svdf.cl's twin): t0 [B, F * M] <- the state t1 [B, F * M]
 * shifted by one frame, each filter's newest slot (m == M - 1) the
 * feature filter's dot product of the input t2 [B, I] with the filter's
 * row of the weights t3 (F x I scalars). K(0) M, K(1) I, K(2) t1's and
 * K(3) t2's slices per pixel; K(4) 1 for the integer SVDF, whose state
 * TFLite stores on its int16 grid of scale K(5) (float bits; symmetric:
 * zero point 0): the dot product rounded half away from zero and clamped
 * there. In float whatever the storage, in cpu_ref's order. */

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int memory = K(0), inputs = K(1), pixel = (b * P(P_OUT_H) + y) * P(P_OUT_W) + x;
  int state_at = pixel * K(2), input_at = pixel * K(3), channels = P(P_OUT_C);
  float state_scale = intBitsToFloat(K(5));
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= channels) break;
    int f = c / memory, slot = c - f * memory;
    float value;
    if (slot + 1 < memory) {
      value = float(load_channel(1, state_at, c + 1));
    } else {
      PRECISE_FP32 float dot = 0.0;
      for (int i = 0; i < inputs; ++i)
        dot += float(load1(3, f * inputs + i)) * float(load_channel(2, input_at, i));
      value = dot;
      if (K(4) != 0)
        value = clamp(round_half_away(dot / state_scale), -32768.0, 32767.0) * state_scale;
    }
    v = with_lane(v, lane, FLT(value));
  }
  finish_slice(b, y, x, s, v);
}
