/* t0 (slices) <- t1 (dense float32, or bool bytes when K(0) is 1), read
 * as words from the byte offset P(1). */

uint dense_byte(int at) { return (w1.words[at >> 2] >> (uint(at & 3) * 8u)) & 0xFFu; }

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int channels = P(P_OUT_C);
  int first = ((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * channels;
  int byte_offset = P(1);
  FLT4 v = FLT4(0);
  for (int i = 0; i < 4 && s * 4 + i < channels; ++i) {
    int at = first + s * 4 + i;
    FLT value = K(0) != 0 ? FLT(dense_byte(byte_offset + at) != 0u)
                          : FLT(uintBitsToFloat(w1.words[(byte_offset >> 2) + at]));
    v = with_lane(v, i, value);
  }
  store4(((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * P(P_OUT_S) + s, v);
}
