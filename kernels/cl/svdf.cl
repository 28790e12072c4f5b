/* SVDF (TFLite's SVDF, cpu_ref's kernels/quantized/svdf.c), in two
 * dispatches (kernels/glsl/svdf_state.comp and svdf_output.comp say what
 * each parameter is). In float whatever the storage, in cpu_ref's order. */

/* t0 [B, F * M] <- the state t1 shifted by one frame, each filter's newest
 * slot the feature filter's dot product of the input t2 with its row of
 * the weights t3; the integer SVDF's on the int16 grid of scale K[5]. */
__kernel void gpu_svdf_state(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int memory = K[0], inputs = K[1], pixel = (b * P[P_OUT_H] + y) * P[P_OUT_W] + x;
  int state_at = pixel * K[2], input_at = pixel * K[3], channels = P[P_OUT_C];
  float state_scale = as_float(K[5]);
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= channels) break;
    int f = c / memory, slot = c - f * memory;
    float value;
    if (slot + 1 < memory) {
      value = (float)load_channel(t1, state_at, c + 1);
    } else {
      float dot = 0.0f;
      for (int i = 0; i < inputs; ++i)
        dot += (float)LOAD1(t3, f * inputs + i) * (float)load_channel(t2, input_at, i);
      value = dot;
      if (K[4] != 0)
        value = fmin(fmax(round(dot / state_scale), -32768.0f), 32767.0f) * state_scale;
    }
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* t0 [B, U] <- bias t3 (K[3] 1 when there is one) plus, for each of the
 * unit's K[1] filters, the dot product of the new state t1 over its K[0]
 * slots with its row of the time weights t2; K[4] 1 applies TANH. */
__kernel void gpu_svdf_output(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int memory = K[0], rank = K[1], pixel = (b * P[P_OUT_H] + y) * P[P_OUT_W] + x;
  int state_at = pixel * K[2], units = P[P_OUT_C];
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int u = s * 4 + lane;
    if (u >= units) break;
    float sum = K[3] != 0 ? (float)LOAD1(t3, u) : 0.0f;
    for (int r = 0; r < rank; ++r) {
      int f = u * rank + r;
      float dot = 0.0f;
      for (int m = 0; m < memory; ++m)
        dot += (float)LOAD1(t2, f * memory + m) *
               (float)load_channel(t1, state_at, f * memory + m);
      sum += dot;
    }
    float value = sum;
    if (K[4] != 0) value = tanh(value);
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}
