/* The gates of the basic LSTM cell (TFLite's LstmCell), after the gate sums
 * activ_temp were computed by conv2d: t0 <- the new state (K(3) == 0) or
 * the new activation (K(3) == 1) from the gate sums t1 [B, 4D] and
 * prev_state t2 [B, D]; K(0) D, K(1) t1's and K(2) t2's slices per pixel.
 * Gate g of channel c is t1's channel g * D + c, loaded alone: it is not
 * slice-aligned when D % 4 != 0. K(4): the float bits of the cell clip
 * (0: none), K(5): those of a value added to the activation (0 but in the
 * int8 LSTM), K(6) 1 in the int8 LSTM, its fixed-point steps simulated as
 * gpu_kernel_catalog.h says (K(7) the cell scale's float bits). In float in
 * every mode, as cpu_ref computes it (and
 * kernels/cl/lstm.cl):
 *   state = sigmoid(g0) * tanh(g1) + sigmoid(g2) * prev_state, clipped
 *   activ = sigmoid(g3) * tanh(state) */

/* LOGISTIC's formula (cpu_ref's and apply_unary's). */
float lstm_sigmoid(float x) { return 1.0 / (1.0 + exp(-x)); }

/* The integer LSTM's fixed-point steps (kernels/cl/lstm.cl's). */
float lstm_q3_12(float x) { return clamp(round_half_away(x * 4096.0), -32768.0, 32767.0) / 4096.0; }
float lstm_q0_15(float x) { return clamp(round_half_away(x * 32768.0), -32768.0, 32767.0) / 32768.0; }
float lstm_on_cell_grid(float x, float scale) { return round_half_away(x / scale) * scale; }

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int depth = K(0), pixel = (b * P(P_OUT_H) + y) * P(P_OUT_W) + x;
  int gates_at = pixel * K(1), state_at = pixel * K(2);
  bool write_activ = K(3) != 0;
  float cell_clip = intBitsToFloat(K(4)), activ_offset = intBitsToFloat(K(5));
  bool integer = K(6) != 0;
  float cell_scale = intBitsToFloat(K(7));
  FLT4 v = FLT4(0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = s * 4 + lane;
    if (c >= depth) break;
    float sums[4];
    for (int g = 0; g < 4; ++g) {
      sums[g] = float(load_channel(1, gates_at, g * depth + c));
      /* The integer LSTM's input part saturates on its own, then the
       * recurrent part (channel (4 + g) * D + c, rounded) is added and the
       * sum saturates. */
      if (integer)
        sums[g] = lstm_q3_12(lstm_q3_12(sums[g]) +
                             round_half_away(float(load_channel(1, gates_at, (4 + g) * depth + c)) *
                                             4096.0) / 4096.0);
    }
    float input_gate = lstm_sigmoid(sums[0]);
    float new_input = tanh(sums[1]);
    float forget_gate = lstm_sigmoid(sums[2]);
    float prev_state = float(load_channel(2, state_at, c));
    PRECISE_FP32 float state;
    if (integer) {
      input_gate = lstm_q0_15(input_gate);
      new_input = lstm_q0_15(new_input);
      forget_gate = lstm_q0_15(forget_gate);
      state = lstm_on_cell_grid(forget_gate * prev_state, cell_scale) +
              lstm_on_cell_grid(input_gate * new_input, cell_scale);
    } else {
      state = input_gate * new_input + forget_gate * prev_state;
    }
    if (cell_clip > 0.0) state = clamp(state, -cell_clip, cell_clip);
    PRECISE_FP32 float value = state;
    if (write_activ) {
      float output_gate = lstm_sigmoid(sums[3]), cell_tanh = tanh(state);
      if (integer) {
        output_gate = lstm_q0_15(output_gate);
        cell_tanh = lstm_q0_15(cell_tanh);
      }
      value = output_gate * cell_tanh + activ_offset;
    }
    v = with_lane(v, lane, FLT(value));
  }
  finish_slice(b, y, x, s, v);
}
