// gpu pipeline example (vk_pipeline.c), step 1: draws the test image into
// the application's VkBuffer. Pixel (x, y), channel c, in [0, 1]: a smooth
// pattern with a bright disc, as pipeline_common.c draws it on the CPU.
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Image { float pixels[]; };
layout(push_constant) uniform Size { int side; };

void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i >= side * side * 3) return;
  int c = i % 3, x = (i / 3) % side, y = i / (3 * side);
  float u = float(x) / float(side), v = float(y) / float(side);
  float disc = (u - 0.5) * (u - 0.5) + (v - 0.45) * (v - 0.45) < 0.06 ? 0.8 : 0.0;
  pixels[i] = clamp(0.1 + 0.3 * u + 0.2 * v * float(c) + disc, 0.0, 1.0);
}
