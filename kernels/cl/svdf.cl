/* SVDF (TFLite's SVDF, cpu_ref's kernels/quantized/svdf.c), in two
 * dispatches: kernels/glsl/svdf_state.comp and svdf_output.comp say what
 * each parameter and layout is (the integer SVDF's states and weights as
 * exact digits, its int32 sums wrapping as TFLite's do). */

/* The int16 value e of a state held as two digits (plane: F * M). */
int svdf_state_value(__global STORAGE *t, int state_at, int e, int plane) {
  return (int)load_channel(t, state_at, e) + 256 * (int)load_channel(t, state_at, plane + e);
}

/* t0 <- the state t1 shifted by one frame, each filter's newest slot the
 * feature filter's dot product of the input t2 with its row of the
 * weights t3. */
__kernel void gpu_svdf_state(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int memory = K[0], inputs = K[1], pixel = (b * P[P_OUT_H] + y) * P[P_OUT_W] + x;
  int state_at = pixel * K[2], input_at = pixel * K[3], channels = P[P_OUT_C];
  int integer = K[4] != 0, plane = K[7];
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= channels) break;
    int e = integer && c >= plane ? c - plane : c;
    int f = e / memory, slot = e - f * memory;
    float value;
    if (!integer) {
      if (slot + 1 < memory) {
        value = (float)load_channel(t1, state_at, e + 1);
      } else {
        float dot = 0.0f;
        for (int i = 0; i < inputs; ++i)
          dot += (float)LOAD1(t3, f * inputs + i) * (float)load_channel(t2, input_at, i);
        value = dot;
      }
    } else {
      int q;
      if (slot + 1 < memory) {
        q = svdf_state_value(t1, state_at, e + 1, plane);
      } else {
        float input_scale = as_float(K[6]);
        int dot = 0;
        for (int i = 0; i < inputs; ++i)
          dot += (int)LOAD1(t3, f * inputs + i) *
                 (int)round((float)load_channel(t2, input_at, i) / input_scale);
        q = (int)fmin(fmax(round((float)dot * as_float(K[5])), -32768.0f), 32767.0f);
      }
      /* The low byte, or the high one (arithmetic shift: signed). */
      value = (float)(c >= plane ? q >> 8 : q & 255);
    }
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}

/* t0 [B, U] <- bias t3 plus, for each of the unit's K[1] filters, the dot
 * product of the new state t1 over its K[0] slots with its row of the
 * time weights t2. */
__kernel void gpu_svdf_output(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int memory = K[0], rank = K[1], pixel = (b * P[P_OUT_H] + y) * P[P_OUT_W] + x;
  int state_at = pixel * K[2], units = P[P_OUT_C], plane = K[7], bias_plane = K[8];
  int integer = K[5] != 0;
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int u = s * 4 + lane;
    if (u >= units) break;
    float value;
    if (!integer) {
      float sum = K[3] != 0 ? (float)LOAD1(t3, u) : 0.0f;
      for (int r = 0; r < rank; ++r) {
        int f = u * rank + r;
        float dot = 0.0f;
        for (int m = 0; m < memory; ++m)
          dot += (float)LOAD1(t2, f * memory + m) *
                 (float)load_channel(t1, state_at, f * memory + m);
        sum += dot;
      }
      value = K[4] != 0 ? tanh(sum) : sum;
    } else {
      uint sum = 0u; /* wraps as TFLite's int32 sums do */
      for (int r = 0; r < rank; ++r) {
        int f = u * rank + r;
        for (int m = 0; m < memory; ++m) {
          int e = f * memory + m;
          int weight = (int)LOAD1(t2, e) + 256 * (int)LOAD1(t2, plane + e);
          sum += (uint)(weight * svdf_state_value(t1, state_at, e, plane));
        }
      }
      if (K[3] != 0)
        sum += (uint)(int)LOAD1(t3, u) + ((uint)(int)LOAD1(t3, bias_plane + u) << 8) +
               ((uint)(int)LOAD1(t3, 2 * bias_plane + u) << 16) +
               ((uint)(int)LOAD1(t3, 3 * bias_plane + u) << 24);
      value = (float)as_int(sum) * as_float(K[6]);
    }
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}
