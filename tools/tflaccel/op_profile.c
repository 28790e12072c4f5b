#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/op_profile.h"

static char *format_text(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(NULL, 0, format, arguments);
  va_end(arguments);
  if (length < 0) return NULL;
  char *text = malloc((size_t)length + 1);
  if (text == NULL) return NULL;
  va_start(arguments, format);
  vsnprintf(text, (size_t)length + 1, format, arguments);
  va_end(arguments);
  return text;
}

void op_profile_free(op_profile *profile) {
  for (uint32_t i = 0; profile->nodes != NULL && i < profile->node_count; ++i) {
    free(profile->nodes[i].type);
    free(profile->nodes[i].name);
    free(profile->nodes[i].kernels);
    run_stats_free(&profile->nodes[i].us);
  }
  free(profile->nodes);
  for (uint32_t i = 0; profile->op_lines != NULL && i < profile->op_count; ++i)
    free(profile->op_lines[i]);
  free(profile->op_lines);
  free(profile->partition_ops_start);
  free(profile->partition_ops);
  run_stats_free(&profile->total_us);
  memset(profile, 0, sizeof *profile);
}

static tflaccel_status out_of_memory(op_profile *profile) {
  op_profile_free(profile);
  return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "op profile: out of memory");
}

/* Reads partition p's kernel counters: into node->kernels when baseline,
 * else the interval since. A partition whose launches changed in between
 * (none should) keeps its whole counters. */
static tflaccel_status read_kernels(tflaccel_compiled_model *compiled, uint32_t p,
                                    profile_node *node, int baseline) {
  uint32_t count = 0;
  tflaccel_status status = tflaccel_compiled_model_read_kernel_profile(compiled, p, &count);
  if (status != NULL) return status;
  if (baseline) {
    free(node->kernels);
    node->kernels = count ? calloc(count, sizeof *node->kernels) : NULL;
    if (count && node->kernels == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "op profile: out of memory");
    node->kernel_count = count;
  }
  int same = count == node->kernel_count;
  for (uint32_t k = 0; k < count && k < node->kernel_count; ++k) {
    tflaccel_kernel_profile info = {.struct_size = sizeof info};
    if ((status = tflaccel_compiled_model_kernel_profile(compiled, p, k, &info)) != NULL)
      return status;
    profile_kernel *kernel = &node->kernels[k];
    int matches = same && (baseline || (kernel->first_op == info.first_op &&
                                        info.runs >= kernel->runs &&
                                        info.total_ns >= kernel->total_ns));
    kernel->kernel = info.kernel;
    kernel->first_op = info.first_op;
    kernel->op_count = info.op_count;
    kernel->runs = baseline || !matches ? info.runs : info.runs - kernel->runs;
    kernel->total_ns = baseline || !matches ? info.total_ns : info.total_ns - kernel->total_ns;
  }
  return NULL;
}

tflaccel_status op_profile_read_kernels(op_profile *profile, tflaccel_compiled_model *compiled) {
  for (uint32_t p = 0; p < profile->node_count; ++p) {
    tflaccel_status status = read_kernels(compiled, p, &profile->nodes[p], 0);
    if (status != NULL) return status;
  }
  return NULL;
}

