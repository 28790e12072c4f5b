/* depthwise_conv_ordered, and the 1x1 convolution that reads its output
 * (the next inverted-residual block's expansion), in one dispatch: one
 * dependent step, and one barrier, fewer per block (gpu_kernel_catalog.h).
 * The group has all of its pixel's depthwise + 1x1 outputs once
 * ordered_finish has stored them; it keeps them in shared memory as the
 * tensor holds them, then each item sums expansion channels over them in
 * order, as conv_ordered does (bias first), into taps from
 * `items` on, and the slices go to t6 with the expansion's
 * activation. t4 holds both 1x1 weights: the expansion's K(19) and its
 * bias K(20) elements after t4's start. */
DEFINE_ORDERED_PARTS

/* Stores slice i of t6. */
void store_t6(int i, FLT4 v) {
  int e = tensor_offset[6] + 4 * i;
#if defined(GPU_PACKED_HALF)
  t6.data[e >> 1] = packHalf2x16(vec2(v.xy));
  t6.data[(e >> 1) + 1] = packHalf2x16(vec2(v.zw));
#else
  t6.data[e >> 2] = STORAGE4(v);
#endif
}

void main() {
  kernel_start();
  int t = int(gl_LocalInvocationID.x), items = min(int(gl_WorkGroupSize.x), ORDERED_MAX_ITEMS);
  int pixel = int(gl_GlobalInvocationID.y);
  int out_h = P(P_OUT_H), out_w = P(P_OUT_W);
  /* No early return before the barriers: every item must reach them. */
  bool in_range = pixel < P(P_OUT_B) * out_h * out_w;
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int count = K(12), depthwise_slices = K(13);
  for (int ds = t; in_range && t < items && ds < depthwise_slices; ds += items) {
    FLT4 v = depthwise_value(b, y, x, ds);
    taps[ds * 4] = v.x;
    taps[ds * 4 + 1] = v.y;
    taps[ds * 4 + 2] = v.z;
    taps[ds * 4 + 3] = v.w;
  }
  ordered_finish(in_range, b, y, x, 4, K(18), 4, count, true);
  memoryBarrierShared();
  barrier();
  int channels = K(21), slices = K(22), padded = slices * 4;
  for (int oc = t; in_range && t < items && oc < padded; oc += items) {
    float acc = ordered_sum(float(load1(4, K(20) + oc)), 4, K(19) / 4 + oc, padded, P(P_OUT_C));
    taps[items + oc] = FLT(acc);
  }
  memoryBarrierShared();
  barrier();
  for (int s = t; in_range && t < items && s < slices; s += items) {
    int e = items + s * 4, c = s * 4;
    FLT4 v = FLT4(taps[e], taps[e + 1], taps[e + 2], taps[e + 3]);
    if (K(23) != 0) v = min(max(v, FLT4(intBitsToFloat(K(24)))), FLT4(intBitsToFloat(K(25))));
    if (c + 1 >= channels) v.y = FLT(0);
    if (c + 2 >= channels) v.z = FLT(0);
    if (c + 3 >= channels) v.w = FLT(0);
    store_t6(((b * out_h + y) * out_w + x) * slices + s, v);
  }
}
