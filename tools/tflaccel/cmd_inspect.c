/* tflaccel inspect MODEL [--json]: what a .tflite file holds, through the
 * public API only. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/inspect_plan.h"
#include "tools/tflaccel/json_writer.h"

static void usage(FILE *stream) {
  fputs("usage: tflaccel inspect [--json] [--accelerator NAMES ...] MODEL.tflite\n"
        "  Shows a model's inputs and outputs (name, type, shape, quantization), its op\n"
        "  histogram, tensor count, weight bytes, an estimate of its peak activation\n"
        "  memory and its custom ops. With --accelerator (or any partitioning flag) it\n"
        "  also compiles the model and shows the partition plan: each partition's\n"
        "  accelerator, ops, boundary tensors and their bytes.\n"
        "  --json  print one JSON object instead (with a \"plan\" array when planning)\n",
        stream);
  fputs(cli_compile_flags_help(), stream);
}

/* Op counts of subgraph 0 as stored, keyed by BuiltinOperator name,
 * CUSTOM:<custom_code>, or UNKNOWN_<code>; in order of first appearance. */
typedef struct op_count {
  char *key;
  uint32_t count;
  int custom;
} op_count;

typedef struct op_histogram {
  op_count *entries;
  uint32_t entry_count;
} op_histogram;

static void histogram_free(op_histogram *histogram) {
  for (uint32_t i = 0; i < histogram->entry_count; ++i) free(histogram->entries[i].key);
  free(histogram->entries);
  histogram->entries = NULL;
  histogram->entry_count = 0;
}

