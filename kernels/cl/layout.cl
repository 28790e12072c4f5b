/* Conversions between the dense NHWC tensors the core hands over (float32,
 * or bool as bytes) and the slice layout. Their dense offsets are bytes. */

__global const uchar *dense_bytes(__global STORAGE *t, int byte_offset) {
  return (__global const uchar *)t + byte_offset;
}

/* t0 (slices) <- t1 (dense); K[0] 1 for bool, 2 int32, 4 uint8, 5 int8,
 * 6 int16 (integers become float values), else float32. */
__kernel void gpu_to_slices(KERNEL_ARGS) {
  __global const int *P = params + base;
  __global const int *K = P + P_KERNEL;
  t0 += P[0];
  OUTPUT_COORDS;
  int channels = P[P_OUT_C];
  int first = ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * channels;
  __global const uchar *bytes = dense_bytes(t1, P[1]);
  __global const float *floats = (__global const float *)bytes;
  FLT4 v = F4(0);
  for (int i = 0; i < 4 && s * 4 + i < channels; ++i) {
    int at = first + s * 4 + i;
    FLT value;
    switch (K[0]) {
    case 1: value = (FLT)(bytes[at] != 0); break;
    case 2: value = (FLT)((__global const int *)bytes)[at]; break;
    case 4: value = (FLT)bytes[at]; break;
    case 5: value = (FLT)((__global const char *)bytes)[at]; break;
    case 6: value = (FLT)((__global const short *)bytes)[at]; break;
    default: value = (FLT)floats[at]; break;
    }
    v = with_lane(v, i, value);
  }
  STORE4(t0, ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * P[P_OUT_S] + s, v);
}

/* t0 (dense) <- t1 (slices), over (x, b * H + y, c); K[0] 1 for bool,
 * 2 for int32, 3 for int64 (integer values held as floats). */
__kernel void gpu_from_slices(KERNEL_ARGS) {
  __global const int *P = params + base;
  __global const int *K = P + P_KERNEL;
  t1 += P[1];
  int x = get_global_id(0), by = get_global_id(1), c = get_global_id(2);
  int channels = P[P_OUT_C];
  if (x >= P[P_OUT_W] || by >= P[P_OUT_B] * P[P_OUT_H] || c >= channels) return;
  int pixel = by * P[P_OUT_W] + x;
  FLT value = load_channel(t1, pixel * P[P_OUT_S], c);
  __global uchar *bytes = (__global uchar *)t0 + P[0];
  if (K[0] == 1)
    bytes[pixel * channels + c] = value != (FLT)0;
  else if (K[0] == 2)
    ((__global int *)bytes)[pixel * channels + c] = (int)rint((float)value);
  else if (K[0] == 3)
    ((__global long *)bytes)[pixel * channels + c] = (long)rint((float)value);
  else
    ((__global float *)bytes)[pixel * channels + c] = (float)value;
}