tflaccel_status op_profile_create(tflaccel_compiled_model *compiled, op_profile *profile) {
  memset(profile, 0, sizeof *profile);
  run_stats_init(&profile->total_us);
  tflaccel_status status = tflaccel_compiled_model_set_profiling(compiled, 1);
  if (status != NULL) return status;
  uint32_t partitions = tflaccel_compiled_model_partition_count(compiled);
  profile->op_count = tflaccel_compiled_model_graph_op_count(compiled);
  profile->nodes = calloc(partitions + 1, sizeof *profile->nodes);
  profile->op_lines = calloc(profile->op_count + 1, sizeof *profile->op_lines);
  profile->partition_ops_start = calloc(partitions + 1, sizeof *profile->partition_ops_start);
  profile->partition_ops = calloc(profile->op_count + 1, sizeof *profile->partition_ops);
  if (!profile->nodes || !profile->op_lines || !profile->partition_ops_start ||
      !profile->partition_ops)
    return out_of_memory(profile);
  for (uint32_t op = 0; op < profile->op_count; ++op) {
    tflaccel_graph_op_info info = {.struct_size = sizeof info};
    if ((status = tflaccel_compiled_model_graph_op_info(compiled, op, &info)) != NULL) {
      op_profile_free(profile);
      return status;
    }
    profile->op_lines[op] = format_text("%s [%s]", info.name, info.output_name);
    if (profile->op_lines[op] == NULL) return out_of_memory(profile);
  }
  uint32_t listed = 0;
  for (uint32_t p = 0; p < partitions; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    if ((status = tflaccel_compiled_model_partition_info(compiled, p, &info)) != NULL) {
      op_profile_free(profile);
      return status;
    }
    profile_node *node = &profile->nodes[p];
    run_stats_init(&node->us);
    ++profile->node_count;
    profile->partition_ops_start[p] = listed;
    for (uint32_t i = 0; i < info.op_count && listed < profile->op_count; ++i)
      profile->partition_ops[listed++] = info.ops[i];
    node->op_count = info.op_count;
    if (info.op_count == 1 && info.ops[0] < profile->op_count) {
      tflaccel_graph_op_info op = {.struct_size = sizeof op};
      if ((status = tflaccel_compiled_model_graph_op_info(compiled, info.ops[0], &op)) != NULL) {
        op_profile_free(profile);
        return status;
      }
      /* A lone op is named like TFLite's nodes, "[first output]:index";
       * off cpu_ref it keeps the accelerator in front. */
      node->type = format_text("%s", op.name);
      if (!strcmp(info.accelerator, "cpu_ref"))
        node->name = format_text("[%s]:%u", op.output_name, info.ops[0]);
      else
        node->name = format_text("[%s partition %u: %s]:%u", info.accelerator, p, op.output_name,
                                 info.ops[0]);
    } else {
      node->type = format_text("%s", info.accelerator);
      node->name = format_text("[%s partition %u: %u ops]", info.accelerator, p, info.op_count);
    }
    if (node->type == NULL || node->name == NULL) return out_of_memory(profile);
    if ((status = read_kernels(compiled, p, node, 1)) != NULL) {
      op_profile_free(profile);
      return status;
    }
  }
  profile->partition_ops_start[partitions] = listed;
  return NULL;
}

tflaccel_status op_profile_add_run(op_profile *profile, const tflaccel_compiled_model *compiled) {
  double total = 0.0;
  for (uint32_t p = 0; p < profile->node_count; ++p) {
    double us = 0.0;
    tflaccel_status status = tflaccel_compiled_model_partition_run_us(compiled, p, &us);
    if (status == NULL) status = run_stats_add(&profile->nodes[p].us, us);
    if (status != NULL) return status;
    total += us;
  }
  return run_stats_add(&profile->total_us, total);
}

/* TFLite's table cell: a tab, then right-aligned in width, 3 decimals. */
static void cell_text(FILE *out, int width, const char *text) { fprintf(out, "\t%*s", width, text); }
static void cell_number(FILE *out, int width, double value) { fprintf(out, "\t%*.3f", width, value); }

static void print_table_header(FILE *out, const char *title, int csv) {
  fprintf(out, "============================== %s ==============================\n", title);
  if (csv) {
    fputs("node type, first, avg_ms, %, cdf%, mem KB, times called, name\n", out);
    return;
  }
  cell_text(out, 24, "[node type]");
  cell_text(out, 9, "[first]");
  cell_text(out, 9, "[avg ms]");
  cell_text(out, 8, "[%]");
  cell_text(out, 8, "[cdf%]");
  cell_text(out, 10, "[mem KB]");
  cell_text(out, 9, "[times called]");
  fputs("\t[Name]\n", out);
}

static void print_node_row(FILE *out, const profile_node *node, double cumulative_us,
                           double total_us, int csv) {
  double first_ms = node->us.count ? node->us.first / 1e3 : 0.0;
  double avg_ms = node->us.count ? run_stats_average(&node->us) / 1e3 : 0.0;
  double percent = total_us > 0 ? node->us.sum * 100.0 / total_us : 0.0;
  double cdf = total_us > 0 ? cumulative_us * 100.0 / total_us : 0.0;
  if (csv) {
    fprintf(out, "%s, %g, %g, %g%%, %g%%, %g, %d, %s\n", node->type, first_ms, avg_ms, percent,
            cdf, 0.0, 1, node->name);
    return;
  }
  cell_text(out, 24, node->type);
  cell_number(out, 9, first_ms);
  cell_number(out, 9, avg_ms);
  fprintf(out, "\t%7.3f%%", percent);
  fprintf(out, "\t%7.3f%%", cdf);
  cell_number(out, 10, 0.0);
  fprintf(out, "\t%9d", 1);
  fprintf(out, "\t%s\n", node->name);
}

