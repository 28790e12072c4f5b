/* bench/quant_binary_models.c OUTDIR: writes each case of
 * tests/cpu_ref_quant/binary_cases.h as OUTDIR/caseNN.tflite (inputs
 * [1,1,256,1] and [1,1,1,256], output [1,1,256,256]) and prints
 * "NN name" per case, for bench/quant-vs-litert.sh, which runs them through
 * TensorFlow Lite's own kernels and through cpu_ref. Built by that script
 * against the test suite's .tflite writer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/cpu_ref_quant/binary_cases.h"
#include "tests/model/tflite_builder.h"

/* schema.fbs: TensorType UINT8 3, INT8 9; BuiltinOptions AddOptions 11,
 * MulOptions 21, SubOptions 28, MaximumMinimumOptions 39,
 * SquaredDifferenceOptions 76. */
static int builtin_of(int32_t op, int32_t *code, uint8_t *options) {
  switch (op) {
  case TFLACCEL_OP_ADD: *code = 0, *options = 11; return 1;
  case TFLACCEL_OP_MUL: *code = 18, *options = 21; return 1;
  case TFLACCEL_OP_SUB: *code = 41, *options = 28; return 1;
  case TFLACCEL_OP_MAXIMUM: *code = 55, *options = 39; return 1;
  case TFLACCEL_OP_MINIMUM: *code = 57, *options = 39; return 1;
  case TFLACCEL_OP_SQUARED_DIFFERENCE: *code = 99, *options = 76; return 1;
  default: return 0;
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: quant_binary_models OUTDIR\n");
    return 2;
  }
  for (size_t k = 0; k < BINARY_CASE_COUNT; k++) {
    const binary_case *c = &exhaustive_cases[k];
    int32_t code;
    uint8_t options_type;
    if (!builtin_of(c->op, &code, &options_type)) continue;
    tb_model *m = tb_create();
    if (m == NULL) return 1;
    const int8_t type = c->dtype == TFLACCEL_DTYPE_UINT8 ? 3 : 9;
    const int32_t column[4] = {1, 1, 256, 1}, row[4] = {1, 1, 1, 256}, out[4] = {1, 1, 256, 256};
    const uint32_t a = tb_tensor(m, "a", type, 4, column, 0);
    const uint32_t b = tb_tensor(m, "b", type, 4, row, 0);
    const uint32_t o = tb_tensor(m, "out", type, 4, out, 0);
    const float scales[3] = {c->s1, c->s2, c->s_out};
    const int64_t zero_points[3] = {c->zp1, c->zp2, c->zp_out};
    const uint32_t tensors[3] = {a, b, o};
    for (int t = 0; t < 3; t++) tb_tensor_quantization(m, tensors[t], 1, &scales[t], &zero_points[t], 0);
    const int32_t inputs[2] = {(int32_t)a, (int32_t)b}, outputs[1] = {(int32_t)o};
    const uint32_t op = tb_op(m, tb_opcode(m, code, NULL), 2, inputs, 1, outputs);
    if (options_type == 11 || options_type == 21 || options_type == 28) {
      const tb_field activation = {0, 1, (uint32_t)c->activation};
      tb_op_options(m, op, options_type, 1, &activation);
    } else {
      tb_op_options(m, op, options_type, 0, NULL);
    }
    tb_inputs(m, 2, inputs);
    tb_outputs(m, 1, outputs);
    size_t size = 0;
    uint8_t *bytes = tb_serialize(m, &size);
    tb_destroy(m);
    if (bytes == NULL) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/case%02zu.tflite", argv[1], k);
    FILE *file = fopen(path, "wb");
    if (file == NULL || fwrite(bytes, 1, size, file) != size || fclose(file) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      free(bytes);
      return 1;
    }
    free(bytes);
    printf("%02zu %s\n", k, c->name);
  }
  return 0;
}
