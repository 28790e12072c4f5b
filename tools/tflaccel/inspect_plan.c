#include "config.h"

#include <stdio.h>

#include "tools/tflaccel/inspect_plan.h"
#include "tools/tflaccel/json_writer.h"

/* Op indices are those of the prepared graph (after load-time folding), the
 * graph accelerators see. */
static void print_op_ranges(FILE *out, const uint32_t *ops, uint32_t count) {
  for (uint32_t i = 0; i < count;) {
    uint32_t j = i;
    while (j + 1 < count && ops[j + 1] == ops[j] + 1) ++j;
    fprintf(out, "%s%u", i ? "," : "", ops[i]);
    if (j > i) fprintf(out, "-%u", ops[j]);
    i = j + 1;
  }
}

static tflaccel_status print_tensors(FILE *out, const tflaccel_model *model, const char *label,
                                     const uint32_t *tensors, uint32_t count) {
  fprintf(out, "    %s:", label);
  if (count == 0) fputs(" none", out);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_model_tensor_info(model, tensors[i], &info);
    if (status) return status;
    fprintf(out, "%s %u '%s' (%llu bytes)", i ? "," : "", tensors[i], info.name,
            (unsigned long long)info.byte_size);
  }
  fputc('\n', out);
  return NULL;
}

tflaccel_status inspect_plan_print(FILE *out, const tflaccel_model *model,
                                   const tflaccel_compiled_model *compiled, const char *selection) {
  uint32_t count = tflaccel_compiled_model_partition_count(compiled);
  uint64_t total_bytes = 0;
  fprintf(out, "\nPlan for %s: %u partition%s (op indices of the prepared graph)\n", selection, count,
          count == 1 ? "" : "s");
  for (uint32_t p = 0; p < count; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_partition_info(compiled, p, &info);
    if (status) return status;
    fprintf(out, "  partition %u on %s: %u op%s [", p, info.accelerator, info.op_count,
            info.op_count == 1 ? "" : "s");
    print_op_ranges(out, info.ops, info.op_count);
    fprintf(out, "], boundary %llu bytes", (unsigned long long)info.boundary_bytes);
    if (info.precision != tflaccel_compiled_model_precision(compiled))
      fprintf(out, ", at %s", info.precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32");
    fputc('\n', out);
    status = print_tensors(out, model, "inputs", info.inputs, info.input_count);
    if (status == NULL) status = print_tensors(out, model, "outputs", info.outputs, info.output_count);
    if (status) return status;
    total_bytes += info.boundary_bytes;
  }
  fprintf(out, "  bytes crossing partition boundaries per run: %llu\n",
          (unsigned long long)total_bytes);
  return NULL;
}

static void json_indices(FILE *out, const uint32_t *values, uint32_t count) {
  fputc('[', out);
  for (uint32_t i = 0; i < count; ++i) fprintf(out, "%s%u", i ? "," : "", values[i]);
  fputc(']', out);
}

tflaccel_status inspect_plan_json(FILE *out, const tflaccel_model *model,
                                  const tflaccel_compiled_model *compiled, const char *selection) {
  (void)model;
  uint32_t count = tflaccel_compiled_model_partition_count(compiled);
  fputs(",\"accelerators\":", out);
  json_write_string(out, selection);
  fputs(",\"plan\":[", out);
  for (uint32_t p = 0; p < count; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_partition_info(compiled, p, &info);
    if (status) return status;
    fprintf(out, "%s{\"accelerator\":", p ? "," : "");
    json_write_string(out, info.accelerator);
    fputs(",\"ops\":", out);
    json_indices(out, info.ops, info.op_count);
    fputs(",\"inputs\":", out);
    json_indices(out, info.inputs, info.input_count);
    fputs(",\"outputs\":", out);
    json_indices(out, info.outputs, info.output_count);
    fprintf(out, ",\"boundary_bytes\":%llu,\"precision\":\"%s\"}",
            (unsigned long long)info.boundary_bytes,
            info.precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32");
  }
  fputc(']', out);
  return NULL;
}
