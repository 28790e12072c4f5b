/* t0 (slices) <- t1 (dense float32, or bool bytes when K(0) is 1, int32
 * when 2, uint8 when 4, int8 when 5, int16 when 6: integers become float
 * values), read as words from the byte offset P(1). */

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
    int kind = K(0);
    FLT value;
    if (kind == 1) {
      value = FLT(dense_byte(byte_offset + at) != 0u);
    } else if (kind == 2) {
      value = FLT(int(w1.words[(byte_offset >> 2) + at]));
    } else if (kind == 4 || kind == 5) {
      int byte = int(dense_byte(byte_offset + at));
      value = FLT(kind == 5 && byte > 127 ? byte - 256 : byte);
    } else if (kind == 6) {
      int half_at = (byte_offset >> 1) + at;
      int bits = int((w1.words[half_at >> 1] >> (uint(half_at & 1) * 16u)) & 0xFFFFu);
      value = FLT(bits > 32767 ? bits - 65536 : bits);
    } else {
      value = FLT(uintBitsToFloat(w1.words[(byte_offset >> 2) + at]));
    }
    v = with_lane(v, i, value);
  }
  store4(((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * P(P_OUT_S) + s, v);
}
