/* A depthwise convolution and the 1x1 convolution that is its only reader,
 * in one dispatch (gpu_kernel_catalog.h), the 1x1 summed as conv_ordered
 * sums: a work group per pixel puts the pixel's depthwise values
 * (depthwise_value, common.glsl) in shared memory, then each item sums one
 * output channel over them in order. t1 input, t2 and t3 the depthwise
 * weights and bias, t4 the 1x1 weights as conv_ordered's (the input
 * channels its taps) with the bias K(18) values further (t5 and t6 stay free for
 * post-ops). Global as conv_ordered's. */
DEFINE_ORDERED_PARTS

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
  ordered_finish(in_range, b, y, x, 4, K(18), 4, count, false);
}
