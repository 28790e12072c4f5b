/* t0 (dense of kind K(0), gpu_dense_kind: 0 float32, 1 bool bytes,
 * 2 uint8, 3 int8, 4 int16, 5 int32, 6 int64, from the byte offset P(0))
 * <- t1 (slices), over (x, b * H + y, c). The 8- and 16-bit kinds are a
 * quantized partition output, quantized here to the grid K(1) scale bits,
 * K(2) zero point, K(3) qmin, K(4) qmax, as is int32 when K(1) is not 0
 * (a QUANTIZE to int32); otherwise int32 and int64 are integer values held
 * as floats (ARG_MAX outputs), rounded (kernels/cl/layout.cl's twin). */

/* store_dense_bits and quantized_bits: common.glsl. */

void main() {
  kernel_start();
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
  int c = int(gl_GlobalInvocationID.z);
  int channels = P(P_OUT_C);
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || c >= channels) return;
  int pixel = by * P(P_OUT_W) + x;
  FLT value = load_channel(1, pixel * P(P_OUT_S), c);
  int byte_offset = P(0), at = pixel * channels + c, kind = K(0);
  if (kind == 0) {
    w0.words[(byte_offset >> 2) + at] = floatBitsToUint(float(value));
  } else if (kind == 1) {
    store_dense_bits(byte_offset + at, 8, value != FLT(0) ? 1u : 0u);
  } else if (kind == 5 && K(1) != 0) {
    float q = round_half_away(float(value) / intBitsToFloat(K(1))) + float(K(2));
    w0.words[(byte_offset >> 2) + at] = uint(int(clamp(q, float(K(3)), float(K(4)))));
  } else if (kind == 5) {
    w0.words[(byte_offset >> 2) + at] = uint(int(round(float(value))));
  } else if (kind == 6) {
    int index = int(round(float(value)));
    w0.words[(byte_offset >> 2) + 2 * at] = uint(index);
    w0.words[(byte_offset >> 2) + 2 * at + 1] = index < 0 ? 0xFFFFFFFFu : 0u;
  } else {
    /* TFLite's quantization: round half away from zero, then clamp. */
    uint bits = quantized_bits(float(value), intBitsToFloat(K(1)), K(2), K(3), K(4));
    if (kind == 4)
      store_dense_bits(byte_offset + 2 * at, 16, bits);
    else
      store_dense_bits(byte_offset + at, 8, bits);
  }
}
