/* t0 <- t1 read with the operand strides K(0..5) (+ post-ops). */
void main() {
  kernel_start();
  OUTPUT_COORDS;
  finish_slice(b, y, x, s, read_operand(pbase + P_KERNEL, 1, b, y, x, s));
}
