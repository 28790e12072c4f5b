// gpu pipeline example (vk_pipeline.c), step 3: sums the model's output
// (the mask) in one work group, into a small host-visible buffer: the one
// number that comes back to the host.
#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Mask { float mask[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Sum { float total; };
layout(push_constant) uniform Count { int count; };
shared float partial[256];

void main() {
  uint lane = gl_LocalInvocationID.x;
  float s = 0.0;
  for (int i = int(lane); i < count; i += 256) s += mask[i];
  partial[lane] = s;
  barrier();
  for (uint step = 128u; step > 0u; step >>= 1) {
    if (lane < step) partial[lane] += partial[lane + step];
    barrier();
  }
  if (lane == 0u) total = partial[0];
}
