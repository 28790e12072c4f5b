/* A depthwise convolution and the 1x1 convolution that is its only reader,
 * in one dispatch (gpu_kernel_catalog.h), the 1x1 computed as conv2d
 * computes it: each work item computes K(17) (1 to 4) output slices of one
 * pixel, each depthwise slice (depthwise_value, common.glsl) feeding all
 * of them. t1 input, t2 and t3 the depthwise weights and bias, t4 the 1x1
 * weights in conv2d's layout with the bias vectors K(18) values further.
 * Global as conv2d's. */
void main() {
  kernel_start();
  int x = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
  int group = int(gl_GlobalInvocationID.z);
  int per_item = K(17), slices = P(P_OUT_S);
  int s0 = group * per_item;
  if (x >= P(P_OUT_W) || by >= P(P_OUT_B) * P(P_OUT_H) || s0 >= slices) return;
  int b = by / P(P_OUT_H), y = by - b * P(P_OUT_H);
  int in_s = K(13);
  int count = min(per_item, slices - s0);
  int stride = in_s * 4; /* weight vectors per output slice */
  int w0 = s0 * stride;
  int w1 = count > 1 ? w0 + stride : w0;
  int w2 = count > 2 ? w1 + stride : w0;
  int w3 = count > 3 ? w2 + stride : w0;
  int bias = K(18) / 4; /* in slices: the weights are whole vectors */
  vec4 acc0 = vec4(load4(4, bias + s0));
  vec4 acc1 = count > 1 ? vec4(load4(4, bias + s0 + 1)) : vec4(0.0);
  vec4 acc2 = count > 2 ? vec4(load4(4, bias + s0 + 2)) : vec4(0.0);
  vec4 acc3 = count > 3 ? vec4(load4(4, bias + s0 + 3)) : vec4(0.0);
  for (int is = 0; is < in_s; ++is) {
    FLT4 v = depthwise_value(b, y, x, is);
    int w_at = is * 4;
    acc0 = madd4(v, 4, w0 + w_at, acc0);
    if (count > 1) acc1 = madd4(v, 4, w1 + w_at, acc1);
    if (count > 2) acc2 = madd4(v, 4, w2 + w_at, acc2);
    if (count > 3) acc3 = madd4(v, 4, w3 + w_at, acc3);
  }
  finish_slice(b, y, x, s0, FLT4(acc0));
  if (count > 1) finish_slice(b, y, x, s0 + 1, FLT4(acc1));
  if (count > 2) finish_slice(b, y, x, s0 + 2, FLT4(acc2));
  if (count > 3) finish_slice(b, y, x, s0 + 3, FLT4(acc3));
}
