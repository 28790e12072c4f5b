/* bench/mlp_twin_models.c OUTDIR [LAYERS [WIDTH]]: writes a float model and
 * its int8 twin (the same weights quantized as TFLite's converter does: per
 * tensor, int32 bias on input scale x weight scale, ReLU folded into the
 * activations' ranges) of LAYERS fully connected layers of WIDTH units
 * (default 24 x 16) as OUTDIR/mlp_float.tflite and OUTDIR/mlp_int8.tflite.
 * hello_world, the corpus's only twins, is three layers: its per-dispatch
 * differences sit near the GPU timestamps' resolution; a deep twin adds
 * them up (bench/quant-vs-float.sh --mlp, issue #19 item 7). Built
 * against the test suite's .tflite writer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/model/tflite_builder.h"

/* schema.fbs: TensorType FLOAT32 0, INT32 2, INT8 9; BuiltinOperator
 * FULLY_CONNECTED 9; BuiltinOptions FullyConnectedOptions 8;
 * ActivationFunctionType RELU 1. */
enum { FLOAT32 = 0, INT32 = 2, INT8 = 9, FULLY_CONNECTED = 9, FC_OPTIONS = 8, RELU = 1 };

/* The activations' real range after ReLU, and the last layer's output range. */
#define ACTIVATION_MAX 8.0f
#define OUTPUT_RANGE 8.0f
#define MAX_WIDTH 32

/* A fixed pseudo-random value in [-1, 1) (the same models on every run). */
static float next_value(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

static int write_file(const char *dir, const char *name, tb_model *m) {
  size_t size = 0;
  uint8_t *bytes = tb_serialize(m, &size);
  if (bytes == NULL) {
    fprintf(stderr, "mlp_twin_models: cannot serialize %s\n", name);
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *file = fopen(path, "wb");
  int ok = file != NULL && fwrite(bytes, 1, size, file) == size;
  if (file != NULL && fclose(file) != 0) ok = 0;
  free(bytes);
  if (!ok) fprintf(stderr, "mlp_twin_models: cannot write %s\n", path);
  return !ok;
}

/* One model: quantized = 0 float, 1 int8. Weights come from seed. */
static tb_model *build(int quantized, int layers, int width) {
  tb_model *m = tb_create();
  if (m == NULL) return NULL;
  const uint32_t fc = tb_opcode(m, FULLY_CONNECTED, NULL);
  const int32_t act_shape[2] = {1, width}, w_shape[2] = {width, width}, b_shape[1] = {width};
  const int8_t act_type = quantized ? INT8 : FLOAT32;
  /* Activations after ReLU in [0, ACTIVATION_MAX]: zero point -128. */
  const float act_scale = ACTIVATION_MAX / 255.0f, out_scale = 2.0f * OUTPUT_RANGE / 255.0f;
  const int64_t act_zero = -128, out_zero = 0;
  uint32_t input = tb_tensor(m, "input", act_type, 2, act_shape, 0);
  if (quantized) tb_tensor_quantization(m, input, 1, &act_scale, &act_zero, 0);
  const int32_t graph_input = (int32_t)input;
  uint32_t state = 12345u;
  float bias[MAX_WIDTH];
  for (int l = 0; l < layers; ++l) {
    const int last = l == layers - 1;
    /* He-like scale keeps the activations in range layer after layer. */
    const float spread = sqrtf(6.0f / (float)width);
    float w_max = 0.0f;
    float *w = malloc((size_t)width * (size_t)width * sizeof *w);
    if (w == NULL) {
      tb_destroy(m);
      return NULL;
    }
    for (int i = 0; i < width * width; ++i) {
      w[i] = spread * next_value(&state);
      if (fabsf(w[i]) > w_max) w_max = fabsf(w[i]);
    }
    for (int o = 0; o < width; ++o) bias[o] = 0.25f * next_value(&state);
    char name[64];
    uint32_t wt, bt;
    snprintf(name, sizeof name, "w%d", l);
    if (quantized) {
      const float w_scale = w_max / 127.0f, b_scale = act_scale * w_scale;
      int8_t *q = malloc((size_t)width * (size_t)width);
      int32_t *qb = malloc((size_t)width * sizeof *qb);
      if (q == NULL || qb == NULL) {
        free(q), free(qb), free(w);
        tb_destroy(m);
        return NULL;
      }
      for (int i = 0; i < width * width; ++i) q[i] = (int8_t)lrintf(w[i] / w_scale);
      for (int o = 0; o < width; ++o) qb[o] = (int32_t)lrintf(bias[o] / b_scale);
      const int64_t zero = 0;
      wt = tb_tensor(m, name, INT8, 2, w_shape, tb_buffer(m, q, (size_t)width * (size_t)width));
      tb_tensor_quantization(m, wt, 1, &w_scale, &zero, 0);
      snprintf(name, sizeof name, "b%d", l);
      bt = tb_tensor(m, name, INT32, 1, b_shape, tb_buffer(m, qb, (size_t)width * sizeof *qb));
      tb_tensor_quantization(m, bt, 1, &b_scale, &zero, 0);
      free(q), free(qb);
    } else {
      wt = tb_tensor(m, name, FLOAT32, 2, w_shape,
                     tb_buffer(m, w, (size_t)width * (size_t)width * sizeof *w));
      snprintf(name, sizeof name, "b%d", l);
      bt =
          tb_tensor(m, name, FLOAT32, 1, b_shape, tb_buffer(m, bias, (size_t)width * sizeof *bias));
    }
    free(w);
    snprintf(name, sizeof name, last ? "output" : "a%d", l);
    const uint32_t out = tb_tensor(m, name, act_type, 2, act_shape, 0);
    if (quantized)
      tb_tensor_quantization(m, out, 1, last ? &out_scale : &act_scale,
                             last ? &out_zero : &act_zero, 0);
    const int32_t inputs[3] = {(int32_t)input, (int32_t)wt, (int32_t)bt},
                  outputs[1] = {(int32_t)out};
    const uint32_t op = tb_op(m, fc, 3, inputs, 1, outputs);
    const tb_field activation = {0, 1, last ? 0u : (uint32_t)RELU};
    tb_op_options(m, op, FC_OPTIONS, 1, &activation);
    input = out;
  }
  const int32_t graph_output = (int32_t)input;
  tb_inputs(m, 1, &graph_input);
  tb_outputs(m, 1, &graph_output);
  return m;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: mlp_twin_models OUTDIR [LAYERS [WIDTH]]\n");
    return 2;
  }
  const int layers = argc > 2 ? atoi(argv[2]) : 24, width = argc > 3 ? atoi(argv[3]) : 16;
  if (layers < 1 || layers > 512 || width < 1 || width > MAX_WIDTH) {
    fprintf(stderr, "mlp_twin_models: LAYERS must be 1..512 and WIDTH 1..32\n");
    return 2;
  }
  static const char *const names[2] = {"mlp_float.tflite", "mlp_int8.tflite"};
  for (int quantized = 0; quantized < 2; ++quantized) {
    tb_model *m = build(quantized, layers, width);
    if (m == NULL) {
      fprintf(stderr, "mlp_twin_models: out of memory\n");
      return 1;
    }
    int failed = write_file(argv[1], names[quantized], m);
    tb_destroy(m);
    if (failed) return 1;
  }
  printf("%d layers of %d units: %s/mlp_float.tflite %s/mlp_int8.tflite\n", layers, width, argv[1],
         argv[1]);
  return 0;
}
