/* 1x1 convolution (FULLY_CONNECTED too) for layers with few outputs and
 * many input channels: one work group per output slice, its work items
 * splitting the input slices (item r takes r, r + n, ...) and the partial
 * sums added in item order. Weights and parameters as gpu_conv2d's. Each
 * group computes the whole sum, so extra groups along dimension 0 only
 * repeat the same result. */
const int SPLIT_MAX_ITEMS = 64;
shared vec4 partial[SPLIT_MAX_ITEMS];

void main() {
  kernel_start();
  int r = int(gl_LocalInvocationID.x), items = min(int(gl_WorkGroupSize.x), SPLIT_MAX_ITEMS);
  int pixel = int(gl_GlobalInvocationID.y), s = int(gl_GlobalInvocationID.z);
  int out_h = P(P_OUT_H), out_w = P(P_OUT_W);
  /* No early return before the barrier: every item must reach it. */
  bool in_range = pixel < P(P_OUT_B) * out_h * out_w && s < P(P_OUT_S);
  int b = pixel / (out_h * out_w), y = pixel / out_w % out_h, x = pixel % out_w;
  int in_s = K(2);
  int in_at = ((b * K(0) + y * K(5) - K(9)) * K(1) + x * K(6) - K(10)) * in_s;
  int w = s * in_s * 4;
  vec4 acc = vec4(0.0);
  if (in_range && r < items)
    for (int is = r; is < in_s; is += items) acc = madd4(load4(1, in_at + is), 2, w + is * 4, acc);
  if (r < SPLIT_MAX_ITEMS) partial[r] = acc;
  memoryBarrierShared();
  barrier();
  if (!in_range || r != 0) return;
  PRECISE_FP32 vec4 total = vec4(load4(3, s));
  for (int i = 0; i < items; ++i) total += partial[i];
  finish_slice(b, y, x, s, FLT4(total));
}
