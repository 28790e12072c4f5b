/* t0 <- depthwise conv(t1, weights t2 [slice][KH][KW] vectors, bias t3);
 * output channel c reads input channel c / K(11) (the multiplier). The
 * taps are depthwise_slice's (common.glsl). */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  finish_slice(b, y, x, s, FLT4(depthwise_slice(b, y, x, s, P(P_OUT_C) - 1)));
}
