/* t0 (dense float32, or bool bytes when K(0) is 1, int32 when 2, int64
 * when 3 (integer values held as floats), from the byte offset P(0)) <- t1
 * (slices), over (x, b * H + y, c). */

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
  int at = pixel * channels + c;
  if (K(0) == 1) {
    store_dense_byte(byte_offset + at, value != FLT(0) ? 1u : 0u);
  } else if (K(0) == 2) {
    w0.words[(byte_offset >> 2) + at] = uint(int(round(float(value))));
  } else if (K(0) == 3) {
    int index = int(round(float(value)));
    w0.words[(byte_offset >> 2) + 2 * at] = uint(index);
    w0.words[(byte_offset >> 2) + 2 * at + 1] = index < 0 ? 0xFFFFFFFFu : 0u;
  } else
    w0.words[(byte_offset >> 2) + at] = floatBitsToUint(float(value));
}
