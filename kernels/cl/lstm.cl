/* The gates of the basic LSTM cell (TFLite's LstmCell), after the gate sums
 * activ_temp were computed by gpu_conv2d. */

/* LOGISTIC's formula (cpu_ref's and apply_unary's). */
float lstm_sigmoid(float x) { return 1.0f / (1.0f + exp(-x)); }

/* The integer LSTM's fixed-point steps (TFLite's 8x8_16 kernel, K[6] set),
 * simulated in float: a gate sum on the int16 Q3.12 grid (saturated), a
 * gate on the int16 Q0.15 grid, a product on the cell state's grid (the
 * rounding shifts of its cell update: half away from zero). */
float lstm_q3_12(float x) { return fmin(fmax(round(x * 4096.0f), -32768.0f), 32767.0f) / 4096.0f; }
float lstm_q0_15(float x) { return fmin(fmax(round(x * 32768.0f), -32768.0f), 32767.0f) / 32768.0f; }
float lstm_on_cell_grid(float x, float scale) { return round(x / scale) * scale; }

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
  int integer = K[6];
  float cell_scale = as_float(K[7]);
  FLT4 v = F4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= depth) break;
    float sums[4];
    for (int g = 0; g < 4; ++g) {
      sums[g] = (float)load_channel(t1, gates_at, g * depth + c);
      /* The integer LSTM's input part saturates on its own, then the
       * recurrent part (channel (4 + g) * D + c, rounded) is added and the
       * sum saturates. */
      if (integer)
        sums[g] = lstm_q3_12(lstm_q3_12(sums[g]) +
                             round((float)load_channel(t1, gates_at, (4 + g) * depth + c) *
                                   4096.0f) / 4096.0f);
    }
    float input_gate = lstm_sigmoid(sums[0]);
    float new_input = tanh(sums[1]);
    float forget_gate = lstm_sigmoid(sums[2]);
    float prev_state = (float)load_channel(t2, state_at, c);
    float state;
    if (integer) {
      input_gate = lstm_q0_15(input_gate);
      new_input = lstm_q0_15(new_input);
      forget_gate = lstm_q0_15(forget_gate);
      state = lstm_on_cell_grid(forget_gate * prev_state, cell_scale) +
              lstm_on_cell_grid(input_gate * new_input, cell_scale);
    } else {
      state = input_gate * new_input + forget_gate * prev_state;
    }
    if (cell_clip > 0.0f) state = fmin(fmax(state, -cell_clip), cell_clip);
    float value = state;
    if (write_activ) {
      float output_gate = lstm_sigmoid(sums[3]), cell_tanh = tanh(state);
      if (integer) {
        output_gate = lstm_q0_15(output_gate);
        cell_tanh = lstm_q0_15(cell_tanh);
      }
      value = output_gate * cell_tanh + activ_offset;
    }
    v = with_lane(v, lane, (FLT)value);
  }
  finish_slice(P, TENSORS, b, y, x, s, v);
}
