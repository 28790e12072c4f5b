/* The gates of the basic LSTM cell (TFLite's LstmCell), after the gate sums
 * activ_temp were computed by gpu_conv2d. */

/* LOGISTIC's formula (cpu_ref's and apply_unary's). */
float lstm_sigmoid(float x) { return 1.0f / (1.0f + exp(-x)); }

/* t0 <- the new state (K[3] == 0) or the new activation (K[3] == 1) from
 * the gate sums t1 [B, 4D] and prev_state t2 [B, D]: K[0] D, K[1] t1's and
 * K[2] t2's slices per pixel. Gate g of channel c is t1's channel
 * g * D + c, loaded alone: it is not slice-aligned when D % 4 != 0. In
 * float in every mode, as cpu_ref computes it (K[4]: the float bits of
 * the cell clip, 0: none, UNIDIRECTIONAL_SEQUENCE_LSTM's cell_clip; K[5]:
 * those of a value added to the activation, 0 but in the int8 LSTM):
 *   state = sigmoid(g0) * tanh(g1) + sigmoid(g2) * prev_state, clipped
 *   activ = sigmoid(g3) * tanh(state) */
__kernel void gpu_lstm_gates(KERNEL_ARGS) {
  KERNEL_START;
  OUTPUT_COORDS;
  int depth = K[0], pixel = (b * P[P_OUT_H] + y) * P[P_OUT_W] + x;
  int gates_at = pixel * K[1], state_at = pixel * K[2];
  int write_activ = K[3];
  float cell_clip = as_float(K[4]), activ_offset = as_float(K[5]);
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= depth) break;
    float input_gate = lstm_sigmoid((float)load_channel(t1, gates_at, c));
    float new_input = tanh((float)load_channel(t1, gates_at, depth + c));
    float forget_gate = lstm_sigmoid((float)load_channel(t1, gates_at, 2 * depth + c));
    float prev_state = (float)load_channel(t2, state_at, c);
    float state = input_gate * new_input + forget_gate * prev_state;
    if (cell_clip > 0.0f) state = fmin(fmax(state, -cell_clip), cell_clip);
    float value = state;
    if (write_activ)
      value = lstm_sigmoid((float)load_channel(t1, gates_at, 3 * depth + c)) * tanh(state) +
              activ_offset;
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}
