/* Softmax over the channels of each pixel: exp((x - max) * beta) / sum,
 * K(0) the float bits of beta. */
void main() {
  kernel_start();
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || gl_GlobalInvocationID.z != 0u) return;
  int b = by / P(P_OUT_H), y = by - b * P(P_OUT_H);
  int slices = P(P_OUT_S), channels = P(P_OUT_C);
  int first = (by * P(P_OUT_W) + x) * slices;
  float beta = intBitsToFloat(K(0));
  float largest = negative_infinity();
  for (int c = 0; c < channels; ++c) largest = max(largest, float(load_channel(1, first, c)));
  GPU_PRECISE float sum = 0.0;
  for (int c = 0; c < channels; ++c) sum += exp((float(load_channel(1, first, c)) - largest) * beta);
  for (int s = 0; s < slices; ++s) {
    vec4 v = vec4(load4(1, first + s));
    vec4 e = exp((v - largest) * beta) / sum;
    finish_slice(b, y, x, s, FLT4(e));
  }
}