static tflaccel_status histogram_add(op_histogram *histogram, const char *key, int custom) {
  for (uint32_t i = 0; i < histogram->entry_count; ++i) {
    if (strcmp(histogram->entries[i].key, key) == 0) {
      histogram->entries[i].count++;
      return NULL;
    }
  }
  op_count *grown = realloc(histogram->entries, (histogram->entry_count + 1) * sizeof *grown);
  if (grown == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  histogram->entries = grown;
  char *copy = strdup(key);
  if (copy == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  histogram->entries[histogram->entry_count++] = (op_count){copy, 1, custom};
  return NULL;
}

static tflaccel_status histogram_build(const tflaccel_model *model, uint32_t op_count_total,
                                       op_histogram *histogram) {
  for (uint32_t i = 0; i < op_count_total; ++i) {
    tflaccel_op_info op = {.struct_size = sizeof op};
    tflaccel_status status = tflaccel_model_op_info(model, i, &op);
    if (status) return status;
    char unknown[32];
    const char *name = tflaccel_op_code_name(op.code);
    if (op.code == TFLACCEL_OP_CUSTOM && op.custom_code) {
      size_t length = strlen("CUSTOM:") + strlen(op.custom_code) + 1;
      char *key = malloc(length);
      if (key == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
      snprintf(key, length, "CUSTOM:%s", op.custom_code);
      status = histogram_add(histogram, key, 1);
      free(key);
    } else {
      if (name == NULL) {
        snprintf(unknown, sizeof unknown, "UNKNOWN_%d", op.code);
        name = unknown;
      }
      status = histogram_add(histogram, name, 0);
    }
    if (status) return status;
  }
  return NULL;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_int_array(FILE *out, const int32_t *values, uint32_t count) {
  fputc('[', out);
  for (uint32_t i = 0; i < count; ++i) fprintf(out, "%s%d", i ? "," : "", values[i]);
  fputc(']', out);
}

static void json_float(FILE *out, float value) {
  if (isfinite(value)) fprintf(out, "%.9g", value);
  else fputs("null", out);
}

static void json_quantization(FILE *out, const tflaccel_quantization *q) {
  fputs("{\"scales\":[", out);
  for (uint32_t i = 0; i < q->count; ++i) {
    if (i) fputc(',', out);
    json_float(out, q->scales[i]);
  }
  fputs("],\"zero_points\":", out);
  json_int_array(out, q->zero_points, q->count);
  fprintf(out, ",\"quantized_dimension\":%d}", q->quantized_dimension);
}

static tflaccel_status json_io(FILE *out, const tflaccel_model *model, uint32_t count, int input) {
  fputc('[', out);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index;
    tflaccel_status status = input ? tflaccel_model_input_tensor(model, i, &index)
                                   : tflaccel_model_output_tensor(model, i, &index);
    if (status) return status;
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = tflaccel_model_tensor_info(model, index, &info);
    if (status) return status;
    fputs(i ? ",{\"name\":" : "{\"name\":", out);
    json_write_string(out, info.name);
    fprintf(out, ",\"tensor\":%u,\"dtype\":", index);
    json_write_string(out, tflaccel_dtype_name(info.dtype));
    fputs(",\"shape\":", out);
    json_int_array(out, info.shape, info.rank);
    if (info.shape_signature_rank) {
      fputs(",\"shape_signature\":", out);
      json_int_array(out, info.shape_signature, info.shape_signature_rank);
    }
    if (info.quantization.count) {
      fputs(",\"quantization\":", out);
      json_quantization(out, &info.quantization);
    }
    fputc('}', out);
  }
  fputc(']', out);
  return NULL;
}

static void json_string_list(FILE *out, const tflaccel_model *model, uint32_t count,
                             const char *(*name_of)(const tflaccel_model *, uint32_t)) {
  fputc('[', out);
  for (uint32_t i = 0; i < count; ++i) {
    if (i) fputc(',', out);
    json_write_string(out, name_of(model, i));
  }
  fputc(']', out);
}

/* Writes the model's part of the JSON object, leaving the object open so
 * that more (a partition plan) can follow before the closing brace. */
static tflaccel_status json_model(FILE *out, const char *path, const tflaccel_model *model,
                                  const tflaccel_model_summary *summary,
                                  const op_histogram *histogram) {
  fputs("{\"file\":", out);
  json_write_string(out, path);
  fprintf(out, ",\"schema_version\":%u,\"subgraphs\":%u,\"subgraph_names\":",
          summary->schema_version, summary->subgraph_count);
  json_string_list(out, model, summary->subgraph_count, tflaccel_model_subgraph_name);
  fputs(",\"description\":", out);
  json_write_string(out, summary->description);
  fprintf(out, ",\"tensors\":%u,\"inputs\":", summary->tensor_count);
  tflaccel_status status = json_io(out, model, summary->input_count, 1);
  if (status) return status;
  fputs(",\"outputs\":", out);
  status = json_io(out, model, summary->output_count, 0);
  if (status) return status;
  fprintf(out, ",\"op_count\":%u,\"ops\":{", summary->op_count);
  for (uint32_t i = 0; i < histogram->entry_count; ++i) {
    if (i) fputc(',', out);
    json_write_string(out, histogram->entries[i].key);
    fprintf(out, ":%u", histogram->entries[i].count);
  }
  fputs("},\"custom_ops\":[", out);
  int first = 1;
  for (uint32_t i = 0; i < histogram->entry_count; ++i) {
    if (!histogram->entries[i].custom) continue;
    if (!first) fputc(',', out);
    first = 0;
    json_write_string(out, histogram->entries[i].key + strlen("CUSTOM:"));
  }
  fprintf(out, "],\"weight_bytes\":%llu,\"peak_activation_bytes\":%llu,\"signatures\":",
          (unsigned long long)summary->weight_bytes,
          (unsigned long long)summary->peak_activation_bytes);
  json_string_list(out, model, summary->signature_count, tflaccel_model_signature_key);
  fputs(",\"metadata\":", out);
  json_string_list(out, model, summary->metadata_count, tflaccel_model_metadata_name);
  return NULL;
}

/* ---- Human-readable ------------------------------------------------------ */

static void print_shape(FILE *out, const int32_t *values, uint32_t count) {
  fputc('[', out);
  for (uint32_t i = 0; i < count; ++i) fprintf(out, "%s%d", i ? "," : "", values[i]);
  fputc(']', out);
}

static void print_quantization(FILE *out, const tflaccel_quantization *q) {
  if (q->count == 0) return;
  if (q->count == 1) {
    fprintf(out, "  scale %.9g, zero point %d", q->scales[0], q->zero_points[0]);
    return;
  }
  fprintf(out, "  per-axis on dimension %d: %u scales (first %.9g), zero points (first %d)",
          q->quantized_dimension, q->count, q->scales[0], q->zero_points[0]);
}

static tflaccel_status print_io(FILE *out, const tflaccel_model *model, uint32_t count, int input) {
  fprintf(out, "%s (%u):\n", input ? "inputs" : "outputs", count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index;
    tflaccel_status status = input ? tflaccel_model_input_tensor(model, i, &index)
                                   : tflaccel_model_output_tensor(model, i, &index);
    if (status) return status;
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = tflaccel_model_tensor_info(model, index, &info);
    if (status) return status;
    fprintf(out, "  %u: '%s' (tensor %u) %s ", i, info.name, index,
            tflaccel_dtype_name(info.dtype));
    print_shape(out, info.shape, info.rank);
    if (info.shape_signature_rank) {
      fputs(" signature ", out);
      print_shape(out, info.shape_signature, info.shape_signature_rank);
    }
    print_quantization(out, &info.quantization);
    fputc('\n', out);
  }
  return NULL;
}

static int by_count(const void *a, const void *b) {
  const op_count *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return strcmp(x->key, y->key);
}

static void print_bytes(FILE *out, const char *label, uint64_t bytes) {
  fprintf(out, "%s: %llu bytes (%.2f MiB)\n", label, (unsigned long long)bytes,
          (double)bytes / (1024.0 * 1024.0));
}

static tflaccel_status print_model(FILE *out, const char *path, const tflaccel_model *model,
                                   const tflaccel_model_summary *summary,
                                   const op_histogram *histogram) {
  fprintf(out, "file: %s\nschema version: %u\n", path, summary->schema_version);
  if (summary->description[0]) fprintf(out, "description: %s\n", summary->description);
  fprintf(out, "subgraphs: %u", summary->subgraph_count);
  for (uint32_t i = 0; i < summary->subgraph_count; ++i) {
    const char *name = tflaccel_model_subgraph_name(model, i);
    fprintf(out, "%s%u '%s'", i ? ", " : " (", i, name ? name : "");
  }
  fputs(summary->subgraph_count ? ")\n" : "\n", out);
  fprintf(out, "tensors: %u (subgraph 0)\n", summary->tensor_count);
  tflaccel_status status = print_io(out, model, summary->input_count, 1);
  if (status == NULL) status = print_io(out, model, summary->output_count, 0);
  if (status) return status;
  fprintf(out, "ops: %u\n", summary->op_count);
  op_count *sorted = NULL;
  if (histogram->entry_count) {
    sorted = malloc(histogram->entry_count * sizeof *sorted);
    if (sorted == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
    memcpy(sorted, histogram->entries, histogram->entry_count * sizeof *sorted);
    qsort(sorted, histogram->entry_count, sizeof *sorted, by_count);
  }
  for (uint32_t i = 0; i < histogram->entry_count; ++i)
    fprintf(out, "  %-32s %u\n", sorted[i].key, sorted[i].count);
  free(sorted);
  fputs("custom ops:", out);
  int any = 0;
  for (uint32_t i = 0; i < histogram->entry_count; ++i) {
    if (!histogram->entries[i].custom) continue;
    fprintf(out, " %s", histogram->entries[i].key + strlen("CUSTOM:"));
    any = 1;
  }
  fputs(any ? "\n" : " none\n", out);
  print_bytes(out, "weights", summary->weight_bytes);
  print_bytes(out, "peak activations (estimate)", summary->peak_activation_bytes);
  if (summary->signature_count) {
    fputs("signatures:", out);
    for (uint32_t i = 0; i < summary->signature_count; ++i)
      fprintf(out, " '%s'", tflaccel_model_signature_key(model, i));
    fputc('\n', out);
  }
  if (summary->metadata_count) {
    fputs("metadata:", out);
    for (uint32_t i = 0; i < summary->metadata_count; ++i)
      fprintf(out, " '%s'", tflaccel_model_metadata_name(model, i));
    fputc('\n', out);
  }
  return NULL;
}

static int fail(tflaccel_status status) {
  fprintf(stderr, "tflaccel inspect: %s\n", tflaccel_status_message(status));
  tflaccel_status_free(status);
  return 1;
}

int tflaccel_cmd_inspect(int argc, char **argv) {
  const char *path = NULL;
  int json = 0;
  /* Any partitioning flag asks for the plan, which needs a compile. */
  cli_compile_flags flags;
  cli_compile_flags_init(&flags);
  int want_plan = 0;
  for (int i = 1; i < argc; ++i) {
    int shared = cli_parse_compile_flag("tflaccel inspect", argc, argv, &i, &flags);
    if (shared < 0) return 2;
    if (shared > 0) {
      want_plan = 1;
      continue;
    }
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "tflaccel inspect: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else if (path == NULL) {
      path = argv[i];
    } else {
      fprintf(stderr, "tflaccel inspect: more than one model given ('%s', '%s')\n", path, argv[i]);
      return 2;
    }
  }
  if (path == NULL) {
    fputs("tflaccel inspect: no model given\n", stderr);
    usage(stderr);
    return 2;
  }
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file(path, &model);
  if (status) return fail(status);
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  op_histogram histogram = {NULL, 0};
  status = tflaccel_model_get_summary(model, &summary);
  if (status == NULL) status = histogram_build(model, summary.op_count, &histogram);
  tflaccel_environment *environment = NULL;
  tflaccel_compiled_model *compiled = NULL;
  if (status == NULL && want_plan &&
      !cli_compile("tflaccel inspect", &flags, model, &environment, &compiled)) {
    histogram_free(&histogram);
    tflaccel_model_destroy(model);
    return 1;
  }
  const char *selection = flags.accelerators ? flags.accelerators
                                             : (environment ? tflaccel_environment_selection(environment) : "");
  if (status == NULL) {
    if (json) {
      status = json_model(stdout, path, model, &summary, &histogram);
      if (status == NULL && compiled != NULL) status = inspect_plan_json(stdout, model, compiled, selection);
      if (status == NULL) fputs("}\n", stdout);
    } else {
      status = print_model(stdout, path, model, &summary, &histogram);
      if (status == NULL && compiled != NULL) status = inspect_plan_print(stdout, model, compiled, selection);
      const char *notes = environment ? tflaccel_environment_selection_notes(environment) : NULL;
      if (status == NULL && compiled != NULL && notes != NULL) printf("\nauto choice:\n%s", notes);
    }
  }
  histogram_free(&histogram);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  if (status) return fail(status);
  if (fflush(stdout) != 0) {
    fputs("tflaccel inspect: cannot write the output\n", stderr);
    return 1;
  }
  return 0;
}