/* The ops of partition p beneath its row (not timed one by one), unless
 * its kernels are listed (they name their ops). */
static void print_partition_ops(FILE *out, const op_profile *profile, uint32_t p, int csv) {
  if (profile->nodes[p].op_count <= 1 || profile->nodes[p].kernel_count > 0) return;
  for (uint32_t i = profile->partition_ops_start[p]; i < profile->partition_ops_start[p + 1]; ++i) {
    uint32_t op = profile->partition_ops[i];
    if (csv)
      fprintf(out, "  op %u, %s\n", op, profile->op_lines[op]);
    else
      fprintf(out, "\t%24s\top %u: %s\n", "", op, profile->op_lines[op]);
  }
}

/* Partition p's kernel launches beneath it: per run, the GPU time and its
 * share of the launches' total, and the ops each computes. The time in ms
 * to the nanosecond the timers count in: a kernel of a few hundred ns (a
 * small one on PoCL) must not print as 0.000. */
static void print_partition_kernels(FILE *out, const op_profile *profile, uint32_t p, int csv) {
  const profile_node *node = &profile->nodes[p];
  double total_ns = 0.0;
  for (uint32_t k = 0; k < node->kernel_count; ++k) total_ns += (double)node->kernels[k].total_ns;
  for (uint32_t k = 0; k < node->kernel_count; ++k) {
    const profile_kernel *kernel = &node->kernels[k];
    double avg_ms = kernel->runs ? (double)kernel->total_ns / (double)kernel->runs / 1e6 : 0.0;
    double percent = total_ns > 0 ? (double)kernel->total_ns * 100.0 / total_ns : 0.0;
    int has_op = kernel->first_op < profile->op_count;
    if (csv) {
      fprintf(out, "  kernel, %s, %g, %g%%, %llu runs, ", kernel->kernel, avg_ms, percent,
              (unsigned long long)kernel->runs);
      if (has_op)
        fprintf(out, "op %u, %u ops, %s\n", kernel->first_op, kernel->op_count,
                profile->op_lines[kernel->first_op]);
      else
        fputs("no op, 0 ops, layout conversion\n", out);
      continue;
    }
    fprintf(out, "\t%24s\tkernel %u: %s", "", k, kernel->kernel);
    if (kernel->runs)
      fprintf(out, ": %.6f ms GPU, %.3f%%", avg_ms, percent);
    else
      fputs(": not timed", out);
    if (has_op && kernel->op_count > 1)
      fprintf(out, " (op %u + %u fused: %s)\n", kernel->first_op, kernel->op_count - 1,
              profile->op_lines[kernel->first_op]);
    else if (has_op)
      fprintf(out, " (op %u: %s)\n", kernel->first_op, profile->op_lines[kernel->first_op]);
    else
      fputs(" (layout conversion)\n", out);
  }
}

static int compare_by_time(const void *a, const void *b, void *unused);

