/* t0 (slices) <- t1 (dense of kind K(0), gpu_dense_kind: 0 float32,
 * 1 bool bytes, 2 uint8, 3 int8, 4 int16, 5 int32), read as 32-bit words from
 * the byte offset P(1): bytes four to a word, int16 two. The 8- and 16-bit
 * kinds are dequantized here with K(1) scale bits and K(2) zero point (a
 * quantized partition input: the float view's edge; scale 1 and zero point 0
 * when not quantized, as a CAST input); int32 values become floats
 * (kernels/cl/layout.cl's twin). */

/* The integer of `bits` bits (8 or 16) at byte `at`, sign-extended when
 * signed. */
int dense_integer(int at, int bits, bool is_signed) {
  uint word = w1.words[at >> 2];
  int shift = (at & 3) * 8;
  return is_signed ? bitfieldExtract(int(word), shift, bits)
                   : int(bitfieldExtract(word, shift, bits));
}

float dense_value(int byte_offset, int at) {
  int kind = K(0);
  if (kind == 0) return uintBitsToFloat(w1.words[(byte_offset >> 2) + at]);
  if (kind == 1) return dense_integer(byte_offset + at, 8, false) != 0 ? 1.0 : 0.0;
  if (kind == 5) return float(int(w1.words[(byte_offset >> 2) + at]));
  int q = kind == 4 ? dense_integer(byte_offset + 2 * at, 16, true)
                    : dense_integer(byte_offset + at, 8, kind == 3);
  return float(q - K(2)) * intBitsToFloat(K(1));
}

void main() {
  kernel_start();
  OUTPUT_COORDS;
  int channels = P(P_OUT_C);
  int first = ((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * channels;
  int byte_offset = P(1);
  FLT4 v = FLT4(0);
  for (int i = 0; i < 4 && s * 4 + i < channels; ++i)
    v = with_lane(v, i, FLT(dense_value(byte_offset, first + s * 4 + i)));
  store4(((b * P(P_OUT_H) + y) * P(P_OUT_W) + x) * P(P_OUT_S) + s, v);
}
