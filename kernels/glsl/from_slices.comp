/* t0 (dense float32, or bool bytes when K(0) is 1, from the byte offset
 * P(0)) <- t1 (slices), over (x, b * H + y, c). */

/* Byte at of t0: its word's other bytes may belong to other work items (or
 * lie outside the tensor), so it is changed atomically. */
void store_dense_byte(int at, uint value) {
  uint shift = uint(at & 3) * 8u;
  atomicAnd(w0.words[at >> 2], ~(0xFFu << shift));
  atomicOr(w0.words[at >> 2], value << shift);
}

void main() {
  kernel_start();
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
  int c = int(gl_GlobalInvocationID.z);
  int channels = P(P_OUT_C);
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || c >= channels) return;
  int pixel = by * P(P_OUT_W) + x;
  FLT value = load_channel(1, pixel * P(P_OUT_S), c);
  int byte_offset = P(0);
  if (K(0) != 0)
    store_dense_byte(byte_offset + pixel * channels + c, value != FLT(0) ? 1u : 0u);
  else
    w0.words[(byte_offset >> 2) + pixel * channels + c] = floatBitsToUint(float(value));
}