void op_profile_print(FILE *out, op_profile *profile, int csv) {
  double total_us = profile->total_us.sum;
  fputs("Operator-wise Profiling Info for Regular Benchmark Runs:\n", out);
  print_table_header(out, "Run Order", csv);
  double cumulative = 0.0;
  for (uint32_t p = 0; p < profile->node_count; ++p) {
    cumulative += profile->nodes[p].us.sum;
    print_node_row(out, &profile->nodes[p], cumulative, total_us, csv);
    print_partition_ops(out, profile, p, csv);
    print_partition_kernels(out, profile, p, csv);
  }
  fputc('\n', out);

  /* Top by computation time: highest average first (stable for equal ones). */
  uint32_t *order = malloc(sizeof *order * (profile->node_count + 1));
  print_table_header(out, "Top by Computation Time", csv);
  if (order != NULL) {
    for (uint32_t i = 0; i < profile->node_count; ++i) order[i] = i;
    for (uint32_t i = 1; i < profile->node_count; ++i)
      for (uint32_t j = i; j > 0 && compare_by_time(&order[j - 1], &order[j], profile) > 0; --j) {
        uint32_t swap = order[j];
        order[j] = order[j - 1];
        order[j - 1] = swap;
      }
    cumulative = 0.0;
    for (uint32_t i = 0; i < profile->node_count; ++i) {
      cumulative += profile->nodes[order[i]].us.sum;
      print_node_row(out, &profile->nodes[order[i]], cumulative, total_us, csv);
    }
  }
  fputc('\n', out);

  /* Summary by node type: count, per-run ms, share and cdf, heaviest first. */
  fprintf(out, "Number of nodes executed: %u\n", profile->node_count);
  fputs("============================== Summary by node type ==============================\n",
        out);
  if (csv) {
    fputs("node type, count, avg_ms, avg %, cdf %, mem KB, times called\n", out);
  } else {
    cell_text(out, 24, "[Node type]");
    cell_text(out, 9, "[count]");
    cell_text(out, 10, "[avg ms]");
    cell_text(out, 11, "[avg %]");
    cell_text(out, 11, "[cdf %]");
    cell_text(out, 10, "[mem KB]");
    cell_text(out, 10, "[times called]");
    fputc('\n', out);
  }
  if (order != NULL) {
    /* Types in order of first appearance, with summed per-run time. */
    uint32_t type_count = 0;
    double runs = profile->total_us.count ? (double)profile->total_us.count : 1.0;
    double *type_us = calloc(profile->node_count + 1, sizeof *type_us);
    uint32_t *type_nodes = calloc(profile->node_count + 1, sizeof *type_nodes);
    uint32_t *type_first = calloc(profile->node_count + 1, sizeof *type_first);
    if (type_us && type_nodes && type_first) {
      double accumulated = 0.0;
      for (uint32_t p = 0; p < profile->node_count; ++p) {
        uint32_t t = 0;
        while (t < type_count && strcmp(profile->nodes[type_first[t]].type, profile->nodes[p].type))
          ++t;
        if (t == type_count) type_first[type_count++] = p;
        double per_run = (double)(long long)(profile->nodes[p].us.sum / runs);
        type_us[t] += per_run;
        type_nodes[t] += 1;
        accumulated += per_run;
      }
      for (uint32_t i = 0; i < type_count; ++i) order[i] = i;
      for (uint32_t i = 1; i < type_count; ++i)
        for (uint32_t j = i; j > 0 && type_us[order[j - 1]] < type_us[order[j]]; --j) {
          uint32_t swap = order[j];
          order[j] = order[j - 1];
          order[j - 1] = swap;
        }
      double cdf = 0.0;
      for (uint32_t i = 0; i < type_count; ++i) {
        uint32_t t = order[i];
        double percent = accumulated > 0 ? type_us[t] * 100.0 / accumulated : 0.0;
        cdf += percent;
        const char *type = profile->nodes[type_first[t]].type;
        if (csv) {
          fprintf(out, "%s, %u, %g, %g%%, %g%%, %g, %u\n", type, type_nodes[t], type_us[t] / 1e3,
                  percent, cdf, 0.0, type_nodes[t]);
        } else {
          cell_text(out, 24, type);
          fprintf(out, "\t%9u", type_nodes[t]);
          cell_number(out, 10, type_us[t] / 1e3);
          fprintf(out, "\t%10.3f%%", percent);
          fprintf(out, "\t%10.3f%%", cdf);
          cell_number(out, 10, 0.0);
          fprintf(out, "\t%9u\n", type_nodes[t]);
        }
      }
    }
    free(type_us);
    free(type_nodes);
    free(type_first);
  }
  free(order);
  fputc('\n', out);
  fputs("Timings (microseconds): ", out);
  run_stats_print_line(out, &profile->total_us);
  fputs("\nMemory (bytes): count=0\n", out);
  fprintf(out, "%u nodes observed\n\n", profile->node_count);
}

static int compare_by_time(const void *a, const void *b, void *untyped_profile) {
  const op_profile *profile = untyped_profile;
  double left = run_stats_average(&profile->nodes[*(const uint32_t *)a].us);
  double right = run_stats_average(&profile->nodes[*(const uint32_t *)b].us);
  return left < right ? 1 : 0;
}
