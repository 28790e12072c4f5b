/* t0 <- conv(t1, weights t2, bias t3). Weights of an output slice lie as
 * [KH][KW][input slice][4] vectors: vector i of an input slice holds, for
 * its input channel i, the weights of the slice's four output channels.
 * Each work item computes K(11) (1 to 4) consecutive output slices, reusing
 * every input slice it reads. t1 holds slices, or an 8-bit tensor's
 * integers, dense (input_slice). */

/* Input slice i: t1's, or (IN_WORDS) one word of four 8-bit integers (a
 * partition input as the core holds it, or a tensor another conv2d
 * dispatch stored dense), dequantized as to_slices.comp
 * would and rounded as it stores (K(12) scale, K(13) zero point, K(14) the
 * sign bits that make int8 bytes unsigned); the last slice's lanes from
 * K(15) on lie past the tensor and read as 0 (a single pixel of C not a
 * multiple of 4). A constant branch where POST_LIST is known. */
FLT4 input_slice(int i) {
  FLT4 v;
  if (reads_input_words()) {
    uint word = w1.words[tensor_offset[1] + i] ^ uint(K(14));
    ivec4 q = ivec4((uvec4(word) >> uvec4(0u, 8u, 16u, 24u)) & 255u);
    v = as_stored(FLT4(vec4(q - K(13)) * intBitsToFloat(K(12))));
    if (K(15) < 4 && i == K(2) - 1)
      v = mix(v, FLT4(0), greaterThanEqual(ivec4(0, 1, 2, 3), ivec4(K(15))));
  } else {
    v = load4(1, i);
  }
  return v;
}

void main() {
  kernel_start();
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
  int group = int(gl_GlobalInvocationID.z);
  int per_item = K(11), slices = P(P_OUT_S);
  int s0 = group * per_item;
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || s0 >= slices) return;
  int b = by / P(P_OUT_H), y = by - b * P(P_OUT_H);
  int in_h = K(0), in_w = K(1), in_s = K(2), kh = K(3), kw = K(4);
  int y0 = y * K(5) - K(9), x0 = x * K(6) - K(10);
  int count = min(per_item, slices - s0);
  int stride = kh * kw * in_s * 4; /* weight vectors per output slice */
  int w0 = s0 * stride;
  int w1 = count > 1 ? w0 + stride : w0;
  int w2 = count > 2 ? w1 + stride : w0;
  int w3 = count > 3 ? w2 + stride : w0;
  vec4 acc0 = vec4(load4(3, s0));
  vec4 acc1 = count > 1 ? vec4(load4(3, s0 + 1)) : vec4(0.0);
  vec4 acc2 = count > 2 ? vec4(load4(3, s0 + 2)) : vec4(0.0);
  vec4 acc3 = count > 3 ? vec4(load4(3, s0 + 3)) : vec4(0.0);
  for (int ky = 0; ky < kh; ++ky) {
    int iy = y0 + ky * K(7);
    if (iy < 0 || iy >= in_h) continue;
    for (int kx = 0; kx < kw; ++kx) {
      int ix = x0 + kx * K(8);
      if (ix < 0 || ix >= in_w) continue;
      int in_at = ((b * in_h + iy) * in_w + ix) * in_s;
      int w_at = (ky * kw + kx) * in_s * 4;
      for (int is = 0; is < in_s; ++is, w_at += 4) {
        FLT4 v = input_slice(in_at + is);
        acc0 = madd4(v, 2, w0 + w_at, acc0);
        if (count > 1) acc1 = madd4(v, 2, w1 + w_at, acc1);
        if (count > 2) acc2 = madd4(v, 2, w2 + w_at, acc2);
        if (count > 3) acc3 = madd4(v, 2, w3 + w_at, acc3);
      }
    }
  }
  finish_slice(b, y, x, s0, FLT4(acc0));
  if (count > 1) finish_slice(b, y, x, s0 + 1, FLT4(acc1));
  if (count > 2) finish_slice(b, y, x, s0 + 2, FLT4(acc2));
  if (count > 3) finish_slice(b, y, x, s0 + 3, FLT4(acc3));
}
