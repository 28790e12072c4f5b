/* Conversions between the dense NHWC tensors the core hands over (float32,
 * bool as bytes, or the integers of a quantized tensor) and the slice
 * layout. Their dense offsets are bytes. K[0] is the dense kind
 * (gpu_dense_kind: 0 float32, 1 bool, 2 uint8, 3 int8, 4 int16, 5 int32,
 * 6 int64); the 8- and 16-bit kinds carry K[1] scale bits, K[2] zero point,
 * K[3] qmin, K[4] qmax (scale 1 and zero point 0 for a tensor that is not
 * quantized, such as a CAST input); int32 and int64 are integer values held
 * as floats (ARG_MAX outputs, CAST inputs), int64 on the way out only. This is the float view's edge: a quantized partition input is
 * dequantized here, a quantized output quantized here, on the GPU. */

/* Element at of a dense tensor of kind K[0], as a real value. */
float dense_value(__global const int *K, __global const uchar *bytes, int at) {
  switch (K[0]) {
  case 1: return (float)(bytes[at] != 0);
  case 2: return (float)((int)bytes[at] - K[2]) * as_float(K[1]);
  case 3: return (float)((int)((__global const char *)bytes)[at] - K[2]) * as_float(K[1]);
  case 4: return (float)((int)((__global const short *)bytes)[at] - K[2]) * as_float(K[1]);
  case 5: return (float)((__global const int *)bytes)[at];
  default: return ((__global const float *)bytes)[at];
  }
}

/* The integer of real value x on the grid K[1..5) (quantize_real). */
int quantize_value(__global const int *K, float x) {
  return quantize_real(x, as_float(K[1]), K[2], K[3], K[4]);
}

__global const uchar *dense_bytes(__global STORAGE *t, int byte_offset) {
  return (__global const uchar *)t + byte_offset;
}

/* t0 (slices) <- t1 (dense of kind K[0]). */
__kernel void gpu_to_slices(KERNEL_ARGS) {
  __global const int *P = params + base;
  __global const int *K = P + P_KERNEL;
  t0 += P[0];
  OUTPUT_COORDS;
  int channels = P[P_OUT_C];
  int first = ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * channels;
  __global const uchar *bytes = dense_bytes(t1, P[1]);
  FLT4 v = F4(0);
  for (int i = 0; i < 4 && s * 4 + i < channels; ++i)
    v = with_lane(v, i, (FLT)dense_value(K, bytes, first + s * 4 + i));
  STORE4(t0, ((b * P[P_OUT_H] + y) * P[P_OUT_W] + x) * P[P_OUT_S] + s, v);
}

/* t0 (dense of kind K[0]) <- t1 (slices), over (x, b * H + y, c). */
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
  int at = pixel * channels + c;
  switch (K[0]) {
  case 1: bytes[at] = value != (FLT)0; break;
  case 2: bytes[at] = (uchar)quantize_value(K, (float)value); break;
  case 3: ((__global char *)bytes)[at] = (char)quantize_value(K, (float)value); break;
  case 4: ((__global short *)bytes)[at] = (short)quantize_value(K, (float)value); break;
  case 5: /* a quantized int32 output (K[1] its scale), else integer values */
    ((__global int *)bytes)[at] = K[1] != 0 ? quantize_value(K, (float)value) : (int)rint((float)value);
    break;
  case 6: ((__global long *)bytes)[at] = (long)rint((float)value); break;
  default: ((__global float *)bytes)[at] = (float)value;
  }
}
