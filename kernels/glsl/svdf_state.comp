/* SVDF's new state (TFLite's SVDF, cpu_ref's kernels/quantized/svdf.c;
 * kernels/cl/svdf.cl's twin): t0 <- the state t1 shifted by one frame,
 * each filter's newest slot (m == M - 1) the feature filter's dot product
 * of the input t2 [B, I] with the filter's row of the weights t3 (F x I
 * scalars). K(0) M, K(1) I, K(2) t1's and K(3) t2's slices per pixel.
 * Float SVDF (K(4) 0): the states [B, F * M] hold real values; in float
 * whatever the storage, in cpu_ref's order. Integer SVDF (K(4) 1), as
 * TFLite computes it: the states [B, 2 * F * M] hold each int16 value as
 * two exact digits, low byte at channel e and high (signed) at F * M + e
 * (K(7) F * M); the weights t3 are the int8 integers; the input's integers
 * are its real values / K(6) (scale bits, zero point already off); the
 * int32 dot product times K(5) (float bits of input x weights / state
 * scale) is rounded half away from zero and clamped to int16. */

/* The integers in float (exact below 2^24): no integer conversion of a
 * stored value (lavapipe's fp16 shaders crash on float16 -> int). */
float state_value(int state_at, int e, int plane) {
  return float(load_channel(1, state_at, e)) + 256.0 * float(load_channel(1, state_at, plane + e));
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int memory = K(0), inputs = K(1), pixel = (b * P(P_OUT_H) + y) * P(P_OUT_W) + x;
  int state_at = pixel * K(2), input_at = pixel * K(3), channels = P(P_OUT_C);
  bool integer = K(4) != 0;
  int plane = K(7);
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= channels) break;
    int e = integer && c >= plane ? c - plane : c;
    int f = e / memory, slot = e - f * memory;
    float value;
    if (!integer) {
      if (slot + 1 < memory) {
        value = float(load_channel(1, state_at, e + 1));
      } else {
        PRECISE_FP32 float dot = 0.0;
        for (int i = 0; i < inputs; ++i)
          dot += float(load1(3, f * inputs + i)) * float(load_channel(2, input_at, i));
        value = dot;
      }
    } else {
      float q;
      if (slot + 1 < memory) {
        q = state_value(state_at, e + 1, plane);
      } else {
        /* Integer products and sums below 2^24: exact in float. */
        float input_scale = intBitsToFloat(K(6));
        PRECISE_FP32 float dot = 0.0;
        for (int i = 0; i < inputs; ++i)
          dot += float(load1(3, f * inputs + i)) *
                 round_half_away(float(load_channel(2, input_at, i)) / input_scale);
        q = clamp(round_half_away(dot * intBitsToFloat(K(5))), -32768.0, 32767.0);
      }
      /* The high byte (signed), or the low one. */
      float high = floor(q / 256.0);
      value = c >= plane ? high : q - 256.0 * high;
    }
    v = with_lane(v, lane, FLT(value));
  }
  finish_slice(b, y, x, s, v);
}
